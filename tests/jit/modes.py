"""The capture modes the shared suite runs: PyNative, and jit in every capture
mode with a front end in this build, at O0 and O1."""
from __future__ import annotations

import msxla as ms
from msxla.capture.capture import _FRONT_ENDS


def available_modes():
    modes = ["pynative", "trace-O0", "trace-O1"]
    for mode in ("ast", "bytecode"):
        if mode in _FRONT_ENDS:
            modes += [f"{mode}-O0", f"{mode}-O1"]
    return modes


JIT_MODES = [m for m in available_modes() if m != "pynative"]


def make(fn, mode, **kwargs):
    """``fn`` as the mode runs it (PyNative: the function itself)."""
    if mode == "pynative":
        return fn
    capture_mode, level = mode.split("-")
    return ms.jit(fn, capture_mode=capture_mode, jit_level=level, **kwargs)


def counters(jitted):
    return getattr(jitted, "stats", None)
