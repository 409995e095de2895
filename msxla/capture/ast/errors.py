"""The errors ast capture raises, each at the user's line and saying what to change.

They subclass the builtin exception MindSpore raises in the same situation:

- unsupported syntax (``try``, ``yield``, ``class`` ... under ``fullgraph=True``):
  ``RuntimeError`` ("Unsupported statement 'Try'");
- branches of a Tensor ``if`` that give different dtypes: ``TypeError``
  ("Type Join Failed"), different shapes: ``ValueError`` ("Shape Join Failed");
- a variable defined in one branch only and used after it: ``UnboundLocalError``;
- a function whose source cannot be read: ``OSError``.
"""
from __future__ import annotations

from msxla._source import SourceLoc
from msxla.errors import MsxlaError, UnsupportedError, user_error


def _make(base, name, doc):
    return type(name, (MsxlaError, base), {"__doc__": doc, "__module__": __name__})


SourceUnavailableError = _make(OSError, "SourceUnavailableError",
                               "The source of a function ast capture must convert is missing.")
TypeJoinError = _make(TypeError, "TypeJoinError",
                      "The branches of a Tensor condition give values of different types.")
ShapeJoinError = _make(ValueError, "ShapeJoinError",
                       "The branches of a Tensor condition give Tensors of different shapes.")
UndefinedInBranchError = _make(UnboundLocalError, "UndefinedInBranchError",
                               "A variable is defined on one path of a Tensor condition only.")
UNSUPPORTED_HINT = ("move it out of the jitted function, or use fullgraph=False (JIT Fallback "
                    "runs it in Python)")


def loc(filename, where) -> SourceLoc | None:
    """A SourceLoc from a ``(line, col, end_col, function)`` tuple recorded at conversion."""
    if where is None:
        return None
    line, col, end_col, function = where
    return SourceLoc(filename, line, col, end_col, line, function)


def node_loc(filename, node, function="") -> SourceLoc:
    end_line = getattr(node, "end_lineno", None)
    end_col = node.end_col_offset if end_line == node.lineno else None
    return SourceLoc(filename, node.lineno, node.col_offset, end_col, node.lineno, function)


def unsupported(filename, node, message, function, hint=UNSUPPORTED_HINT):
    """Unsupported syntax, pointing at ``node``."""
    return user_error(UnsupportedError, message, loc=node_loc(filename, node, function),
                      hint=hint)
