"""Shared test helpers: numpy comparison, numerical gradients, tolerances."""
from __future__ import annotations

import os
import subprocess
import sys

import numpy as np

import msxla as ms

# Tolerances by dtype: (rtol, atol)
TOL = {
    np.dtype(np.float16): (2e-3, 2e-3),
    np.dtype(np.float32): (1e-5, 1e-6),
    np.dtype(np.float64): (1e-10, 1e-12),
    np.dtype(np.complex64): (1e-5, 1e-6),
}


def tol_for(dtype):
    dt = np.dtype(dtype) if not isinstance(dtype, ms.Type) else dtype.np_dtype
    if str(dt) == "bfloat16":
        return 2e-2, 2e-2
    return TOL.get(dt, (0, 0))


def to_numpy(x):
    if isinstance(x, ms.Tensor):
        return x.asnumpy()
    if isinstance(x, (tuple, list)):
        return type(x)(to_numpy(v) for v in x)
    return x


def assert_close(actual, expected, rtol=None, atol=None, check_dtype=True):
    """Compare a Tensor (or nested tuple) with numpy, by dtype tolerance.

    A plain Python list or number expected for a single Tensor is compared as
    an array of the Tensor's dtype (its dtype is not checked)."""
    if isinstance(actual, ms.Tensor) and not isinstance(expected, np.ndarray) and (
            isinstance(expected, (list, int, float, bool)) or np.isscalar(expected)):
        expected = np.asarray(expected, dtype=actual.dtype.np_dtype)
    if isinstance(expected, (tuple, list)):
        assert isinstance(actual, (tuple, list)), f"expected a sequence, got {type(actual)}"
        assert len(actual) == len(expected), f"{len(actual)} != {len(expected)}"
        for a, e in zip(actual, expected):
            assert_close(a, e, rtol, atol, check_dtype)
        return
    a = to_numpy(actual)
    e = np.asarray(expected)
    if check_dtype and hasattr(a, "dtype"):
        assert np.dtype(a.dtype) == e.dtype, f"dtype {a.dtype} != expected {e.dtype}"
    r, t = tol_for(e.dtype)
    np.testing.assert_allclose(np.asarray(a, dtype=e.dtype), e,
                               rtol=r if rtol is None else rtol, atol=t if atol is None else atol)


def numerical_grad(f, xs, eps=1e-3):
    """Central-difference gradient of scalar ``f(*xs)`` (numpy float64) w.r.t. each x."""
    xs = [np.array(x, dtype=np.float64) for x in xs]
    grads = []
    for i, x in enumerate(xs):
        g = np.zeros_like(x)
        it = np.nditer(x, flags=["multi_index"])
        for _ in it:
            idx = it.multi_index
            old = x[idx]
            x[idx] = old + eps
            hi = f(*xs)
            x[idx] = old - eps
            lo = f(*xs)
            x[idx] = old
            g[idx] = (hi - lo) / (2 * eps)
        grads.append(g)
    return grads


ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run_msxla(argv, cwd=ROOT, env=None, timeout=600):
    """``python -m msxla ARGV`` in a fresh process, with this checkout's msxla first."""
    env = dict(os.environ if env is None else env)
    env["PYTHONPATH"] = os.pathsep.join([ROOT] + [p for p in env.get("PYTHONPATH", "").split(
        os.pathsep) if p])
    return subprocess.run([sys.executable, "-m", "msxla"] + list(argv), cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=timeout)
