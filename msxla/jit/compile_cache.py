"""MindSpore's compile cache: executables kept on disk and reused by later processes.

``set_context(enable_compile_cache=True, compile_cache_path=DIR)``, or the
environment variables ``MS_COMPILER_CACHE_ENABLE=1`` and
``MS_COMPILER_CACHE_PATH=DIR``, turn it on (``DIR`` defaults to the current
directory; each rank gets ``DIR/rank_<RANK_ID>/``, as in MindSpore). Every
XLA executable msxla compiles then goes through jax's persistent compilation
cache in ``DIR/rank_<id>/xla``: an executable whose StableHLO module, compile
options (the jit level's XLA passes), jax, XLA and device are the same as in
an earlier process is loaded instead of compiled. That covers jitted graphs,
pieces of functions with graph breaks, ``dynamic=1`` shapes, traced calls
under ``grad`` and the eager op rows PyNative runs. ``backend="GE"`` graphs
are kept the same way in ``DIR/rank_<id>/ge``: the AIR bytes converted from a
StableHLO module, keyed by the module's text, the graph's signature and
options and a fingerprint of the converter's own source (``cached_bytes``),
so a changed converter never reuses an old conversion. Capture and lowering
run again in each process (a captured graph holds live Python objects:
guards, Parameters), so the cache saves XLA's compile time (and GE's
conversion), which dominates the first call of a network.

The files are msxla's own envelope around jax's entry: a magic line, the
cache key, the payload's length and its SHA-256. A file whose envelope does
not check out (truncated by a crash, written by something else, from an
older format) is ignored with a warning and removed; the executable is
compiled again and rewritten. Files are written to a temporary name and
renamed into place, so several processes can fill one cache at once and a
reader never sees half a file.
"""
from __future__ import annotations

import hashlib
import os
import pathlib
import threading

from msxla import flags
from msxla._jax_compat import set_persistent_cache
from msxla._log import LOG
from msxla.context import CONTEXT

MAGIC = b"msxla compile cache 1\n"
_SUFFIX = "-cache"
_state = {"dir": None}
_lock = threading.Lock()
_counts = {"hits": 0, "misses": 0, "rejected": 0, "writes": 0}
_ge_counts = dict.fromkeys(_counts, 0)


def stats() -> dict:
    """This process's cache lookups of XLA executables: ``hits`` (loaded), ``misses``,
    ``rejected`` (invalid files removed) and ``writes`` (compiled and stored); ``ge``:
    the same for GE graphs."""
    return dict(_counts, dir=_state["dir"], ge=dict(_ge_counts))


class CheckedFileCache:
    """jax's cache interface over files with a checked envelope (see the module doc)."""

    def __init__(self, path, counts=None):
        self._path = pathlib.Path(path)
        self._path.mkdir(parents=True, exist_ok=True)
        self.counts = _counts if counts is None else counts

    def get(self, key: str) -> bytes | None:
        path = self._path / (key + _SUFFIX)
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            self.counts["misses"] += 1
            return None
        except OSError as err:
            LOG.warning("compile cache: cannot read %s (%s); compiling instead.", path, err)
            return None
        payload = unpack(key, data)
        self.counts["hits" if payload is not None else "rejected"] += 1
        if payload is None:
            LOG.warning("compile cache: %s is not a valid entry (truncated, foreign or from "
                        "another version); it is ignored and removed, and the graph is "
                        "compiled again.", path)
            try:
                path.unlink()
            except OSError:
                pass
        return payload

    def put(self, key: str, value: bytes) -> None:
        """Write (or replace: jax only writes after compiling, so a file already there
        did not load) the entry under a temporary name, then rename it into place."""
        path = self._path / (key + _SUFFIX)
        tmp = path.with_name(f".{key}.{os.getpid()}.{threading.get_ident()}.tmp")
        try:
            tmp.write_bytes(pack(key, value))
            os.replace(tmp, path)
            self.counts["writes"] += 1
        except OSError as err:
            LOG.warning("compile cache: cannot write %s (%s).", path, err)
            try:
                tmp.unlink()
            except OSError:
                pass

    def clear(self):
        for path in self._path.glob("*" + _SUFFIX):
            path.unlink(missing_ok=True)


def pack(key: str, payload: bytes) -> bytes:
    digest = hashlib.sha256(payload).hexdigest()
    return MAGIC + f"{key}\n{len(payload)}\n{digest}\n".encode() + payload


def unpack(key: str, data: bytes) -> bytes | None:
    """The payload of an entry written for ``key``; None if the envelope does not check."""
    if not data.startswith(MAGIC):
        return None
    parts = data[len(MAGIC):].split(b"\n", 3)
    if len(parts) != 4:
        return None
    stored_key, length, digest, payload = parts
    try:
        ok = (stored_key.decode() == key and int(length) == len(payload)
              and hashlib.sha256(payload).hexdigest() == digest.decode())
    except (UnicodeDecodeError, ValueError):
        return None
    return payload if ok else None


def cache_dir() -> str | None:
    """The XLA cache directory the context and environment ask for (None: no cache)."""
    enabled = CONTEXT.get("enable_compile_cache")
    path = CONTEXT.get("compile_cache_path")
    if not (enabled or flags.compile_cache_enabled()):
        return None
    root = path or flags.compile_cache_path() or "."
    rank = os.environ.get("RANK_ID", "0").strip() or "0"
    return os.path.join(os.path.abspath(root), f"rank_{rank}", "xla")


def configure():
    """Point jax's persistent cache at the directory asked for (or turn it off)."""
    target = cache_dir()
    with _lock:
        if target == _state["dir"]:
            return
        set_persistent_cache(target, CheckedFileCache(target) if target else None)
        _state["dir"] = target


def cached_bytes(kind: str, key_text: str, make) -> bytes:
    """``make()``, or the bytes stored for the same ``key_text`` in the cache's ``kind``
    directory (beside ``xla``) by this or an earlier process; ``make()`` alone when the
    cache is off. ``key_text`` must determine the bytes completely."""
    root = _state["dir"]
    if root is None:
        return make()
    store = CheckedFileCache(os.path.join(os.path.dirname(root), kind), _ge_counts)
    key = hashlib.sha256(key_text.encode()).hexdigest()
    data = store.get(key)
    if data is None:
        data = make()
        store.put(key, data)
    return data


def source_fingerprint(package) -> str:
    """A hash of a package's Python source (a converter's version, for cache keys)."""
    digest = hashlib.sha256()
    for path in sorted(pathlib.Path(package.__file__).parent.rglob("*.py")):
        digest.update(path.read_bytes())
    return digest.hexdigest()


def _on_set_context(keys):
    if "enable_compile_cache" in keys or "compile_cache_path" in keys:
        configure()


CONTEXT.committed.append(_on_set_context)
configure()  # MS_COMPILER_CACHE_ENABLE / MS_COMPILER_CACHE_PATH
