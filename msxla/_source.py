"""Where in the user's code something happened: frames, locations, carets.

Every user-facing error names the user's file and line. This module finds the
innermost frame that belongs to the user (not to msxla, jax or the standard
library plumbing) and formats it the way Python's own tracebacks do, with a
caret under the offending expression.
"""
from __future__ import annotations

import dataclasses
import linecache
import os
import sys
import sysconfig
import threading
import types

_PKG_DIR = os.path.dirname(os.path.abspath(__file__)) + os.sep
_JAX_DIRS = tuple(
    os.path.dirname(os.path.abspath(m.__file__)) + os.sep
    for m in [sys.modules.get("jax"), sys.modules.get("jaxlib")] if m is not None)
_PLUMBING = ("<frozen ", "<msxla op ", os.sep + "contextlib.py", os.sep + "functools.py",
             os.sep + "threading.py", os.sep + "inspect.py")


def is_internal_file(filename: str) -> bool:
    """True for files of msxla, jax or Python plumbing (never the user's code)."""
    if filename.startswith(_PKG_DIR):
        return True
    if filename.startswith(_JAX_DIRS):
        return True
    return any(p in filename for p in _PLUMBING)


_STDLIB = tuple({os.path.realpath(sysconfig.get_paths()[k]) + os.sep
                 for k in ("stdlib", "platstdlib")})
_SITE = (os.sep + "site-packages" + os.sep, os.sep + "dist-packages" + os.sep)
_user_code_cache: dict = {}


def is_user_file(filename: str) -> bool:
    """True for the user's files: not msxla, jax, the standard library or an installed
    package (exec'd and generated code counts as the user's)."""
    if filename.startswith("<frozen"):
        return False
    if filename.startswith("<"):
        return True  # `python -c`, exec'd code, generated dataclass/namedtuple methods
    if is_internal_file(filename):
        return False
    real = os.path.realpath(filename)
    if any(s in real for s in _SITE):
        return False
    return not real.startswith(_STDLIB)


def is_user_code(code: types.CodeType) -> bool:
    try:
        return _user_code_cache[code.co_filename]
    except KeyError:
        result = _user_code_cache[code.co_filename] = is_user_file(code.co_filename)
        return result


@dataclasses.dataclass(frozen=True)
class SourceLoc:
    """A place in user code: file, line, column span and the source text."""

    file: str
    line: int
    col: int | None = None
    end_col: int | None = None
    end_line: int | None = None
    function: str = ""

    @property
    def text(self) -> str:
        return linecache.getline(self.file, self.line).rstrip("\n")

    def __str__(self):
        return f"{self.file}:{self.line}"

    def format(self) -> str:
        """Python-traceback style: the location, the line, and a caret."""
        head = f'  File "{self.file}", line {self.line}'
        if self.function:
            head += f", in {self.function}"
        text = self.text
        if not text:
            return head
        stripped = text.lstrip()
        indent = len(text) - len(stripped)
        out = [head, "    " + stripped]
        if self.col is not None and self.col >= indent:
            end = self.end_col if (self.end_col is not None and self.end_line in (None, self.line)
                                   and self.end_col > self.col) else len(text)
            out.append("    " + " " * (self.col - indent) + "^" * max(1, end - self.col))
        return "\n".join(out)

    @classmethod
    def from_frame(cls, frame: types.FrameType, lasti: int | None = None) -> "SourceLoc":
        code = frame.f_code
        lasti = frame.f_lasti if lasti is None else lasti
        line, end_line, col, end_col = _positions(code, lasti)
        if line is None:
            line = frame.f_lineno
        return cls(code.co_filename, line, col, end_col, end_line, code.co_name)

    @classmethod
    def from_code(cls, code: types.CodeType, lasti: int) -> "SourceLoc":
        line, end_line, col, end_col = _positions(code, lasti)
        return cls(code.co_filename, line or code.co_firstlineno, col, end_col, end_line,
                   code.co_name)


def _positions(code, lasti):
    try:
        for i, pos in enumerate(code.co_positions()):
            if 2 * i == lasti:
                return pos
    except (AttributeError, ValueError):
        pass
    return None, None, None, None


def user_frame(start: types.FrameType | None = None):
    """The innermost frame on the stack that is user code (or None)."""
    frame = start if start is not None else sys._getframe(1)
    while frame is not None:
        if not is_internal_file(frame.f_code.co_filename):
            return frame
        frame = frame.f_back
    return None


class _Interpreted(threading.local):
    """Frames of user code that msxla's bytecode interpreter is running: the
    interpreter's own Python frame -> the interpreted frame. That code is not on
    CPython's stack, so an error raised while it runs would otherwise name the
    line that called the jitted function."""

    def __init__(self):
        self.frames = {}


INTERPRETED = _Interpreted()


def user_location(start: types.FrameType | None = None) -> SourceLoc | None:
    frame = start if start is not None else sys._getframe(1)
    interpreted = INTERPRETED.frames
    while frame is not None:
        if interpreted:
            virtual = interpreted.get(id(frame))
            if virtual is not None:
                code, offset = virtual()
                return SourceLoc.from_code(code, offset)
        if not is_internal_file(frame.f_code.co_filename):
            return SourceLoc.from_frame(frame)
        frame = frame.f_back
    return None


def user_location_from_traceback(tb) -> SourceLoc | None:
    """The innermost user location in a traceback object."""
    found = None
    while tb is not None:
        if not is_internal_file(tb.tb_frame.f_code.co_filename):
            found = SourceLoc.from_code(tb.tb_frame.f_code, tb.tb_lasti)
        tb = tb.tb_next
    return found


def exclude_from_jax_tracebacks():
    """Tell jax that msxla's frames are not user code, so StableHLO locations
    and jax's filtered tracebacks point at the user's lines."""
    from jax.extend import source_info_util
    source_info_util.register_exclusion(_PKG_DIR)
