"""Helpers of the bytecode-capture tests: run a function in PyNative and jitted
(capture_mode='bytecode') on the same inputs and compare; find source lines."""
from __future__ import annotations

import inspect

import numpy as np

import msxla as ms
from msxla import Tensor


def t(*values):
    return Tensor(np.array(values, np.float32))


def bc(fn, **kwargs):
    return ms.jit(fn, capture_mode="bytecode", **kwargs)


def as_py(value):
    """Comparable Python form of a result (Tensors as nested lists)."""
    if isinstance(value, Tensor):
        return ("T", str(value.dtype), value.asnumpy().tolist())
    if isinstance(value, np.ndarray):
        return ("N", value.tolist())
    if isinstance(value, (tuple, list)):
        return (type(value).__name__, [as_py(v) for v in value])
    if isinstance(value, dict):
        return ("dict", [(k, as_py(v)) for k, v in value.items()])
    return value


def check_like_pynative(fn, calls, jitted=None, setup=None):
    """``fn`` jitted gives PyNative's result on every call of ``calls`` (arg tuples), run
    twice over (the second round hits the caches). Returns the jitted function."""
    jitted = jitted or bc(fn)
    for _ in range(2):
        for args in calls:
            if setup:
                setup()
            expected = as_py(fn(*args))
            if setup:
                setup()
            got = as_py(jitted(*args))
            assert got == expected, f"{fn.__name__}{args}: {got} != {expected}"
    return jitted


def line_of(fn, text, nth=0):
    """The file line number of the ``nth`` source line of ``fn`` containing ``text``."""
    lines, start = inspect.getsourcelines(fn)
    found = [start + i for i, line in enumerate(lines) if text in line]
    return found[nth]


def kinds(report):
    return [b.kind.name for b in report.breaks]
