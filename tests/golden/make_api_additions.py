"""Golden answers of MindSpore 2.10 for names scripts use that are not op-table rows:
writes ``api_additions.json`` next to itself.

Run in the oracle venv: ``GLOG_v=3 ~/ms-oracle/bin/python tests/golden/make_api_additions.py``.

Each case is Python source over ``ms``, ``np``, ``Tensor``, ``ops``, ``nn``: a single
expression is evaluated, anything longer is executed and its ``result`` variable
read. The JSON holds the description of the value (``describe``) or the exception
type and message. ``tests/names/test_api_additions.py`` runs the same source with
msxla as ``ms``. Covered: ``mindspore.tensor`` / ``from_numpy``, Tensor members
(dtype shorthands, ``type``, ``t``, ``stride``, ``sum_to_size``, ``select``, ...),
``constexpr``, ``jit_class``, ``vmap``, ``addn`` / ``AddN``, ``TensorAdd``, ``Inv``,
``Identity``, ``clip_by_norm``, ``clip_by_global_norm``, ``HookBackward`` and
``Tensor.register_hook``.

Cases run in a worker process that stops at the first error (a failed MindSpore op
can leave stale state); the driver restarts it after that case.
"""
import json
import math
import os
import subprocess
import sys

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "api_additions.json")

X = "Tensor(np.array([[1.7, -2.5, 0.], [3., 4.2, -0.6]]), ms.float32)"
I = "Tensor([[1, 2], [3, 0]], ms.int32)"


def cases():
    c = [
        # mindspore.tensor and from_numpy
        "ms.tensor([1, 2])", "ms.tensor([1., 2.])", "ms.tensor(np.array([1.0]))",
        "ms.tensor([1, 2], ms.float16)", "ms.tensor(3)", "ms.tensor(True)",
        "ms.from_numpy(np.arange(3, dtype=np.int32))", "Tensor.from_numpy(np.arange(3.))",
        "Tensor.from_numpy(np.ones((2, 2), np.float16))",
        # dtype shorthands and type / type_as
        *[f"{X}.{m}()" for m in ("float", "double", "half", "int", "long", "short", "byte",
                                 "bool", "bfloat16")],
        f"{I}.float()", "Tensor([-1, 300], ms.int32).byte()", "Tensor([True, False]).int()",
        "Tensor([np.nan, 1e20, -1e20]).int()", "Tensor([1e6]).half()",
        f"{X}.type()", f"{X}.type(ms.int32)", f"{I}.type()", f"{X}.type('float16')",
        f"{X}.type_as({I})", f"{I}.type_as({X})",
        # layout members
        f"{X}.contiguous()", f"{X}.is_contiguous()", f"{X}.value()", f"{X}.storage_offset()",
        f"{X}.stride()", f"{X}.stride(0)", f"{X}.stride(-1)",
        "Tensor(np.zeros((2, 3, 4))).stride()", "Tensor(1.0).stride()",
        f"{X}.device", f"type({X}.data_ptr()).__name__", f"{X}.is_pinned()", f"{X}.is_shared()",
        f"{X}.move_to('CPU')",
        # shape members
        f"{X}.t()", "Tensor([1., 2.]).t()", "Tensor(3.0).t()",
        f"{X}.reshape_as(Tensor(np.ones((3, 2))))",
        f"{X}.sum_to_size(1, 3)", f"{X}.sum_to_size((2, 1))", f"{X}.sum_to_size(3)",
        f"{X}.sum_to_size(2, 3)", f"{X}.sum_to_size(4)", f"{X}.sum_to_size(1)",
        "Tensor(np.array([[1+2j, 3]], np.complex64)).adjoint()",
        "Tensor(np.array([[1+2j, 3]], np.complex64)).mH", f"{X}.adjoint()",
        f"{X}.copy().itemset(1, 9.0)", f"{X}.copy().itemset((1, 2), 9.0)",
        f"{X}.copy().itemset(-1, 5.0)",
        f"{X}.select(0, 1)", f"{X}.select(1, -1)", f"{X}.select(dim=1, index=0)",
        f"{X}.select(2, 0)", f"{X}.select(0, 5)",
        f"{X}.select(Tensor([[True, False, True], [False, True, False]]), 0.5)",
        # constexpr, jit_class, lazy_inline
        "ops.constexpr(lambda a, b: a * b)(3, 4)",
        "ops.constexpr(reuse_result=False)(lambda a: a + 1)(1)",
        "ms.jit_class(type('A', (), {})).__ms_class__",
        "ms.jit_class(nn.Dense)", "ms.jit_class(3)",
        "ms.lazy_inline(lambda self: None)",
        # vmap
        "ms.vmap(mul, in_axes=(0, None))(Tensor(np.arange(6.).reshape(2, 3), ms.float32), "
        "Tensor(np.ones(3), ms.float32))",
        "ms.vmap(summ, in_axes=1, out_axes=0)(Tensor(np.arange(6.).reshape(2, 3), ms.float32))",
        "ms.vmap(two, in_axes=(0, 1), out_axes=(0, 1))(Tensor(np.arange(6.).reshape(2, 3), "
        "ms.float32), Tensor(np.ones((3, 2)), ms.float32))",
        "ms.vmap(mul, in_axes=3)(Tensor(np.ones((2, 2)), ms.float32), "
        "Tensor(np.ones((2, 2)), ms.float32))",
        "ms.vmap(mul, in_axes=(0, 1))(Tensor(np.ones((2, 3)), ms.float32), "
        "Tensor(np.ones((2, 3)), ms.float32))",
        "ms.vmap(mul, in_axes=(0, 1, 0))(Tensor(np.ones((2, 3)), ms.float32), "
        "Tensor(np.ones((2, 3)), ms.float32))",
        "ms.vmap(mul, in_axes=(0, None))(Tensor(np.arange(6.).reshape(2, 3), ms.float32), 2.0)",
        "ms.vmap(summ, in_axes=-1)(Tensor(np.arange(6.).reshape(2, 3), ms.float32))",
        "ms.vmap(ms.vmap(mul, in_axes=(0, 0)), in_axes=(0, 0))(Tensor(np.arange(6.).reshape(2, "
        "3), ms.float32), Tensor(np.arange(6.).reshape(2, 3), ms.float32))",
        "ms.vmap(mul, in_axes=None)(Tensor(np.ones(2)), Tensor(np.ones(2)))",
        "ops.vmap(pair, in_axes=((0, 1),))((Tensor(np.arange(6.).reshape(2, 3), ms.float32), "
        "Tensor(np.arange(6.).reshape(3, 2), ms.float32)))",
        "ms.vmap(mm, in_axes=0)(Tensor(np.arange(12.).reshape(2, 2, 3), ms.float32))",
        # AddN, TensorAdd, Inv, Identity
        "ops.addn([Tensor([1., 2.]), Tensor([3., 4.])])",
        "ops.AddN()((Tensor([1., 2.]), Tensor([3., 4.]), Tensor([1., 1.])))",
        "ops.addn([Tensor([1, 2], ms.int32), Tensor([3, 4], ms.int32)])",
        "ops.addn([Tensor([1, 2], ms.int32), Tensor([3., 4.], ms.float32)])",
        "ops.addn([Tensor([1., 2.])])", "ops.addn([Tensor([1., 2.]), Tensor([[1.], [2.]])])",
        "ops.TensorAdd()(Tensor([1., 2.]), Tensor([3., 4.]))",
        "ops.TensorAdd()(Tensor([1, 2], ms.int32), 2)",
        "ops.Inv()(Tensor([2., 4.]))", "ops.inv(Tensor([1, -1, 3, 0], ms.int32))",
        "ops.inv(Tensor([2, 0], ms.float16))", "Tensor([0.5, -4.]).inv()",
        "ops.Identity()(Tensor([2, 4], ms.int8))", "ops.Identity()(3)",
        # clipping
        "ops.clip_by_global_norm((Tensor([3., 4.]), Tensor([[0., 12.]])), 1.0)",
        "ops.clip_by_global_norm([Tensor([3., 4.])], 10.0)",
        "ops.clip_by_global_norm((Tensor([3., 4.]),), 0.0)",
        "ops.clip_by_global_norm((Tensor([3., 4.]),), 1.0, use_norm=1.0)",
        "ops.clip_by_norm(Tensor([3., 4.]), 1.0)",
        "ops.clip_by_norm((Tensor([3., 4.]), Tensor([12.])), 1.0)",
        "ops.clip_by_norm(Tensor([3., 4.]), 10.0, norm_type=1)",
        "ops.clip_by_norm(Tensor([[3., 4.], [1., 2.]]), 2.0, norm_type=3.0)",
        "ops.clip_by_norm([Tensor([3., 4.]), Tensor([1., 2.])], 2.0)",
        # hooks
        """
seen = []
def hook(g):
    seen.append(g[0].asnumpy().tolist())
hb = ops.HookBackward(hook)
def f(x):
    return hb(x * 3) * 2
result = (ms.grad(f)(Tensor([1., 2.])), seen)
""",
        """
def hook(g):
    return g[0] * 2
hb = ops.HookBackward(hook)
def f(x):
    return hb(x * 3) * 2
result = ms.grad(f)(Tensor([1., 2.]))
""",
        "ops.HookBackward(lambda g: None)(Tensor([1., 2.]))",
        """
seen = []
def hook(g):
    seen.append(g.asnumpy().tolist())
    return g * 10
def f(x, y):
    z = x * y
    z.register_hook(hook)
    return z * y
result = (ms.grad(f, grad_position=(0, 1))(Tensor(1., ms.float32), Tensor(2., ms.float32)), seen)
""",
        """
seen = []
def hook(g):
    seen.append(g.asnumpy().tolist())
t = Tensor([1., 2.])
h = t.register_hook(hook)
first = ms.grad(lambda a: (a * a).sum())(t)
h.remove()
second = ms.grad(lambda a: (a * a).sum())(t)
result = (first, second, seen)
""",
        """
def hook(g):
    return g + 1
t = Tensor([1., 2.])
t.register_hook(hook)
result = ms.grad(lambda a: (a * 3).sum())(t)
""",
        "Tensor([1.]).register_hook(3)",
        # loop Primitives
        "ops.WhileLoop()(wcond, wbody, (Tensor(0), Tensor(1.0)))",
        "ops.WhileLoop()(lambda v: v < 5, lambda v: v + 2, 0)",
        "ops.ForiLoop()(0, 5, lambda i, v: v + i, Tensor(0))",
        "ops.ForiLoop()(1, 4, lambda i, v: (v[0] * i, v[1] + 1), (Tensor(1), Tensor(0.5)))",
        "ops.Scan()(sbody, 0.0, [1.0, 2.0, 3.0])",
        "ops.Scan()(sbody, Tensor(1.0), [Tensor(1.0), Tensor(2.0), Tensor(3.0)])",
        "ms.jit(jwhile)(Tensor(1))",
        "ms.jit(jfori)(Tensor(np.arange(3.0, dtype=np.float32)))",
    ]
    return c


SETUP = '''
def mul(x, y):
    return x * y
def summ(x):
    return x.sum()
def two(x, y):
    return x + y, x - y
def pair(p):
    return p[0] + p[1].T
def mm(a):
    return a.swapaxes(0, 1) * 2
def wcond(v):
    return v[0] < 10
def wbody(v):
    return (v[0] + 1, v[1] * 2)
def sbody(c, x):
    return c + x, c * x
def jwhile(x):
    return ops.WhileLoop()(lambda v: v < 10, lambda v: v * 2, x)
def jfori(x):
    return ops.ForiLoop()(0, 3, lambda i, v: v * 2 + 1, x)
'''


def describe(obj, ms):
    """A JSON description of a value (the test has the same function over msxla values)."""
    if isinstance(obj, ms.Tensor):
        t = obj.astype(ms.float32) if obj.dtype == ms.bfloat16 else obj
        return {"kind": "Tensor", "dtype": str(obj.dtype), "shape": list(obj.shape),
                "value": _plain(t.asnumpy().tolist())}
    if isinstance(obj, ms.dtype.Type):
        return {"kind": "dtype", "value": str(obj)}
    if isinstance(obj, (tuple, list)):
        return {"kind": type(obj).__name__, "items": [describe(x, ms) for x in obj]}
    if obj is None or isinstance(obj, (bool, int, float, complex, str)):
        return {"kind": type(obj).__name__, "value": _plain(obj)}
    if isinstance(obj, type):
        return {"kind": "class", "value": obj.__name__}
    return {"kind": "other", "value": type(obj).__name__}


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


def _compile(source, name, mode):
    """Compile ``source`` under a file name whose lines ``linecache`` (and so
    ``inspect.getsource``) can read: MindSpore parses the source of what it runs."""
    import linecache
    filename = f"<api_additions {name}>"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    return compile(source, filename, mode)


def run_case(source, env, name="case"):
    """Evaluate one case: an expression, or statements that set ``result``."""
    source = source.strip() + "\n"
    try:
        code = _compile(source, name, "eval")
    except SyntaxError:
        scope = dict(env)
        exec(_compile(source, name, "exec"), scope)  # noqa: S102 - fixed cases
        return scope["result"]
    return eval(code, dict(env))  # noqa: S307 - fixed cases


def worker(start):
    import numpy as np
    import mindspore as ms
    from mindspore import nn, ops
    # The cases' functions live in __main__'s namespace: MindSpore's graph compiler reads
    # a function's globals through its module.
    env = vars(sys.modules["__main__"])
    env.update({"ms": ms, "np": np, "Tensor": ms.Tensor, "ops": ops, "nn": nn})
    exec(_compile(SETUP, "setup", "exec"), env)  # noqa: S102
    all_cases = cases()
    for i in range(start, len(all_cases)):
        rec = {"i": i}
        try:
            rec["result"] = describe(run_case(all_cases[i], env, str(i)), ms)
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
        if start not in results:
            results[start] = {"error": "Crash", "message": proc.stderr.strip()[-300:]}
        start = max(results) + 1
    with open(OUT, "w") as f:
        json.dump({"setup": SETUP, "cases": [{"source": s, **results[i]}
                                             for i, s in enumerate(all_cases)]}, f, indent=0)
        f.write("\n")


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--worker":
        worker(int(sys.argv[2]))
    else:
        main()
