"""``raise`` (and a failing ``assert``) under a Tensor condition.

When a graph branch's Python code raises while it is captured (``if x.sum()
< 0: raise ValueError(...)``), whether the program raises is only known when
the graph runs. MindSpore raises then, when the branch is taken:

- fullgraph=False (LAX): the function runs in Python (JIT Fallback), which
  raises exactly what PyNative raises, when PyNative raises it;
- fullgraph=True (STRICT): the branch stages an ordered callback that raises
  when the graph runs and takes that branch (jax reports it as a
  ``JaxRuntimeError``, a RuntimeError, whose message holds the original
  exception); the branch's outputs are zeros, never used. A ``raise`` that is
  not under a Tensor condition (even inside a graph loop's body) is refused.

Only exceptions raised by the user's own code count (its innermost frame is
the user's): errors of ops and of msxla itself stay compile errors.

A user's exception raised while the graph is captured whose message formats a
graph Tensor (``raise ValueError(f"bad {x}")`` under a condition Python
decides) cannot carry the value; under LAX the function runs in Python, which
raises it with the value, as PyNative and MindSpore do.
"""
from __future__ import annotations

import jax

from msxla._source import is_internal_file, user_location_from_traceback
from msxla.capture.ast import resolve
from msxla.capture.ast.strings import needs_runtime
from msxla.errors import ConcretizationError, MsxlaError, UnsupportedError, user_error


def is_user_raise(exc) -> bool:
    if isinstance(exc, MsxlaError) or not isinstance(exc, Exception):
        return False
    tb = exc.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    return tb is not None and not is_internal_file(tb.tb_frame.f_code.co_filename)


def _describe(exc):
    return f"{type(exc).__name__}({str(exc)!r})" if str(exc) else type(exc).__name__


def in_branch(exc):
    """LAX: the error that sends the function to Python. STRICT: stage the raise."""
    if not resolve.strict():
        return user_error(ConcretizationError, f"{_describe(exc)} is raised under a condition "
                          "that is a Tensor: whether it is raised is only known when the graph "
                          "runs.", loc=user_location_from_traceback(exc.__traceback__),
                          find_loc=False)
    cls, args = type(exc), exc.args

    def raise_now():
        raise cls(*args)
    jax.debug.callback(raise_now, ordered=True)
    return None


def in_loop(exc):
    """A raise in the body of a graph loop (not under a Tensor condition)."""
    if not resolve.strict():
        return in_branch(exc)
    return user_error(UnsupportedError, f"{_describe(exc)} is raised in the body of a loop "
                      "whose condition is a Tensor.",
                      loc=user_location_from_traceback(exc.__traceback__), find_loc=False,
                      hint="raise under an `if` inside the loop, or use fullgraph=False.")


def with_graph_values(exc, strict):
    """LAX: the error that sends the function to Python when a user's exception escaping
    the capture holds a value only the graph has (a string formatting a graph Tensor);
    else None (the exception propagates as it is)."""
    if strict or not is_user_raise(exc) or not needs_runtime(exc.args):
        return None
    return user_error(ConcretizationError, f"{type(exc).__name__} is raised with a message "
                      "that formats a graph Tensor", loc=user_location_from_traceback(
                          exc.__traceback__), find_loc=False)
