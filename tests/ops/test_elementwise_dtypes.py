"""Output dtypes of the elementwise ops against MindSpore 2.10 (golden/elementwise_dtypes.json).

Each golden entry is an output dtype, a dtype MindSpore infers but its CPU
build has no kernel for (``"float32?"``), or the exception MindSpore raises
for the input dtypes. msxla must give the same dtype or raise the same
exception type, except where listed below with the reason.
"""
import json
import os

import jax
import numpy as np
import pytest

import msxla as ms
from msxla import Tensor, ops
from msxla.ops import operations as P

GOLDEN = json.load(open(os.path.join(os.path.dirname(__file__), "..", "golden",
                                     "elementwise_dtypes.json")))

# MindSpore rejects single widths inside a category that msxla accepts and
# computes like the neighbouring widths (kernel lists baked into its checks).
WIDER = {
    ("exp", "int8"), ("exp", "int32"), ("exp", "uint8"), ("lgamma", "int8"), ("lgamma", "int64"),
    ("lgamma", "uint8"), ("sign", "int8"), ("sign", "uint8"), ("sgn", "int8"), ("sgn", "uint8"),
    ("sqrt", "int8"), ("nan_to_num", "float64"), ("isnan", "bfloat16"), ("imag", "bfloat16"),
    ("fmax", "int8,int8"), ("fmax", "int8,uint8"), ("fmax", "uint8,uint8"),
    ("gcd", "int8,int8"), ("gcd", "uint8,uint8"), ("lcm", "int8,int8"), ("lcm", "uint8,uint8"),
    ("lcm", "int8,uint8"), ("hypot", "float16,float16"), ("hypot", "float16,py_float"),
    ("hypot", "int64,float16"), ("hypot", "bfloat16,bfloat16"), ("nextafter", "float16,float16"),
    ("nextafter", "bfloat16,bfloat16"), ("truncate_mod", "int64,int64"),
    ("truncate_mod", "int32,int64"), ("truncate_mod", "int64,py_int"),
    ("truncate_mod", "bfloat16,bfloat16"), ("truncate_mod", "int8,uint8"),
    ("squared_difference", "int8,int8"), ("squared_difference", "int8,uint8"),
    ("squared_difference", "uint8,uint8"), ("squared_difference", "bfloat16,bfloat16"),
    ("heaviside", "bfloat16,bfloat16"), ("xdivy", "bfloat16,bfloat16"),
    ("deg2rad", "bfloat16"), ("rad2deg", "bfloat16"), ("digamma", "bfloat16"),
    ("i0", "bfloat16"), ("lgamma", "bfloat16"), ("lerp:float64,float64,float64", None),
    ("fmin", "int8,int8"), ("fmin", "int8,uint8"), ("fmin", "uint8,uint8"),
    ("fmax", "bfloat16,bfloat16"), ("fmin", "bfloat16,bfloat16"), ("truncate_mod", "bool,py_int"),
    ("addcdiv:int32,py_int", None), ("addcdiv:int32,py_float", None),
    ("nan_to_num_args:float64", None),
}
# Where MindSpore's CPU build has no kernel, msxla follows the dtype MindSpore
# infers, except here (the dtype msxla gives instead):
INFERRED_DIFFERS = {
    # Float math of integers gives float32 (MindSpore's newer infer rule, used by
    # exp, log, sin, ...); these ops' older infer functions keep the integer dtype.
    **{(op, d): "float32" for op in
       ("acos", "arccos", "asin", "arcsin", "atan", "arctan", "asinh", "arcsinh", "acosh",
        "arccosh", "erf", "erfc", "expm1", "logit", "angle")
       for d in ("int8", "int32", "uint8", "int64", "bool")},
    **{(op, f"{a},{b}"): "float32" for op in ("atan2", "arctan2")
       for a, b in [("bool", "bool"), ("bool", "int32"), ("bool", "py_bool"), ("bool", "py_int"),
                    ("int32", "int32"), ("int32", "int64"), ("int32", "py_bool"),
                    ("int32", "py_int"), ("int64", "int64"), ("int64", "py_int"),
                    ("int8", "int8"), ("int8", "uint8"), ("uint8", "uint8")]},
    ("logit_eps:int32", None): "float32",
    # The angle of a real number keeps its float dtype.
    **{("angle", d): d for d in ("float16", "float32", "float64", "bfloat16")},
}
# msxla raises TypeError where jax has no such function for the dtype.
UNSUPPORTED = {
    ("erf", "complex64"), ("erfc", "complex64"), ("erfinv", "complex64"), ("floor", "complex64"),
    ("trunc", "complex64"), ("neg", "bool"), ("negative", "bool"),
    ("isneginf", "complex64"), ("isposinf", "complex64"), ("signbit", "complex64"),
    ("frac", "complex64"), ("logit", "complex64"),
    ("fmod", "complex64,float32"), ("remainder", "complex64,float32"),
    ("floor_mod", "complex64,float32"), ("truncate_div", "complex64,float32"),
    *((op, "complex64,float32") for op in ("greater", "gt", "greater_equal", "ge", "less", "lt",
                                           "less_equal", "le", "__gt__", "__ge__", "__lt__",
                                           "__le__")),
}


def tensor(name, kind=0):
    vals = [0.5, 1.0, 0.25] if kind == 0 else [2.0, 0.75, 1.0]
    if name == "bool":
        return Tensor(np.array([True, False, True]))
    if name == "bfloat16":
        return Tensor(np.array(vals, np.float32), ms.bfloat16)
    if "int" in name:
        return Tensor(np.array([3, 1, 2] if kind == 0 else [2, 1, 5]).astype(name))
    return Tensor(np.array(vals).astype(name))


def value(name, kind):
    return {"py_int": 2, "py_float": 1.5, "py_bool": True}.get(name) or tensor(name, kind)


def outcome(fn, eager=False):
    """The output dtype name of ``fn()``, or the exception type it raises.

    The op is traced abstractly (``jax.eval_shape``): dtype rules run the same way,
    nothing is compiled."""
    def run():
        out = fn()
        return out if isinstance(out, bool) else out._data

    try:
        out = run() if eager else jax.eval_shape(run)
    except (TypeError, ValueError) as err:
        return "TypeError" if isinstance(err, TypeError) else "ValueError"
    if isinstance(out, bool):
        return "py_bool"
    return str(ms.dtype.from_np(out.dtype)).lower()


def fn_of(name):
    if name == "squared_difference":
        return P.SquaredDifference()
    return getattr(ops, name)


OPERATORS = {"__eq__": lambda a, b: a == b, "__ne__": lambda a, b: a != b,
             "__lt__": lambda a, b: a < b, "__le__": lambda a, b: a <= b,
             "__gt__": lambda a, b: a > b, "__ge__": lambda a, b: a >= b,
             "__and__": lambda a, b: a & b, "__or__": lambda a, b: a | b,
             "__xor__": lambda a, b: a ^ b,
             "__invert__": lambda a: ~a, "__abs__": abs, "__pos__": lambda a: +a}


def _ternary(case):
    name, args = case.split(":")
    a = args.split(",")
    v = [None if x == "none" else value(x, i % 2) for i, x in enumerate(a)]
    if name == "lerp":
        return lambda: ops.lerp(v[0], value(a[1], 1), v[2] if a[2] != a[0] else value(a[2], 0))
    if name in ("addcmul", "addcdiv"):
        f = getattr(ops, name)
        if a[1].startswith("py"):
            return lambda: f(value(a[0], 0), value(a[0], 1), value(a[0], 1), value=value(a[1], 0))
        return lambda: f(value(a[0], 0), value(a[1], 1), value(a[1], 1))
    if name in ("clamp", "clip"):
        lo = None if a[1] == "none" else value(a[1], 0)
        hi = None if a[2] == "none" else value(a[2], 1)
        return lambda: getattr(ops, name)(value(a[0], 0), lo, hi)
    if name.startswith("div_"):
        return lambda: ops.div(value(a[0], 0), value(a[1], 1), rounding_mode=name[4:])
    t = a[0]
    return {
        "round_decimals": lambda: ops.round(tensor(t), decimals=1),
        "subtract_alpha": lambda: ops.subtract(tensor(t), tensor(t, 1), alpha=2),
        "float_power_scalar": lambda: ops.float_power(tensor(t), 2),
        "xlogy_scalar_first": lambda: ops.xlogy(2, tensor(t, 1)),
        "isclose_same": lambda: ops.isclose(tensor(t), tensor(t, 1)),
        "Tensor.allclose": lambda: tensor(t).allclose(tensor(t, 1)),
        "nan_to_num_args": lambda: ops.nan_to_num(tensor(t), 0.0, 1.0, -1.0),
        "logit_eps": lambda: ops.logit(tensor(t), eps=1e-6),
    }[name]


def _cases():
    for op_name, table in GOLDEN["unary"].items():
        for d, want in table.items():
            yield op_name, d, want, (lambda f=fn_of(op_name), d=d: f(tensor(d)))
    for op_name, table in GOLDEN["binary"].items():
        for pair, want in table.items():
            a, b = pair.split(",")
            yield op_name, pair, want, (lambda f=fn_of(op_name), a=a, b=b:
                                        f(value(a, 0), value(b, 1)))
    for op_name, table in GOLDEN["operators"].items():
        f = OPERATORS[op_name]
        for case, want in table.items():
            if "," in case:
                a, b = case.split(",")
                yield op_name, case, want, (lambda f=f, a=a, b=b: f(value(a, 0), value(b, 1)))
            else:
                yield op_name, case, want, (lambda f=f, d=case: f(tensor(d)))
    for case, want in GOLDEN["ternary"].items():
        yield case, None, want, _ternary(case)


CASES = {}
for _c in _cases():
    CASES.setdefault(_c[0].split(":")[0], []).append(_c)


def _expected(op_name, case, want):
    """What msxla must give: a dtype name, an exception name, "accepts" (any dtype), or
    None where MindSpore's CPU build fails for reasons that are not about dtypes."""
    key = (op_name, case)
    if want in ("TypeError", "ValueError"):
        return "accepts" if key in WIDER else want
    if want.endswith("?"):
        if key in INFERRED_DIFFERS:
            return INFERRED_DIFFERS[key]
        return "TypeError" if key in UNSUPPORTED else want[:-1]
    if want[0].isupper() or " " in want:  # RuntimeError or an unparsed CPU failure
        return None
    return want


def _mismatch(op_name, case, want, fn):
    expected = _expected(op_name, case, want)
    got = outcome(fn, eager=op_name.startswith("Tensor.allclose"))
    if expected in (None, "accepts"):  # MindSpore's CPU kernel failed, or msxla is wider
        ok = got not in ("TypeError", "ValueError")
    else:
        ok = got == expected
    return None if ok else f"{op_name} {case or ''}: MindSpore {want}, msxla {got}"


@pytest.mark.parametrize("op_name", sorted(CASES))
def test_output_dtypes_match_mindspore(op_name):
    bad = [m for c in CASES[op_name] if (m := _mismatch(*c)) is not None]
    assert not bad, "\n".join(bad)
