"""Golden Tensor indexing of MindSpore 2.10: writes ``indexing.json`` next to itself.

Run in the oracle venv: ``GLOG_v=3 ~/ms-oracle/bin/python tests/golden/make_indexing.py``.

A case is ``[base, index]`` (``base[index]``) or ``[base, index, value]``
(``base[index] = value`` on a fresh copy, recording the whole Tensor after it).
``index`` and ``value`` are Python expressions over ``np``, ``Tensor`` and
``ms``; ``base`` names one of the arrays in ``BASES``. The JSON holds each
result (dtype, shape, values) or the exception type raised.

PyNative runs synchronously (errors surface at the call that caused them); a
case that crashes MindSpore's process is recorded as ``"Crash"``, and the next
worker process starts after it.
"""
import json
import math
import os
import subprocess
import sys

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "indexing.json")

BASES = {  # name -> (numpy dtype, shape); values are arange(size)
    "x": ("float32", (2, 3, 4)), "xi": ("int32", (2, 3, 4)), "y": ("float32", (6,)),
    "z": ("float32", ()), "u": ("uint8", (6,)), "m": ("float16", (3, 3)),
}

GET = [  # on x unless a base is given
    "0", "1", "-1", "-2", "2", "-3", "slice(1, None)", "slice(None, 1)", "slice(None, None, 2)",
    "slice(None, None, -1)", "slice(1, None, -1)", "slice(-1, 0, -1)", "slice(5, 10)",
    "slice(None, None, 0)", "(slice(1, None), slice(None, None, -2))",
    "(slice(None), slice(2, 0, -1), slice(None, None, 3))", "(0, slice(1, 3))", "None",
    "(None, 0)", "(0, None, 1)", "(None, None)", "...", "(..., 0)", "(0, ...)", "(..., None)",
    "(1, ..., 2)", "(..., 1, ...)", "()", "True", "False", "[True, False]",
    "np.array([True, False])", "Tensor([True, False])", "Tensor(np.arange(24).reshape(2, 3, 4) > 20)",
    "Tensor([[True, False, True], [False, False, True]])", "[True, False, True]",
    "(0, [True, False, True])", "(..., [True, False, True, False])", "(Tensor([True, False]), 1)",
    "[0, 1]", "[1, 0, 1]", "[-1]", "[[0, 1]]", "[[0, 1], [1, 0]]", "[2]", "[0, 2]", "[]",
    "np.array([1, 0])", "np.array([[1], [0]])", "Tensor([1, 0])", "Tensor([[0], [1]])",
    "Tensor(np.array([1, 0], np.int32))", "Tensor([2])", "Tensor([1.0])",
    "(Tensor([0, 1]), Tensor([1, 2]))", "([0, 1], slice(None), [1, 2])", "(slice(None), [0, 2])",
    "(0, [0, 2], slice(None))", "(slice(None), 0, [1, 2])", "(Tensor([0, 1]), ..., Tensor([1, 2]))",
    "([0, 1], None, [1, 2])", "(None, [0, 1], [1, 2])", "(slice(None), [0, 1], [1, 2])",
    "([0, 1], [True, False, True])", "(slice(None), [True, False, True], [0, 2])",
    "[0, [1]]", "[Tensor(0), Tensor(1)]", "[[0, 1], slice(None), [1, 2]]",
    "Tensor(1)", "Tensor(-1)", "(Tensor(1), Tensor(2))", "Tensor(True)", "Tensor(False)",
    "Tensor(1.0)", "slice(Tensor(0), Tensor(1))", "(np.int64(1), np.int32(2))", "np.array(1)",
    "1.5", "'a'", "(0, 0, 0, 0)", "[[]]", "(0, 0, 5)", "(0, 3)", "(slice(None), slice(None), -5)",
    "[1.5]", "Tensor([True])", "[[True, False], [True, True]]",
    ["y", "slice(None, None, -2)"], ["y", "Tensor([[0, 1], [2, 3]])"], ["y", "np.int64(2)"],
    ["y", "[True, False, True, False, True, False]"], ["y", "[True, False]"], ["y", "-7"],
    ["y", "slice(-100, 100)"], ["y", "[-6, 5]"], ["y", "[6]"],
    ["z", "()"], ["z", "..."], ["z", "None"], ["z", "0"], ["z", "True"], ["z", "False"],
    ["z", "slice(None)"], ["m", "(slice(None), 1)"], ["m", "Tensor([[True, False, True]] * 3)"],
]

SET = [  # (index, value) on x unless a base is given
    ("0", "5"), ("0", "5.7"), ("0", "True"), ("0", "Tensor(np.ones((3, 4), np.float32))"),
    ("0", "Tensor([1.0, 2.0, 3.0, 4.0])"), ("0", "[1, 2, 3, 4]"), ("0", "[[1], [2], [3]]"),
    ("(..., 0)", "-1"), ("(slice(None), slice(1, None))", "Tensor(np.full((2, 2, 4), 7.0))"),
    ("Tensor(np.arange(24).reshape(2, 3, 4) > 20)", "0"),
    ("Tensor(np.arange(24).reshape(2, 3, 4) > 20)", "Tensor([1.0, 2.0, 3.0])"),
    ("([0, 1], [1, 2])", "Tensor(np.array([[7.0] * 4, [8.0] * 4], np.float32))"),
    ("([0, 0], [1, 1])", "Tensor(np.array([[1.0] * 4, [2.0] * 4], np.float32))"),
    ("None", "3"), ("slice(None, None, -1)", "Tensor(np.arange(24.0).reshape(2, 3, 4))"),
    ("1", "Tensor(np.ones((3, 4)))"), ("Tensor(1)", "9"), ("(0, 1, 2)", "3"),
    ("(0, slice(None), Tensor([0, 2]))", "Tensor([[1.0, 2.0]] * 3)"), ("[True, False]", "0.5"),
    ("Tensor([True, False])", "Tensor(np.zeros((3, 4), np.float32))"), ("...", "1"),
    ("()", "2"), ("[0, 1]", "Tensor(np.ones((2, 3, 4)))"), ("[1, 0]", "Tensor(np.ones((1, 4)))"),
    ("0", "Tensor(np.ones((2, 3, 4)))"), ("0", "Tensor(np.ones((1, 3, 4)))"),
    ("0", "Tensor(np.ones((2, 4)))"), ("0", "[1, 2]"), ("5", "1"), ("0", "'a'"),
    ("0", "None"), ("(0, 0, 0)", "Tensor([1.0, 2.0])"), ("slice(5, 10)", "1"),
    ("(slice(None), [True, False, True])", "Tensor([[1.0] * 4])"), ("True", "4"), ("False", "4"),
    ("0", "(1, 2, 3, 4)"), ("0", "np.ones(4)"), ("0", "Tensor(np.ones(4), ms.int64)"),
    ("Tensor(1.0)", "1"),
    (["xi", "0"], "2.9"), (["xi", "0"], "-2.9"), (["xi", "0"], "Tensor(np.full(4, 7.9))"),
    (["xi", "0"], "True"), (["xi", "(0, 0)"], "[1.5, 2.5, 3.5, 4.5]"),
    (["u", "0"], "-1"), (["u", "0"], "300"), (["u", "0"], "-1.5"), (["u", "[0, 1]"], "Tensor([-1.0, 2.7])"),
    (["y", "[True, False, True, False, True, False]"], "Tensor([1.0, 2.0, 3.0])"),
    (["y", "Tensor([0, 0, 1])"], "Tensor([5.0, 6.0, 7.0])"), (["y", "[-1, -2]"], "0"),
    (["z", "()"], "3"), (["z", "..."], "Tensor(4.0)"), (["z", "None"], "5"), (["z", "0"], "1"),
    (["m", "(slice(None), 1)"], "Tensor([1.0, 2.0, 3.0])"),
]


def cases():
    out = []
    for c in GET:
        base, index = c if isinstance(c, list) else ("x", c)
        out.append([base, index])
    for index, value in SET:
        base, index = index if isinstance(index, list) else ("x", index)
        out.append([base, index, value])
    return out


def base_array(np, name):
    dtype, shape = BASES[name]
    size = int(np.prod(shape)) if shape else 1
    return np.arange(size).astype(dtype).reshape(shape)


def _plain(v):
    if isinstance(v, list):
        return [_plain(x) for x in v]
    if isinstance(v, float) and math.isnan(v):
        return "nan"
    return v


def describe(ms, obj):
    if isinstance(obj, ms.Tensor):
        return {"dtype": str(obj.dtype), "shape": list(obj.shape),
                "value": _plain(obj.asnumpy().tolist())}
    return {"other": repr(obj)}


def worker(start):
    import numpy as np
    import mindspore as ms
    ms.set_context(pynative_synchronize=True)  # errors surface at the call that caused them
    env = {"np": np, "Tensor": ms.Tensor, "ms": ms}
    all_cases = cases()
    for i in range(start, len(all_cases)):
        c, rec = all_cases[i], {"i": i}
        try:
            x = ms.Tensor(base_array(np, c[0]))
            index = eval(c[1], dict(env))  # noqa: S307 - fixed cases
            if len(c) == 2:
                rec["result"] = describe(ms, x[index])
            else:
                x[index] = eval(c[2], dict(env))  # noqa: S307
                rec["result"] = describe(ms, x)
        except Exception as e:  # noqa: BLE001 - recording MindSpore's exception
            rec["error"] = type(e).__name__
            rec["message"] = str(e).split("\n")[0][:200]
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
            results[start] = {"error": "Crash", "message": proc.stderr.strip()[-200:]}
        start = max(results) + 1
    with open(OUT, "w") as f:
        f.write('{"bases": %s,\n "cases": [\n' % json.dumps(BASES))
        f.write(",\n".join(json.dumps({"case": c, **results[i]}) for i, c in enumerate(all_cases)))
        f.write("\n]}\n")


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--worker":
        worker(int(sys.argv[2]))
    else:
        main()
