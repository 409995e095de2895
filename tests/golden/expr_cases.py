"""What the expression-case golden writers share (run in the oracle venv).

A writer (``make_legacy_ops.py``, ``make_mint.py``, ``make_order_stats.py``,
``make_shape_ops.py``, ``make_numpy_module.py``) lists Python expressions over
fixed numpy inputs; each is evaluated with MindSpore 2.10 and its output
(dtype, shape and values; tuples; Python values; dtypes) or the builtin class
of the exception it raised is stored. ``tests/golden_cases.py`` reads the same
files and checks msxla against them.

How NaN is stored differs by file and is kept so that every file is written
again byte for byte: ``"keep"`` (JSON's NaN), ``"null"`` (None) or ``"zero"``.
"""
import json
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))


def record(out, *, tensor, mstype=None, nan="keep", py_type=False):
    """The stored form of one output (``tensor``: MindSpore's Tensor class;
    ``mstype``: its dtype class, for outputs that are dtypes)."""
    def rec(o):
        if isinstance(o, (tuple, list)):
            return {"seq": [rec(x) for x in o]}
        if isinstance(o, tensor):
            arr = o.asnumpy()
            vals = arr.astype(np.int64) if arr.dtype == np.bool_ else arr.astype(np.float64)
            if nan == "zero":
                vals = np.nan_to_num(vals, nan=0.0)
            values = vals.reshape(-1).tolist()
            if nan == "null":
                values = [None if v != v else v for v in values]
            return {"dtype": str(o.dtype), "shape": list(arr.shape), "values": values}
        if mstype is not None and isinstance(o, mstype):
            return {"mstype": str(o)}
        if py_type:
            return {"py": o, "type": type(o).__name__}
        return {"py": o}
    return rec(out)


def builtin_name(exc):
    """The nearest builtin exception class of ``exc`` (what a test can expect)."""
    for cls in type(exc).__mro__:
        if cls.__module__ == "builtins":
            return cls.__name__
    return "Exception"


def evaluate(groups, ns, rec):
    """Evaluate every expression of ``groups`` ((group name or None, text with one
    expression a line)) in ``ns``; the stored cases."""
    cases = []
    for group, text in groups:
        head = {} if group is None else {"group": group}
        for expr in [e.strip() for e in text.strip().splitlines() if e.strip()]:
            try:
                case = {"expr": expr, **head, "out": rec(eval(expr, ns))}  # noqa: S307
            except Exception as exc:  # noqa: BLE001 - recorded as the expected failure
                msg = str(exc).splitlines()[0][:200] if str(exc) else ""
                case = {"expr": expr, **head, "error": builtin_name(exc), "message": msg}
            cases.append(case)
    return cases


def plain_inputs(arrays):
    return {k: {"dtype": str(a.dtype), "values": a.tolist()} for k, a in arrays.items()}


def write(name, inputs, cases):
    """Write ``name`` beside this file, as every expression-case file is written."""
    path = os.path.join(HERE, name)
    with open(path, "w") as f:
        json.dump({"inputs": inputs, "cases": cases}, f, indent=0)
    print(f"wrote {len(cases)} cases to {path}")
