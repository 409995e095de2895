"""GRAPH_MODE: calling a top-level Cell compiles its ``construct``.

The compiled runner is kept on the Cell and made from its ``JitConfig``
(``Cell.set_jit_config``), capturing like MindSpore's graph mode (ast). Cells
called while another graph is being captured are part of that graph.
"""
from __future__ import annotations

from msxla.capture.capture import note_nested_backend
from msxla.common.state import is_capturing
from msxla.jit.config import options_from_config
from msxla.jit.function import JitFunction


def run_cell_in_graph_mode(cell, args, kwargs):
    if is_capturing():
        note_nested_backend(type(cell).__name__, cell._jit_config_dict.get("backend"))
        return NotImplemented
    runner = cell.__dict__.get("_graph_runner")
    if runner is None:
        runner = _make_runner(cell)
        cell.__dict__["_graph_runner"] = runner
    return runner(*args, **kwargs)


def _make_runner(cell):
    # A bound method of the Cell, so discovery finds the Cell (its Parameters
    # and attribute guards) through ``__self__``.
    opts = options_from_config(cell._jit_config_dict, capture_mode="ast")
    runner = JitFunction(cell._graph_construct, opts, f"{type(cell).__name__}.construct")
    runner.declared_inputs = cell._dynamic_inputs
    return runner
