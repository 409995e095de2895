"""Golden core Tensor behaviour of MindSpore 2.10: writes ``tensor_core.json`` next to itself.

Run in the oracle venv: ``GLOG_v=3 ~/ms-oracle/bin/python tests/golden/make_tensor_core.py``.

Each case is a Python expression over ``ms`` (the package), ``np``, ``Tensor``,
``Parameter`` and ``operator``; the JSON holds what it evaluated to (described
by :func:`describe`) or the exception type it raised. The test evaluates the
same expressions with ``msxla`` as ``ms``. Covered: construction (nested lists
of mixed Python types, numpy scalars and arrays, ``dtype=``, Tensors), bad
inputs, ``item``/``tolist``/``len``, ``bool``/``int``/``float``/``index``
conversions, shape properties, ``astype`` casts and ``ops.cast`` of out-of-range floats.

A failed MindSpore op may leave stale errors behind, so cases run in a worker
process that stops at the first error; the driver restarts it after that case.
"""
import json
import math
import operator
import os
import subprocess
import sys

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tensor_core.json")
DTYPES = ["bool_", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float16", "float32", "float64", "bfloat16", "complex64"]


def cases():
    c = [
        # construction from Python data
        "Tensor(1)", "Tensor(2.5)", "Tensor(True)", "Tensor(1+2j)", "Tensor([1, 2.5])",
        "Tensor([1, True])", "Tensor([True, 2.5])", "Tensor([[1, 2], [3.5, 4]])",
        "Tensor((1, 2))", "Tensor([(1, 2), [3, 4]])", "Tensor([1, 2**40])", "Tensor(2**63 - 1)",
        "Tensor([1+2j, 3])", "Tensor([True, False])", "Tensor([])", "Tensor([[]])", "Tensor(())",
        "Tensor([[1.5], [2]])", "Tensor([0.1, 1e40])", "Tensor(1e40)",
        "Tensor([Tensor(1.0), Tensor(2.0)])", "Tensor([Tensor(1), 2])",
        "Tensor([np.float32(1), 2])", "Tensor([np.float64(1.5), 2])",
        "Tensor([np.int8(1), np.int8(2)])",
        # numpy scalars and arrays
        "Tensor(np.float32(1))", "Tensor(np.int8(1))", "Tensor(np.float64(1))",
        "Tensor(np.bool_(True))", "Tensor(np.uint16(3))", "Tensor(np.float16(1.5))",
        "Tensor(np.int64(7))", "Tensor(np.array(1))", "Tensor(np.array(2.5))",
        "Tensor(np.array([1.0, 2.0]))", "Tensor(np.array([1, 2], np.int32))",
        "Tensor(np.array([[1, 2]], np.uint8))", "Tensor(np.zeros((2, 0)))",
        "Tensor(np.array([1+2j], np.complex128))",
        # dtype=
        "Tensor(np.array([1.5, 2.5]), dtype=ms.float32)",
        "Tensor(np.array([1.7, -1.7]), dtype=ms.int32)", "Tensor([1.7, -2.7], ms.int64)",
        "Tensor([0, 1, 2], ms.bool_)", "Tensor(3.7, ms.int32)", "Tensor(1, ms.float16)",
        "Tensor(True, ms.float32)", "Tensor([1, 2], dtype=ms.bfloat16)",
        "Tensor([300, -1], ms.uint8)", "Tensor(np.array([300, -1]), ms.uint8)",
        "Tensor([1.5, 2.5], ms.complex64)", "Tensor(np.float32(2.5), ms.int8)",
        "Tensor(Tensor([1.5, 2.5]), dtype=ms.int32)", "Tensor(Tensor([1, 2]))",
        "Tensor(Tensor([1, 2]), ms.float64)", "Tensor(Tensor(True), ms.int32)",
        "Tensor([1, 2], ms.float32).dtype", "Tensor(np.ones(2), np.float16)",
        "Tensor([1, 2], dtype=None)",
        # bad inputs
        "Tensor(None)", "Tensor('abc')", "Tensor([[1, 2], [3]])", "Tensor({'a': 1})",
        "Tensor([1, 'a'])", "Tensor([1, None])", "Tensor(object())",
        "Tensor([1, 2], dtype='float32')", "Tensor([1, 2], dtype=3)", "Tensor(2**64)",
        "Tensor([[1, 2], 3])", "Tensor(np.array([object()]))",
        # item / tolist / len / iteration
        "Tensor(2.5).item()", "Tensor([7]).item()", "Tensor([[True]]).item()",
        "Tensor([1, 2]).item()", "Tensor([]).item()", "Tensor(np.float32(0.1)).item()",
        "Tensor([1.5, 2.5], ms.float16).tolist()", "Tensor([[1, 2], [3, 4]]).tolist()",
        "Tensor(3).tolist()", "Tensor([True, False]).tolist()", "Tensor([]).tolist()",
        "Tensor(np.zeros((2, 0))).tolist()", "Tensor([1.5], ms.bfloat16).tolist()",
        "Tensor([1+2j], ms.complex64).tolist()", "Tensor([0.1]).tolist()",
        "len(Tensor([1, 2, 3]))", "len(Tensor([[1, 2]]))", "len(Tensor(1))", "len(Tensor([]))",
        "[x.item() for x in Tensor([1, 2])]", "list(Tensor(1))",
        # conversions
        "bool(Tensor([0.0]))", "bool(Tensor(2))", "bool(Tensor([[True]]))", "bool(Tensor([1, 2]))",
        "bool(Tensor([]))", "int(Tensor([2.7]))", "int(Tensor([-2.7]))", "int(Tensor(True))",
        "int(Tensor([1, 2]))", "float(Tensor([3]))", "float(Tensor([[3.5]]))",
        "float(Tensor([1, 2]))", "float(Tensor(1+2j))", "int(Tensor(1+2j))", "complex(Tensor(2.5))",
        "operator.index(Tensor(3))", "operator.index(Tensor(3.0))", "operator.index(Tensor([3]))",
        "operator.index(Tensor(True))", "[10, 20, 30][Tensor(1)]", "operator.index(Tensor([1, 2]))",
        # properties
        "Tensor(np.zeros((2, 3), np.float32)).shape", "Tensor(1).shape", "Tensor(1).ndim",
        "Tensor(np.zeros((2, 3, 4), np.int16)).ndim", "Tensor(np.zeros((2, 3), np.int16)).size",
        "Tensor(1).size", "Tensor(np.zeros((2, 0))).size", "Tensor(1).strides",
        "Tensor(np.zeros((2, 3, 4), np.float16)).strides", "Tensor(np.zeros((2, 0))).strides",
        "Tensor(np.zeros((2, 3), np.float16)).nbytes", "Tensor(1).nbytes",
        "Tensor(np.zeros((2, 0))).nbytes", "Tensor([1, 2]).dtype", "Tensor(1).dim()",
        "Tensor([[1, 2]]).ndimension()",
        # astype
        "Tensor([1.7, -1.7, 2.5, -2.5]).astype(ms.int32)", "Tensor([0.0, 0.5, -2.0]).astype(ms.bool_)",
        "Tensor([True, False]).astype(ms.float32)", "Tensor([1, 300, -129]).astype(ms.int8)",
        "Tensor([-1.0, -1.5, 255.0]).astype(ms.uint8)", "Tensor([70000.0]).astype(ms.float16)",
        "Tensor([1.7]).astype(ms.bfloat16).astype(ms.float32)", "Tensor([2**40 + 1]).astype(ms.float32)",
        "Tensor([1.5]).astype(np.int32)", "Tensor([1.5]).astype('float16')",
        "Tensor([1.5]).astype('int')", "Tensor([1.5]).astype(int)", "Tensor([1]).astype(float)",
        "Tensor([1.5]).astype(bool)", "Tensor([1.5 + 2j], ms.complex64).astype(ms.float32)",
        "Tensor([3, 0]).astype(ms.bool_)", "Tensor([True]).astype(ms.uint8)",
        "Tensor([1e10]).astype(ms.int32)", "Tensor([1.5]).astype(ms.int32).dtype",
    ]
    # float -> int casts out of range, NaN and inf (what the CPU kernels give)
    for src in ("float32", "float64", "float16"):
        for d in ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"):
            c.append(f"ms.ops.cast(Tensor(np.array([1e10, -1e10, np.nan, np.inf, 300.0, -3.7, "
                     f"70000.5, 2.5e9]).astype(np.{src})), ms.{d})")
    for d in DTYPES:
        c.append(f"Tensor(np.array([1], np.float32), ms.{d}).item()")
        c.append(f"bool(Tensor(np.array([1], np.float32), ms.{d}))")
        c.append(f"int(Tensor(np.array([2], np.float32), ms.{d}))")
        c.append(f"float(Tensor(np.array([2], np.float32), ms.{d}))")
        c.append(f"Tensor(np.array([[1, 0]], np.float32), ms.{d}).tolist()")
        c.append(f"(lambda t: (t.shape, t.ndim, t.size, t.itemsize, t.nbytes, t.strides))"
                 f"(Tensor(np.zeros((2, 3), np.float32), ms.{d}))")
    return c


def describe(obj):
    """A JSON description of a value (the test has the same function over msxla values)."""
    import mindspore as ms
    if isinstance(obj, ms.Tensor):
        t = obj.astype(ms.float32) if obj.dtype == ms.bfloat16 else obj
        return {"kind": "Tensor", "dtype": str(obj.dtype), "shape": list(obj.shape),
                "value": _plain(t.asnumpy().tolist())}
    if isinstance(obj, ms.dtype.Type):
        return {"kind": "dtype", "value": str(obj)}
    if isinstance(obj, (tuple, list)):
        return {"kind": type(obj).__name__, "items": [describe(x) for x in obj]}
    if obj is None or isinstance(obj, (bool, int, float, complex, str)):
        return {"kind": type(obj).__name__, "value": _plain(obj)}
    return {"kind": "other", "value": f"{type(obj).__module__}.{type(obj).__name__}"}


def _plain(v):
    if isinstance(v, list):
        return [_plain(x) for x in v]
    if isinstance(v, complex):
        return [v.real, v.imag]
    if isinstance(v, float) and math.isnan(v):
        return "nan"
    if isinstance(v, float) and math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return v


def worker(start):
    import numpy as np
    import mindspore as ms
    env = {"ms": ms, "np": np, "Tensor": ms.Tensor, "Parameter": ms.Parameter,
           "operator": operator}
    all_cases = cases()
    for i in range(start, len(all_cases)):
        rec = {"i": i}
        try:
            rec["result"] = describe(eval(all_cases[i], dict(env)))  # noqa: S307 - fixed cases
        except Exception as e:  # noqa: BLE001 - recording MindSpore's exception
            rec["error"] = type(e).__name__
            rec["message"] = str(e).split("\n")[0][:300]
            print(json.dumps(rec), flush=True)
            sys.exit(3)
        print(json.dumps(rec), flush=True)


def main():
    all_cases = cases()
    results, start = {}, 0
    while start < len(all_cases):
        proc = subprocess.run([sys.executable, __file__, "--worker", str(start)],
                              capture_output=True, text=True, env=dict(os.environ, GLOG_v="3"))
        for line in proc.stdout.splitlines():
            if line.startswith("{"):
                rec = json.loads(line)
                results[rec.pop("i")] = rec
        if start not in results:  # the process died on this case
            results[start] = {"error": "Crash", "message": proc.stderr.strip()[-300:]}
        start = max(results) + 1
    with open(OUT, "w") as f:
        f.write('{"cases": [\n')
        f.write(",\n".join(json.dumps({"expr": e, **results[i]}) for i, e in enumerate(all_cases)))
        f.write("\n]}\n")


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--worker":
        worker(int(sys.argv[2]))
    else:
        main()
