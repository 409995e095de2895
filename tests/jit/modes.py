"""The capture modes the shared suite runs: PyNative, and jit in every capture
mode with a front end in this build, at O0 and O1; ``GRAPH_MODES`` adds
GRAPH_MODE (a Cell's ``construct`` compiled when the Cell is called)."""
from __future__ import annotations

import pytest

import msxla as ms
from msxla import nn
from msxla.capture.capture import front_ends


def available_modes():
    modes = ["pynative", "trace-O0", "trace-O1"]
    for mode in ("ast", "bytecode"):
        if mode in front_ends():
            modes += [f"{mode}-O0", f"{mode}-O1"]
    return modes


JIT_MODES = [m for m in available_modes() if m != "pynative"]
GRAPH_MODES = ["graph-O0", "graph-O1"]
ANY_MODES = JIT_MODES + GRAPH_MODES


def any_modes(slow=()):
    """``ANY_MODES`` as parameters, O1 and the capture modes in ``slow`` marked slow
    (O1 captures the same graph as O0; only XLA's passes differ)."""
    return [pytest.param(m, marks=pytest.mark.slow)
            if m.endswith("O1") or m.split("-")[0] in slow else m for m in ANY_MODES]


def sampled(names, modes, share=3):
    """Every ``(name, mode)`` pair of a sweep as parameters, all but a fixed
    ``1/share`` of them marked slow: name ``i`` runs in the default run in the
    modes ``j`` with ``(i + j) % share == 0``, so every name runs in some modes
    and every mode runs a share of the names; ``-m slow`` runs the rest."""
    return [pytest.param(name, mode, id=f"{name}-{mode}",
                         marks=() if (i + j) % share == 0 else pytest.mark.slow)
            for i, name in enumerate(names) for j, mode in enumerate(modes)]


def make(fn, mode, **kwargs):
    """``fn`` as the mode runs it (PyNative: the function itself)."""
    if mode == "pynative":
        return fn
    capture_mode, level = mode.split("-")
    if capture_mode == "graph":
        return InGraphMode(fn, level)
    return ms.jit(fn, capture_mode=capture_mode, jit_level=level, **kwargs)


class _Construct(nn.Cell):
    """A Cell whose ``construct`` calls ``fn``: GRAPH_MODE compiles it."""

    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def construct(self, *args):
        return self.fn(*args)


class InGraphMode:
    """Calls ``fn`` (a Cell, or a function run by a Cell) in GRAPH_MODE."""

    def __init__(self, fn, level):
        self.cell = fn if isinstance(fn, nn.Cell) else _Construct(fn)
        self.cell.set_jit_config(ms.JitConfig(jit_level=level))

    def __call__(self, *args):
        old = ms.get_context("mode")
        ms.set_context(mode=ms.GRAPH_MODE)
        try:
            return self.cell(*args)
        finally:
            ms.set_context(mode=old)


def counters(jitted):
    return getattr(jitted, "stats", None)
