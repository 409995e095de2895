"""Differential check of one program: PyNative against a jit mode, call by call.

``agree(mode, build)`` builds the program twice (``build()`` returns a fresh
``Program``: the function, the arguments of each call and the state the
caller can see: its Tensors, Parameters, lists, globals), runs every call in
PyNative and in ``mode``, and after every call compares the output *and*
that state. Values are compared by kind, dtype, shape and value (float
tolerance by dtype); a raised exception is compared by type.
"""
from __future__ import annotations

import dataclasses

import numpy as np
import pytest

import msxla as ms
from msxla.errors import ConcretizationError
from helpers import tol_for
from modes import make


@dataclasses.dataclass
class Program:
    fn: object                      # the function or Cell
    calls: list                     # one tuple of arguments per call
    state: dict = dataclasses.field(default_factory=dict)  # name -> object, or a
    # zero-argument callable giving it now (a global that may be rebound)


def agree(mode, build, *, tensor_control=False):
    """Run ``build()``'s program in PyNative and in ``mode``; compare after each call.

    ``tensor_control``: the program branches on a Tensor's value, which
    ``capture_mode='trace'`` refuses at the user's line (documented): there the
    first call must raise ConcretizationError."""
    expected = _expected(build)
    if tensor_control and mode.startswith("trace"):
        with pytest.raises(ConcretizationError):
            make(build().fn, mode)(*build().calls[0])
        return expected
    got = _record(mode, build)
    for i, (e, g) in enumerate(zip(expected, got)):
        _compare(g, e, f"{mode}, call {i}")
    return expected


_EXPECTED: dict = {}


def _expected(build):
    """PyNative's record, computed once per module-level ``build`` (no closure)."""
    if build.__closure__ is not None:
        return _record("pynative", build)
    if build not in _EXPECTED:
        _EXPECTED[build] = _record("pynative", build)
    return _EXPECTED[build]


def _record(mode, build):
    program = build()
    fn = make(program.fn, mode)
    out = []
    for args in program.calls:
        try:
            result = snapshot(fn(*args))
        except Exception as exc:  # noqa: BLE001 - compared by type with PyNative
            result = ("raise", type(exc).__name__)
        state = {k: snapshot(v() if _is_ref(v) else v) for k, v in program.state.items()}
        out.append({"out": result, "state": state})
    return out


def _is_ref(v):
    return callable(v) and getattr(v, "__name__", "") == "<lambda>"


def snapshot(v):
    """A comparable copy of a value (Tensors and numpy arrays by kind, dtype and value)."""
    if isinstance(v, ms.Tensor):
        kind = "Parameter" if isinstance(v, ms.Parameter) else "Tensor"
        return (kind, str(v.dtype), v.asnumpy())
    if isinstance(v, np.ndarray):
        return ("ndarray", str(v.dtype), v.copy())
    if isinstance(v, (list, tuple)):
        return (type(v).__name__, [snapshot(x) for x in v])
    if isinstance(v, dict):
        return ("dict", {k: snapshot(x) for k, x in v.items()})
    return ("py", type(v).__name__, v)


def _compare(got, expected, where):
    if isinstance(expected, np.ndarray):
        assert isinstance(got, np.ndarray) and got.shape == expected.shape, \
            f"{where}: shape {getattr(got, 'shape', got)} != {expected.shape}"
        rtol, atol = tol_for(expected.dtype)
        np.testing.assert_allclose(got, expected, rtol=max(rtol, 1e-6), atol=max(atol, 1e-6),
                                   err_msg=where)
        return
    if isinstance(expected, dict):
        assert set(got) == set(expected), f"{where}: keys {set(got)} != {set(expected)}"
        for k in expected:
            _compare(got[k], expected[k], f"{where}, {k}")
        return
    if isinstance(expected, (tuple, list)):
        assert isinstance(got, (tuple, list)) and len(got) == len(expected), \
            f"{where}: {got!r} != {expected!r}"
        for i, (g, e) in enumerate(zip(got, expected)):
            _compare(g, e, f"{where}[{i}]")
        return
    if isinstance(expected, float) and expected != expected:
        assert got != got, f"{where}: {got!r} != nan"
        return
    assert got == expected and type(got) is type(expected), f"{where}: {got!r} != {expected!r}"
