"""The runtime of converted code: what ``ms__.<name>`` means.

Converted functions see this module as ``ms__`` (a closure variable, not a
global: the user's module is not touched). Everything here runs while a
graph is captured, never when the compiled graph runs.
"""
from __future__ import annotations

from msxla.capture.ast.resolve import call, converted  # noqa: F401
from msxla.capture.ast.runtime_cond import and_, if_exp, if_stmt, not_, or_, ret  # noqa: F401
from msxla.capture.ast.runtime_loops import for_stmt, loop_cond, while_stmt  # noqa: F401
from msxla.capture.ast.strings import fstring, percent  # noqa: F401
from msxla.capture.ast.values import undefined  # noqa: F401
