"""Golden Tensor printing of MindSpore 2.10: writes ``printing.json`` next to itself.

Run in the oracle venv: ``GLOG_v=3 ~/ms-oracle/bin/python tests/golden/make_printing.py``.

For each case it records ``repr(t)``, ``str(t)``, ``f"{t}"`` and what ``print(t)``
writes, for Tensors of every dtype and rank 0..4: ordinary, integral, huge and
tiny values, NaN (both signs), infinities, negative zero, empty shapes and
tensors large enough to be summarised with ``...``; and Parameter repr/str.
``f"{t}"`` and ``print(t)`` are stored only where they differ from ``str(t)``.
A case's input is a numpy array (``src_dtype``, ``shape`` and either the
array's bytes in hex or ``arange``) turned into ``Tensor(array, dtype)``.
"""
import contextlib
import io
import json
import os

import numpy as np

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "printing.json")
FLOATS = ["float32", "float16", "float64", "bfloat16"]
INTS = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]


def _src(arr):
    return {"src_dtype": str(arr.dtype), "shape": list(arr.shape), "hex": arr.tobytes().hex()}


def _arange(src_dtype, shape):
    return {"src_dtype": src_dtype, "shape": list(shape), "arange": True}


def source_array(case):
    """The numpy array a case starts from (the test has the same function)."""
    shape = tuple(case["shape"])
    if case.get("arange"):
        n = int(np.prod(shape))
        return np.arange(n).astype(case["src_dtype"]).reshape(shape)
    return np.frombuffer(bytes.fromhex(case["hex"]), case["src_dtype"]).reshape(shape).copy()


def cases():
    rng = np.random.default_rng(20240610)
    out = []

    def add(name, dtype, src, **kw):
        out.append({"name": name, "dtype": dtype, **src, **kw})

    special = np.array([np.nan, -np.nan, np.inf, -np.inf, -0.0, 0.0, 1.0, -2.5])
    for d in FLOATS:
        src_d = "float32" if d == "bfloat16" else d
        for rank, shape in enumerate([(), (5,), (2, 3), (2, 2, 3)]):
            vals = rng.standard_normal(shape)
            add(f"{d}-normal-r{rank}", d, _src(np.asarray(vals, src_d)))
            add(f"{d}-integral-r{rank}", d,
                _src(np.asarray(rng.integers(-20, 20, shape), src_d)))
        for scale in (1e10, 1e-10, 1e30, 1e-30, 12345.678, 1e5, 1e-5):
            add(f"{d}-scale-{scale}", d, _src(np.asarray(rng.standard_normal(4) * scale, src_d)))
        add(f"{d}-mixed-scales", d, _src(np.asarray([1e-8, 1.0, 1e8, 123.25], src_d)))
        add(f"{d}-special", d, _src(special.astype(src_d)))
        add(f"{d}-special-2d", d, _src(special.reshape(2, 4).astype(src_d)))
        for v in ("nan", "-nan", "inf", "-0.0", "0.1", "1e10", "123456.789", "1e-7"):
            add(f"{d}-scalar-{v}", d, _src(np.asarray(float(v), src_d)))
    for d in INTS:
        info = np.iinfo(d)
        for rank, shape in enumerate([(), (5,), (2, 3), (2, 2, 3)]):
            vals = rng.integers(max(info.min, -1000), min(info.max, 1000), shape)
            add(f"{d}-r{rank}", d, _src(np.asarray(vals, d)))
        add(f"{d}-extremes", d, _src(np.array([info.min, 0, info.max, 7], d)))
    for rank, shape in enumerate([(), (5,), (2, 3), (2, 2, 3)]):
        add(f"bool-r{rank}", "bool", _src(rng.random(shape) < 0.5))
    cplx = np.array([1 + 2j, 3 - 4j, -0.5 + 0j, 1e10 - 1e-10j, np.nan + 1j, 1 - np.inf * 1j],
                    np.complex64)
    add("complex64-1d", "complex64", _src(cplx))
    add("complex64-2d", "complex64", _src(cplx.reshape(2, 3)))
    add("complex64-scalar", "complex64", _src(np.array(1.5 - 2j, np.complex64)))
    add("complex64-normal", "complex64",
        _src((rng.standard_normal((2, 2)) + 1j * rng.standard_normal((2, 2))).astype(np.complex64)))
    # summarisation: where MindSpore and numpy start using '...'
    for n in (6, 7, 11, 12, 13, 23, 24, 25, 1000, 1001, 2000):
        for d in ("float32", "float16", "int64", "bool", "bfloat16", "uint8", "complex64"):
            if n == 1000 and d != "int64":
                continue
            src_d = {"bfloat16": "float32", "bool": "int64"}.get(d, d)
            add(f"{d}-len{n}", d, _arange(src_d, (n,)))
    for shape in [(7, 7), (6, 6), (3, 1001), (10, 3), (2, 500), (2, 501), (7, 2, 8), (4, 5, 6),
                  (12, 1), (1, 12), (2, 1, 2, 2), (8, 8, 8), (1001, 2), (3, 4, 100)]:
        for d in ("float32", "int32", "bool", "bfloat16"):
            src_d = {"bfloat16": "float32", "bool": "int64"}.get(d, d)
            add(f"{d}-shape{shape}", d, _arange(src_d, shape))
    for shape in [(0,), (2, 0), (0, 3), (2, 0, 3)]:
        for d in ("float32", "int64", "bool", "bfloat16"):
            add(f"{d}-empty{shape}", d, _arange("float32", shape))
    add("param-float32", "float32", _src(np.array([1.0, 2.0], np.float32)), param={"name": "w"})
    add("param-scalar-int", "int32", _src(np.array(3, np.int32)),
        param={"name": "step", "requires_grad": False})
    add("param-2d", "float16", _arange("float16", (2, 3)), param={"name": "layer.weight"})
    return out


def main():
    import mindspore as ms
    rows = []
    for case in cases():
        arr = source_array(case)
        t = ms.Tensor(arr, getattr(ms, "bool_" if case["dtype"] == "bool" else case["dtype"]))
        if "param" in case:
            t = ms.Parameter(t, **case["param"])
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            print(t)
        row = {**case, "repr": repr(t), "str": str(t)}
        # f"{t}" and print(t): stored only where they are not str(t) / str(t) + newline
        if f"{t}" != row["str"]:
            row["format"] = f"{t}"
        if buf.getvalue() != row["str"] + "\n":
            row["print"] = buf.getvalue()
        rows.append(row)
    with open(OUT, "w") as f:
        f.write('{"cases": [\n')
        f.write(",\n".join(json.dumps(r) for r in rows))
        f.write("\n]}\n")


if __name__ == "__main__":
    main()
