"""The msgpack subset MindRecord stores its raw (non-blob) fields in.

MindSpore writes each row's scalar fields as one msgpack map with sorted
keys (nlohmann::json's encoder): integers in their smallest encoding, a
float as float32 when it survives the round trip exactly (else float64),
strings as str8/16/32. ``pack`` writes exactly that; ``unpack`` reads any
msgpack map of scalars.
"""
from __future__ import annotations

import struct


def _int(v):
    if v >= 0:
        if v < 0x80:
            return bytes([v])
        for code, fmt, limit in ((0xcc, ">B", 1 << 8), (0xcd, ">H", 1 << 16),
                                 (0xce, ">I", 1 << 32), (0xcf, ">Q", 1 << 64)):
            if v < limit:
                return bytes([code]) + struct.pack(fmt, v)
        raise OverflowError(f"{v} does not fit in 64 bits")
    if v >= -32:
        return struct.pack(">b", v)
    for code, fmt, limit in ((0xd0, ">b", 1 << 7), (0xd1, ">h", 1 << 15),
                             (0xd2, ">i", 1 << 31), (0xd3, ">q", 1 << 63)):
        if v >= -limit:
            return bytes([code]) + struct.pack(fmt, v)
    raise OverflowError(f"{v} does not fit in 64 bits")


def _str(s):
    b = s.encode("utf-8")
    n = len(b)
    if n < 32:
        head = bytes([0xa0 | n])
    elif n < 1 << 8:
        head = b"\xd9" + struct.pack(">B", n)
    elif n < 1 << 16:
        head = b"\xda" + struct.pack(">H", n)
    else:
        head = b"\xdb" + struct.pack(">I", n)
    return head + b


def _value(v):
    if isinstance(v, bool):
        return b"\xc3" if v else b"\xc2"
    if isinstance(v, int):
        return _int(v)
    if isinstance(v, float):
        single = struct.unpack(">f", struct.pack(">f", v))[0] if abs(v) < 3.5e38 else None
        if single == v or v != v:
            return b"\xca" + struct.pack(">f", v)
        return b"\xcb" + struct.pack(">d", v)
    if isinstance(v, str):
        return _str(v)
    if v is None:
        return b"\xc0"
    raise TypeError(f"msgpack: unsupported value {v!r}")


def pack(row: dict) -> bytes:
    """A map of scalars, keys sorted."""
    n = len(row)
    head = bytes([0x80 | n]) if n < 16 else (b"\xde" + struct.pack(">H", n) if n < 1 << 16
                                             else b"\xdf" + struct.pack(">I", n))
    return head + b"".join(_str(k) + _value(row[k]) for k in sorted(row))


_FIXED = {0xcc: ">B", 0xcd: ">H", 0xce: ">I", 0xcf: ">Q", 0xd0: ">b", 0xd1: ">h", 0xd2: ">i",
          0xd3: ">q", 0xca: ">f", 0xcb: ">d"}
_LEN = {0xd9: ">B", 0xda: ">H", 0xdb: ">I", 0xc4: ">B", 0xc5: ">H", 0xc6: ">I"}


def _read(buf, pos):
    c = buf[pos]
    pos += 1
    if c < 0x80:
        return c, pos
    if c >= 0xe0:
        return c - 0x100, pos
    if 0xa0 <= c <= 0xbf:
        n = c & 0x1f
        return buf[pos:pos + n].decode("utf-8"), pos + n
    if 0x80 <= c <= 0x8f or c in (0xde, 0xdf):
        if c in (0xde, 0xdf):
            fmt = ">H" if c == 0xde else ">I"
            n = struct.unpack_from(fmt, buf, pos)[0]
            pos += struct.calcsize(fmt)
        else:
            n = c & 0x0f
        out = {}
        for _ in range(n):
            k, pos = _read(buf, pos)
            out[k], pos = _read(buf, pos)
        return out, pos
    if c in _FIXED:
        fmt = _FIXED[c]
        return struct.unpack_from(fmt, buf, pos)[0], pos + struct.calcsize(fmt)
    if c in _LEN:
        fmt = _LEN[c]
        n = struct.unpack_from(fmt, buf, pos)[0]
        pos += struct.calcsize(fmt)
        raw = bytes(buf[pos:pos + n])
        return (raw.decode("utf-8") if c >= 0xd9 else raw), pos + n
    if c in (0xc0, 0xc2, 0xc3):
        return {0xc0: None, 0xc2: False, 0xc3: True}[c], pos
    raise ValueError(f"msgpack: unsupported type byte 0x{c:02x}")


def unpack(buf) -> dict:
    value, _ = _read(memoryview(buf).tobytes() if not isinstance(buf, bytes) else buf, 0)
    return value
