"""A failure's normalised cause: exception type and first message line, numbers masked.

``describe(type, value, tb) -> (cause, where)``:

- ``cause`` is ``"TypeName: first message line"`` with hex addresses written
  ``0x#``, standalone numbers ``N`` and absolute paths cut to their file
  name, so the same failure in different tests (other shapes, values,
  object addresses) reads the same and groups together;
- ``where`` is the innermost traceback frame inside the library under test
  (``msxla/...`` or ``mindspore/...``) as ``path:function``, or None.

Without an exception object (collection errors, which pytest hands over as
text) the cause is read from the text's ``E   Type: message`` lines.
Shared by the pytest plugin (both interpreters) and the runner: standard
library only.
"""
import re

MAX_LEN = 160

_HEX = re.compile(r"0x[0-9a-fA-F]+")
_PATH = re.compile(r"(?:[A-Za-z]:)?(?:/[\w.\-+@]+){2,}/([\w.\-+@]+)")
_NUM = re.compile(r"(?<![\w.])[-+]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?(?![\w])")
_E_LINE = re.compile(r"^E\s+(.*)$")
_TYPED = re.compile(r"^([A-Za-z_][\w.]*(?:Error|Exception|Exit|Warning|Interrupt|Failed|"
                    r"Unsupported|Skipped)): ?(.*)$")
_LIBS = ("msxla", "mindspore")


def mask(text: str) -> str:
    """Numbers, addresses and absolute paths masked, whitespace collapsed, length capped."""
    text = _HEX.sub("0x#", text)
    text = _PATH.sub(r"\1", text)
    text = _NUM.sub("N", text)
    text = " ".join(text.split())
    return text if len(text) <= MAX_LEN else text[:MAX_LEN - 3] + "..."


def first_line(text: str) -> str:
    for line in str(text).splitlines():
        if line.strip():
            return line.strip()
    return ""


def describe(exc_type, value, tb):
    """``(cause, where)`` of an exception (or of a text when ``exc_type`` is None)."""
    if exc_type is None:
        return _from_text(str(value)), None
    name = exc_type if isinstance(exc_type, str) else exc_type.__name__
    try:
        message = first_line(value)
    except Exception:  # noqa: BLE001 - a broken __str__ must not lose the record
        message = "<unprintable message>"
    cause = f"{name}: {mask(message)}" if message else name
    return cause, where_in_library(tb)


def _from_text(text: str) -> str:
    lines = [m.group(1).strip() for m in map(_E_LINE.match, text.splitlines()) if m]
    for line in lines:
        typed = _TYPED.match(line)
        if typed:
            return f"{typed.group(1).rsplit('.', 1)[-1]}: {mask(typed.group(2))}".rstrip(": ")
    for line in reversed(text.splitlines()):
        typed = _TYPED.match(line.strip())
        if typed:
            return f"{typed.group(1).rsplit('.', 1)[-1]}: {mask(typed.group(2))}".rstrip(": ")
    return mask(lines[0] if lines else first_line(text)) or "unknown"


def where_in_library(tb):
    """The innermost frame of ``tb`` inside msxla or mindspore, as ``path:function``."""
    found = None
    while tb is not None:
        code = tb.tb_frame.f_code
        rel = _library_path(code.co_filename)
        if rel is not None:
            found = f"{rel}:{code.co_name}"
        tb = tb.tb_next
    return found


def _library_path(filename: str):
    parts = filename.replace("\\", "/").split("/")
    for i, part in enumerate(parts[:-1]):
        if part in _LIBS and parts[i + 1] != "tests":
            return "/".join(parts[i:])
    return None
