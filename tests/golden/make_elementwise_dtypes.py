"""Writes elementwise_dtypes.json: MindSpore 2.10's output dtypes of elementwise ops.

Run in the oracle venv: ``GLOG_v=3 ~/ms-oracle/bin/python tests/golden/make_elementwise_dtypes.py``.

For each op and input dtype(s) it records one of:

- ``"float32"``: the output dtype MindSpore gives;
- ``"float32?"``: the output dtype MindSpore infers, where its CPU backend has
  no kernel for the input (the op is valid, the CPU build cannot run it);
- ``"TypeError"``: MindSpore rejects the input dtype before running anything;
- ``"<Exception>"``: any other failure (not checked).

Scalars in a case are written ``py_int``, ``py_float``, ``py_bool``.
"""
import json
import os
import re

import numpy as np
import mindspore as ms
from mindspore import Tensor, ops
from mindspore.ops import operations as P

ms.set_context(pynative_synchronize=True)  # errors surface at the call that caused them

UNARY_DTYPES = ["bool", "int8", "int32", "int64", "uint8", "float16", "float32", "float64",
                "bfloat16", "complex64"]
UNARY = """abs absolute exp exp2 expm1 log log2 log10 log1p sqrt rsqrt square reciprocal sin cos
tan asin arcsin acos arccos atan arctan sinh cosh tanh asinh arcsinh acosh arccosh atanh arctanh
erf erfc erfinv lgamma digamma floor ceil round trunc frac sign sgn signbit positive negative neg
nan_to_num logit sinc deg2rad rad2deg i0 angle real imag conj isnan isinf isfinite isneginf
isposinf isreal logical_not invert""".split()

PAIRS = [("int32", "int32"), ("int64", "int64"), ("bool", "bool"), ("uint8", "uint8"),
         ("int8", "int8"), ("float16", "float16"), ("float32", "float32"),
         ("float64", "float64"), ("bfloat16", "bfloat16"), ("int32", "float32"),
         ("int64", "float16"), ("float16", "float32"), ("float32", "float64"),
         ("int8", "uint8"), ("bool", "int32"), ("bool", "float32"), ("int32", "int64"),
         ("complex64", "float32"), ("float32", "py_int"), ("int32", "py_float"),
         ("int64", "py_int"), ("int32", "py_bool"), ("bool", "py_int"),
         ("float16", "py_float"), ("int32", "py_int"), ("bool", "py_bool")]
BINARY = """add sub mul div pow maximum minimum floor_divide remainder atan2 arctan2 hypot fmod
xlogy logaddexp logaddexp2 copysign true_divide divide subtract multiply floor_div float_power
bitwise_left_shift bitwise_right_shift gcd lcm equal eq not_equal ne greater gt greater_equal ge
less lt less_equal le isclose logical_and logical_or logical_xor bitwise_and bitwise_or
bitwise_xor heaviside fmax fmin nextafter ldexp xdivy truncate_div truncate_mod floor_mod
squared_difference""".split()
OPERATORS = {"__eq__": lambda a, b: a == b, "__ne__": lambda a, b: a != b,
             "__lt__": lambda a, b: a < b, "__le__": lambda a, b: a <= b,
             "__gt__": lambda a, b: a > b, "__ge__": lambda a, b: a >= b,
             "__and__": lambda a, b: a & b, "__or__": lambda a, b: a | b,
             "__xor__": lambda a, b: a ^ b}
UNARY_OPERATORS = {"__invert__": lambda a: ~a, "__abs__": abs, "__pos__": lambda a: +a}


def tensor(name, kind=0):
    vals = [0.5, 1.0, 0.25] if kind == 0 else [2.0, 0.75, 1.0]
    if name == "bool":
        return Tensor(np.array([True, False, True]))
    if name == "bfloat16":
        return Tensor(np.array(vals, np.float32), ms.bfloat16)
    return Tensor(np.array(vals).astype(name) if "int" not in name else
                  np.array([3, 1, 2] if kind == 0 else [2, 1, 5]).astype(name))


def value(name, kind):
    return {"py_int": 2, "py_float": 1.5, "py_bool": True}.get(name) or tensor(name, kind)


def outcome(fn):
    try:
        out = fn()
    except Exception as err:  # noqa: BLE001 - every failure is recorded
        msg = str(err)
        if "Select CPU operator" in msg or "kernel type" in msg:
            m = (re.search(r"output\[\[const vector\]\{(\w+)", msg)
                 or re.search(r"and output\[(\w+) \]", msg))
            return f"{m.group(1).lower()}?" if m else "no CPU kernel"
        return type(err).__name__
    if isinstance(out, (bool, np.bool_)):
        return "py_bool"
    if isinstance(out, tuple):
        return ",".join(str(o.dtype).lower() for o in out)
    return str(out.dtype).lower()


def fn_of(name):
    if name == "squared_difference":
        return P.SquaredDifference()
    return getattr(ops, name)


def main():
    result = {"unary": {}, "binary": {}, "operators": {}, "ternary": {}}
    for name in UNARY:
        f = fn_of(name)
        result["unary"][name] = {d: outcome(lambda: f(tensor(d))) for d in UNARY_DTYPES}
    for name, f in UNARY_OPERATORS.items():
        result["operators"][name] = {d: outcome(lambda: f(tensor(d))) for d in UNARY_DTYPES}
    for name in BINARY:
        f = fn_of(name)
        result["binary"][name] = {f"{a},{b}": outcome(lambda: f(value(a, 0), value(b, 1)))
                                  for a, b in PAIRS}
    for name, f in OPERATORS.items():
        result["operators"][name] = {f"{a},{b}": outcome(lambda: f(value(a, 0), value(b, 1)))
                                     for a, b in PAIRS}
    t = result["ternary"]
    for a, b in [("float32", "float32"), ("float16", "float16"), ("float64", "float64"),
                 ("float32", "py_float"), ("float16", "float32"), ("int32", "int32"),
                 ("int32", "py_int")]:
        t[f"lerp:{a},{a},{b}"] = outcome(lambda: ops.lerp(value(a, 0), value(a, 1), value(b, 0)))
    for a, b in [("float32", "py_int"), ("float32", "py_float"), ("int32", "py_int"),
                 ("int32", "py_float"), ("float16", "float32"), ("int64", "float32"),
                 ("float32", "int32"), ("float64", "float32")]:
        for op in ("addcmul", "addcdiv"):
            if b.startswith("py"):
                f = lambda: getattr(ops, op)(value(a, 0), value(a, 1), value(a, 1),
                                             value=value(b, 0))
            else:
                f = lambda: getattr(ops, op)(value(a, 0), value(b, 1), value(b, 1))
            t[f"{op}:{a},{b}"] = outcome(f)
    for a, lo, hi in [("float32", "py_int", "py_int"), ("int32", "py_float", "py_float"),
                      ("int32", "py_int", "py_int"), ("int32", "float32", "float32"),
                      ("float16", "float32", "float32"), ("float32", "int32", "int32"),
                      ("int64", "py_int", "none"), ("float64", "none", "py_float"),
                      ("bool", "py_int", "py_int"), ("uint8", "py_int", "py_int")]:
        for op in ("clamp", "clip"):
            t[f"{op}:{a},{lo},{hi}"] = outcome(lambda: getattr(ops, op)(
                value(a, 0), None if lo == "none" else value(lo, 0),
                None if hi == "none" else value(hi, 1)))
    for a, b in [("int32", "int32"), ("int64", "int32"), ("bool", "bool"), ("float32", "int32"),
                 ("int32", "py_int")]:
        for mode in ("floor", "trunc"):
            t[f"div_{mode}:{a},{b}"] = outcome(lambda: ops.div(value(a, 0), value(b, 1),
                                                               rounding_mode=mode))
    for a in ("float32", "float16", "int32", "float64"):
        t[f"round_decimals:{a}"] = outcome(lambda: ops.round(tensor(a), decimals=1))
        t[f"subtract_alpha:{a}"] = outcome(lambda: ops.subtract(tensor(a), tensor(a, 1),
                                                                alpha=2))
        t[f"float_power_scalar:{a}"] = outcome(lambda: ops.float_power(tensor(a), 2))
        t[f"xlogy_scalar_first:{a}"] = outcome(lambda: ops.xlogy(2, tensor(a, 1)))
        t[f"isclose_same:{a}"] = outcome(lambda: ops.isclose(tensor(a), tensor(a, 1)))
        t[f"Tensor.allclose:{a}"] = outcome(lambda: tensor(a).allclose(tensor(a, 1)))
        t[f"nan_to_num_args:{a}"] = outcome(lambda: ops.nan_to_num(tensor(a), 0.0, 1.0, -1.0))
        t[f"logit_eps:{a}"] = outcome(lambda: ops.logit(tensor(a), eps=1e-6))
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "elementwise_dtypes.json")
    with open(out, "w") as fh:  # one line per op
        fh.write("{\n")
        sections = sorted(result)
        for i, sec in enumerate(sections):
            fh.write(f' "{sec}": {{\n')
            rows = sorted(result[sec].items())
            for j, (name, table) in enumerate(rows):
                sep = "," if j < len(rows) - 1 else ""
                fh.write(f"  {json.dumps(name)}: {json.dumps(table, sort_keys=True)}{sep}\n")
            fh.write(" }" + ("," if i < len(sections) - 1 else "") + "\n")
        fh.write("}\n")


if __name__ == "__main__":
    main()
