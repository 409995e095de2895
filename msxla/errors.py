"""msxla's user-facing errors.

Each error subclasses the builtin exception MindSpore raises in the same
situation (ValueError, TypeError, RuntimeError, ...), so ``except ValueError``
keeps working, and carries the user's source location and a hint saying what
to change. The message reads::

    <what went wrong>
      File "train.py", line 12, in construct
        if x.sum() > 0:
           ^^^^^^^^^^^
    Hint: <what to change>
"""
from __future__ import annotations

from msxla._source import SourceLoc, user_location


class MsxlaError(Exception):
    """Mixin for errors that point at user code."""

    loc: SourceLoc | None = None
    hint: str | None = None


def _compose(message, loc, hint, extra_locs=()):
    parts = [message]
    for where in (loc, *extra_locs):
        if where is not None:
            parts.append(where.format())
    if hint:
        parts.append(f"Hint: {hint}")
    return "\n".join(parts)


def _make(base, name, doc):
    cls = type(name, (MsxlaError, base), {"__doc__": doc, "__module__": __name__})
    return cls


CaptureError = _make(RuntimeError, "CaptureError",
                     "A function could not be captured into a graph.")
UnsupportedError = _make(RuntimeError, "UnsupportedError",
                         "Python the chosen capture mode cannot turn into a graph "
                         "(raised with fullgraph=True; MindSpore's `Unsupported`).")
GraphBreakError = UnsupportedError
ConcretizationError = _make(RuntimeError, "ConcretizationError",
                            "A Python value was needed from a Tensor that only exists in the "
                            "graph being built (e.g. `if tensor:` under trace capture).")
JitSyntaxError = _make(SyntaxError, "JitSyntaxError",
                       "Syntax the ast capture mode does not support.")
ShapeError = _make(ValueError, "ShapeError", "Shapes that do not fit an op.")
DTypeError = _make(TypeError, "DTypeError", "Dtypes that an op does not accept.")
ArgumentTypeError = _make(TypeError, "ArgumentTypeError",
                          "An argument of a type an op does not take (a string, a dict, ...).")
GuardError = _make(RuntimeError, "GuardError", "A compiled graph's guard could not be checked.")


def user_error(cls, message: str, *, loc: SourceLoc | None = None, hint: str | None = None,
               extra_locs=(), find_loc: bool = True):
    """Build ``cls`` with the user's location (found on the stack if not given)."""
    if loc is None and find_loc:
        loc = user_location()
    err = cls(_compose(message, loc, hint, extra_locs))
    if isinstance(err, MsxlaError):
        err.loc, err.hint = loc, hint
    return err
