"""The grad-API cases shared by the golden generator and the golden test.

``cases(ms, data)`` returns ``{name: thunk}``; each thunk builds its own
Parameters and calls the grad APIs of ``ms`` — MindSpore when run by
``tests/golden/make_grad_api.py`` in the oracle venv, msxla in the test — so
both sides run the very same code. Functions are named ``def``s (MindSpore
compiles jacfwd/jacrev/jvp bodies and cannot parse lambdas there) and use
only elementwise arithmetic and ``ops.assign``.
"""
import numpy as np

from cases_grad import grad_api_cases
from cases_int_grad import int_grad_cases
from cases_transforms import transform_cases


def cases(ms, data):
    """``{name: thunk}`` for every golden case, run on ``ms``."""
    out = grad_api_cases(ms, data)
    out.update(transform_cases(ms, data))
    out.update(int_grad_cases(ms, data))
    return out


def make_data():
    rng = np.random.default_rng(20240601)
    f32 = np.float32
    return {
        "x": rng.uniform(0.5, 2.0, 3).astype(f32),
        "y": rng.uniform(-1.0, 1.0, 3).astype(f32),
        "w": rng.uniform(0.5, 1.5, 3).astype(f32),
        "b": rng.uniform(-0.5, 0.5, 1).astype(f32),
        "s": rng.uniform(0.5, 2.0, 3).astype(f32),
        "X": rng.uniform(0.5, 2.0, (2, 2)).astype(f32),
        "Y": rng.uniform(-1.0, 1.0, (2, 2)).astype(f32),
        "V": rng.uniform(-1.0, 1.0, (2, 2)).astype(f32),
        "w2": rng.uniform(0.5, 1.5, 2).astype(f32),
    }


def encode(value, tensor_type):
    """A JSON-able description of a result (Tensors, tuples, lists, Python values)."""
    if isinstance(value, tensor_type):
        arr = value.asnumpy()
        return {"tensor": arr.astype(np.float64).tolist() if arr.dtype != np.bool_
                else arr.tolist(), "dtype": str(value.dtype), "shape": list(arr.shape)}
    if isinstance(value, tuple):
        return {"tuple": [encode(v, tensor_type) for v in value]}
    if isinstance(value, list):
        return {"list": [encode(v, tensor_type) for v in value]}
    return {"py": value}
