"""capture_mode="ast": MindSpore's graph syntax, from the function's source.

MindSpore's default capture mode (and GRAPH_MODE's) parses the function's
source and builds a graph with static-graph semantics. msxla does it as
AutoGraph does: the source is rewritten (``transform.py``: one converter per
construct, in a fixed order) into a Python function whose control flow calls
a small runtime (``runtime.py``); tracing that function once
(``msxla.capture.tracing``) gives the same ``CapturedGraph`` trace mode
gives. At capture time the runtime decides each construct: Python values
(constants, shapes, ``self.training``) give plain Python control flow, folded
into the graph; graph Tensors give ``lax.cond`` / ``lax.while_loop``. The
converted function runs only while capturing, so a call of the compiled
graph costs exactly what trace mode's does.

Layout: ``parse`` (source), ``unsupported`` (refusals), ``convert_*`` (one
per construct), ``analysis`` (scopes, liveness), ``transform`` (pipeline),
``resolve`` (what calls run), ``runtime_cond`` / ``runtime_loops`` (graph
control flow), ``grad_loop`` (differentiable graph loops), ``raises``
(``raise`` under Tensor conditions), ``layout`` / ``plan`` / ``branches``
(values through branches and loops), ``builtins`` / ``strings``
(Tensor-aware built-ins, print), ``fallback`` (syntax levels, JIT
Fallback), ``debug`` (listings).
"""
from __future__ import annotations

import functools
import types

from msxla.capture.ast import fallback, raises, resolve
from msxla.capture.ast.transform import convert, converted_code
from msxla.capture.capture import register_front_end
from msxla.capture.tracing import trace_to_graph
from msxla.errors import ConcretizationError
from msxla.common.cell_base import CellBase
from msxla.options import Jitted


def capture_ast(fn, spec, leaves, candidates, options, name, guards):
    """The ast front end (see ``msxla.capture.capture.register_front_end``)."""
    strict = fallback.is_strict(fn, options)
    with resolve.syntax_level(strict):
        entry = entry_function(fn, strict)
        saved = fallback.save_cells(fn)
        try:
            return trace_to_graph(entry, spec, leaves, candidates, mode="ast", name=name,
                                  guards=guards)
        except ConcretizationError as err:
            if isinstance(err, fallback.StrictConcretizationError):
                raise
            fallback.restore_cells(saved)  # the function now runs in Python: exactly once
            raise fallback.escalate(err, strict, name) from err
        except Exception as exc:  # noqa: BLE001 - re-raised unless it is the case below
            err = raises.with_graph_values(exc, strict)
            if err is None:
                raise
            fallback.restore_cells(saved)
            raise fallback.escalate(err, strict, name) from exc


def entry_function(fn, strict):
    """What the capture runs for the jitted ``fn``: its converted form."""
    cell = fallback.graph_mode_cell(fn)
    if cell is not None:
        return functools.partial(resolve.call_cell, cell)
    if type(fn) is types.FunctionType and resolve._is_user(fn):
        return convert(fn, strict)
    if type(fn) is types.MethodType and type(fn.__func__) is types.FunctionType and \
            resolve._is_user(fn.__func__):
        return types.MethodType(convert(fn.__func__, strict), fn.__self__)
    return resolve.resolve(fn)


def converted_source(fn, fullgraph: bool = False) -> str:
    """The converted source of ``fn`` with each line's origin (``# file.py:12``).

    ``fn`` may be a function, a method, a Cell (its ``construct``) or a jitted
    function. Setting ``MSXLA_DEBUG_AST=1`` logs this for every conversion."""
    if isinstance(fn, Jitted):
        fn = fn.fn
    if isinstance(fn, CellBase):
        fn = type(fn).construct
        fn = fn.fn if isinstance(fn, Jitted) else fn
    fn = getattr(fn, "__func__", fn)
    return converted_code(fn, fullgraph).listing()


def inline_ast(fn, options):
    """An ast-jitted ``fn`` called while another graph (trace mode) is captured: its
    converted form, so its Tensor control flow is graph control flow there too."""
    strict = fallback.is_strict(fn, options)
    with resolve.syntax_level(strict):
        target = entry_function(fn, strict)

    def run(*args, **kwargs):
        with resolve.syntax_level(strict):
            return target(*args, **kwargs)
    return run


register_front_end("ast", capture_ast, inline_ast)

__all__ = ["capture_ast", "converted_source"]
