"""The ast syntax-coverage programs, written once for MindSpore and msxla.

``cases(ms)`` returns ``{name: Case}``. ``tests/golden/make_ast_syntax.py``
runs every case in MindSpore 2.10 (oracle venv, one fresh process per case
and fullgraph value) and the ``test_syntax_*`` files run the very same source
in msxla: in PyNative, and jitted with capture_mode="ast" at fullgraph=True
and False. The programs themselves are in ``ast_programs_*.py``, one file per
topic; this file holds the case record, the inputs and the encoding of
results.
"""
import dataclasses

import numpy as np
from ast_programs_control import control_cases
from ast_programs_data import data_cases


@dataclasses.dataclass
class Case:
    make: object            # make(ms) -> the callable (or (callable, probe)) to jit
    calls: list             # the argument tuples of successive calls
    fullgraph: tuple = (False, True)
    kwargs: list = None     # keyword arguments per call (None: none)
    graph_mode: bool = False  # run as a top-level Cell in GRAPH_MODE instead of jit()


def f32(*values):
    return np.array(values, np.float32)


def cases(ms):
    out = {}
    out.update(control_cases(ms, Case, f32))
    out.update(data_cases(ms, Case, f32))
    return out


def to_inputs(ms, value):
    if isinstance(value, np.ndarray):
        return ms.Tensor(value)
    if isinstance(value, tuple):
        return tuple(to_inputs(ms, v) for v in value)
    if isinstance(value, list):
        return [to_inputs(ms, v) for v in value]
    if isinstance(value, dict):
        return {k: to_inputs(ms, v) for k, v in value.items()}
    return value


def encode(value, tensor_type):
    """A JSON-able description of a result (Tensors, containers, Python values)."""
    if isinstance(value, tensor_type):
        arr = value.asnumpy()
        data = arr.tolist() if arr.dtype == np.bool_ else arr.astype(np.float64).tolist()
        return {"tensor": data, "dtype": str(value.dtype), "shape": list(arr.shape)}
    if isinstance(value, tuple):
        return {"tuple": [encode(v, tensor_type) for v in value]}
    if isinstance(value, list):
        return {"list": [encode(v, tensor_type) for v in value]}
    if isinstance(value, dict):
        return {"dict": [[k, encode(v, tensor_type)] for k, v in value.items()]}
    if isinstance(value, (bool, int, float, str)) or value is None:
        return {"py": value}
    return {"py": repr(value)}


def run(ms, case, jit_kwargs=None):
    """Run ``case`` (jitted with ``jit_kwargs`` unless None) -> list of encoded results,
    one per call (errors as ``{"exc": type, "message": first line}``), plus the
    probe's values after the last call."""
    made = case.make(ms)
    fn, probe = made if isinstance(made, tuple) else (made, None)
    if case.graph_mode and jit_kwargs is not None:
        level = ms.STRICT if jit_kwargs.get("fullgraph") else ms.LAX
        ms.set_context(mode=ms.GRAPH_MODE, jit_syntax_level=level)
        target = fn
    elif jit_kwargs is not None:
        target = ms.jit(fn, **jit_kwargs)
    else:
        target = fn
    results = []
    try:
        for i, args in enumerate(case.calls):
            kwargs = (case.kwargs or [{}] * len(case.calls))[i]
            try:
                out = target(*to_inputs(ms, args), **to_inputs(ms, kwargs))
                results.append(encode(out, ms.Tensor))
            except Exception as err:  # noqa: BLE001 - the exception type is the result
                results.append({"exc": type(err).__name__,
                                "bases": [c.__name__ for c in type(err).__mro__[1:-2]],
                                "message": str(err).strip().split("\n")[0][:300]})
    finally:
        if case.graph_mode:
            ms.set_context(mode=ms.PYNATIVE_MODE, jit_syntax_level=ms.LAX)
    if probe is not None:
        results.append({"state": encode(probe(), ms.Tensor)})
    return results
