"""Syntax levels, and what happens to Python a graph cannot hold (JIT Fallback).

The level: ``MS_DEV_JIT_SYNTAX_LEVEL`` (0 = STRICT, 1/2 = LAX) if set; else
for a Cell compiled in GRAPH_MODE its ``JitConfig`` ``jit_syntax_level``,
then ``set_context(jit_syntax_level=...)``; else ``jit(fullgraph=...)``
(True = STRICT, False = LAX), as MindSpore 2.10 decides it.

STRICT (``fullgraph=True``): the whole function must become one graph.
Unsupported syntax is refused before conversion (``unsupported.py``), and a
piece that needs a graph Tensor's value in Python (``x.asnumpy()``,
``float(x)`` outside graph scalars, numpy on a Tensor, ``len`` of an f-string
of a Tensor) is a compile error at its line that says what to change.

LAX (``fullgraph=False``), msxla's JIT Fallback; it never gives a result
that differs from PyNative:

1. Pieces whose inputs are Python values run when the graph is captured and
   their results are constants of the graph (MindSpore folds them the same
   way). Statements MindSpore refuses even in LAX (``try``, ``with``,
   ``class``, ``del``, ``nonlocal``, set comprehensions) run this way too:
   they only ever see capture-time values, so running them then is what
   PyNative would do. The capture's guards recompile when a global, closure
   variable or Cell attribute they read changes.
2. Printing values that exist only in the graph (``print(f"loss {x}")``,
   ``print("%s" % x)``, ``print(str(x))``) is staged into the graph and
   formats at run time exactly as PyNative prints.
3. Any other piece that needs a graph Tensor's value in Python cannot be a
   graph constant and has no graph form whose result shape is known before
   it runs. Rather than guess, the whole function runs in Python (PyNative)
   for that call signature: the capture raises ``RunEagerly``, the jitted
   function logs one warning naming the line, and later calls with the same
   signature go straight to Python. Attributes the aborted capture set on the
   jitted Cell (and its sub-Cells) are put back first, so ``self.count += 1``
   still happens once per call; other Python side effects it performed before
   that line (appending to a global list) happen once more on that first call.
"""
from __future__ import annotations

import types

from msxla import flags
from msxla.capture.capture import RunEagerly
from msxla.capture.rebinds import strict_rebound_error
from msxla.errors import ConcretizationError, UnsupportedError, user_error
from msxla.common.cell_base import CellBase


class StrictConcretizationError(ConcretizationError, UnsupportedError):
    """Under fullgraph=True, a piece needs a graph Tensor's value in Python."""


def graph_mode_cell(fn):
    """The Cell when ``fn`` is the GRAPH_MODE entry of a Cell (else None)."""
    if isinstance(fn, types.MethodType) and fn.__func__ is CellBase._graph_construct:
        return fn.__self__
    return None


def is_strict(fn, options) -> bool:
    env = flags.jit_syntax_level()
    if env is not None:
        return env == "0"
    if options.fullgraph:
        return True
    cell = graph_mode_cell(fn)
    if cell is not None:
        level = (cell._jit_config_dict or {}).get("jit_syntax_level") or ""
        if level:
            return level == "STRICT"
        from msxla.context import CONTEXT, STRICT
        return CONTEXT.get("jit_syntax_level") == STRICT
    return bool(options.fullgraph)


def save_cells(fn):
    """The attributes of the Cell ``fn`` is bound to and of its sub-Cells."""
    cell = graph_mode_cell(fn) or getattr(fn, "__self__", None)
    if not isinstance(cell, CellBase):
        return []
    return [(c, dict(vars(c))) for _, c in cell.cells_and_names()]


def restore_cells(saved):
    for cell, attrs in saved:
        current = vars(cell)
        current.clear()
        current.update(attrs)


def escalate(err: ConcretizationError, strict: bool, name: str) -> Exception:
    """The error to raise for a piece that needs a graph Tensor's value in Python."""
    text = str(err).split("\n")[0]
    rebound = getattr(err, "rebound", None)
    if strict and rebound is not None:  # a name rebound to a graph Tensor (rebinds.py)
        return strict_rebound_error(StrictConcretizationError, rebound, name)
    if strict:
        return user_error(
            StrictConcretizationError, f"jit '{name}' (fullgraph=True): {text}",
            loc=err.loc, find_loc=False,
            hint="compute it with Tensor operations (ops.select / ops.where instead of Python "
                 "conditions on values), or use fullgraph=False: the JIT Fallback then runs "
                 "the function in Python.")
    return user_error(RunEagerly, f"jit '{name}': {text}", loc=err.loc, find_loc=False)
