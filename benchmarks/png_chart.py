"""A bar chart of per-call time by variant, written as a PNG with the standard library.

No plotting package is needed: the chart is drawn into an RGB pixel buffer
with a 3x5 bitmap font (upper case, digits, a few signs) and encoded with
``zlib`` as a PNG. One panel per table (workload and direction), one bar per
variant on a log scale (wall clock, and beneath it a thin bar of process
CPU time), coloured by kind: msxla jit, msxla PyNative, raw jax.jit, jax
eager.
"""
from __future__ import annotations

import math
import struct
import zlib

import progress

# each glyph: five rows of three pixels, one octal digit per row (4 = left pixel)
GLYPHS = {
    "0": "75557", "1": "26227", "2": "71747", "3": "71717", "4": "55711", "5": "74717",
    "6": "74757", "7": "71111", "8": "75757", "9": "75717", "A": "25755", "B": "65656",
    "C": "34443", "D": "65556", "E": "74647", "F": "74644", "G": "34553", "H": "55755",
    "I": "72227", "J": "11152", "K": "55655", "L": "44447", "M": "57755", "N": "65555",
    "O": "25552", "P": "65644", "Q": "25563", "R": "65655", "S": "34216", "T": "72222",
    "U": "55557", "V": "55552", "W": "55775", "X": "55255", "Y": "55222", "Z": "71247",
    " ": "00000", ".": "00002", "+": "02720", "-": "00700", "(": "12221", ")": "42224",
    "/": "11244", ":": "02020", "_": "00007", "=": "07070", "%": "51245", ",": "00024",
    "*": "52500",
}
SCALE = 2                     # font pixels per glyph pixel
ADVANCE = 4 * SCALE           # glyph width plus spacing
ROW = 9 * SCALE               # height of one bar row
WHITE, BLACK, GREY = (255, 255, 255), (0, 0, 0), (200, 200, 200)
COLOURS = {"jit": (52, 101, 164), "PyNative": (245, 121, 0), "jax.jit": (78, 154, 6),
           "jax eager": (136, 138, 133), "torch eager": (204, 0, 0),
           "torch.compile": (117, 80, 123)}


class Canvas:
    def __init__(self, width, height):
        self.width, self.height = width, height
        self.rows = [bytearray(bytes(WHITE) * width) for _ in range(height)]

    def rect(self, x0, y0, x1, y1, colour):
        x0, x1 = max(0, int(x0)), min(self.width, int(x1))
        for y in range(max(0, int(y0)), min(self.height, int(y1))):
            self.rows[y][3 * x0:3 * x1] = bytes(colour) * (x1 - x0)

    def text(self, x, y, string, colour=BLACK):
        for ch in str(string).upper().replace("µ", "U"):
            glyph = GLYPHS.get(ch, GLYPHS["-"])
            for r, digit in enumerate(glyph):
                bits = int(digit, 8)
                for c in range(3):
                    if bits & (4 >> c):
                        self.rect(x + c * SCALE, y + r * SCALE, x + (c + 1) * SCALE,
                                  y + (r + 1) * SCALE, colour)
            x += ADVANCE
        return x

    def png(self) -> bytes:
        raw = b"".join(b"\x00" + bytes(row) for row in self.rows)

        def chunk(kind, data):
            body = kind + data
            return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))
        header = struct.pack(">IIBBBBB", self.width, self.height, 8, 2, 0, 0, 0)
        return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
                + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def _colour(row):
    if row["kind"] == "msxla":
        return COLOURS["jit"] if row["enable_jit"] else COLOURS["PyNative"]
    return COLOURS[row["kind"]]


def _fmt(us):
    if us >= 1e3:
        return f"{us / 1e3:.2f} MS"
    return f"{us:.1f} US"


def _dark(colour):
    return tuple(c * 3 // 5 for c in colour)


def draw(result, width=960) -> bytes:
    """The chart of ``result`` (the benchmark's JSON dict) as PNG bytes."""
    tables = [{**t, "rows": progress.timed(t["rows"])} for t in result["tables"]]
    tables = [t for t in tables if t["rows"]]
    label_w = 2 * SCALE + ADVANCE * max(
        [len(r["variant"]) + 1 for t in tables for r in t["rows"]] + [8])
    value_w = ADVANCE * 22
    bar_w = max(100, width - label_w - value_w - 4 * SCALE)
    height = 6 * SCALE + sum(ROW * (len(t["rows"]) + 2) for t in tables) + 2 * ROW
    canvas = Canvas(width, height)
    y = 3 * SCALE
    canvas.text(2 * SCALE, y, "PER-CALL TIME BY VARIANT (LOG SCALE, BEST OF ROUNDS): "
                "THICK BAR WALL CLOCK, THIN BAR PROCESS CPU TIME")
    y += ROW + ROW // 2
    for table in tables:
        canvas.text(2 * SCALE, y, table["title"])
        y += ROW
        times = [r[k] for r in table["rows"] for k in ("per_call_us", "cpu_per_call_us")]
        lo = math.log10(min(times)) - 0.3
        hi = math.log10(max(times)) + 0.05

        def length(us):
            return max(2, int((math.log10(us) - lo) / max(hi - lo, 1e-9) * bar_w))
        for row in table["rows"]:
            canvas.text(2 * SCALE, y + SCALE, row["variant"])
            x0, mid, bottom = label_w, y + 5 * SCALE, y + ROW - 2 * SCALE
            canvas.rect(x0, y, x0 + bar_w, bottom, (245, 245, 245))
            canvas.rect(x0, y, x0 + length(row["per_call_us"]), mid, _colour(row))
            canvas.rect(x0, mid + SCALE // 2, x0 + length(row["cpu_per_call_us"]), bottom,
                        _dark(_colour(row)))
            canvas.text(x0 + bar_w + 2 * SCALE, y + SCALE, f"{_fmt(row['per_call_us'])} / "
                        f"{_fmt(row['cpu_per_call_us'])}")
            y += ROW
        canvas.rect(2 * SCALE, y + ROW // 3, width - 2 * SCALE, y + ROW // 3 + 1, GREY)
        y += ROW // 2 + ROW // 3
    x = 2 * SCALE
    shown = {_colour(r) for t in tables for r in t["rows"]}
    for name, colour in COLOURS.items():
        if colour not in shown:
            continue
        canvas.rect(x, y, x + 5 * SCALE, y + 5 * SCALE, colour)
        x = canvas.text(x + 7 * SCALE, y, "MSXLA " + name if name in ("jit", "PyNative")
                        else name) + 4 * ADVANCE
    return canvas.png()


def plot(result, path):
    with open(path, "wb") as fh:
        fh.write(draw(result))
