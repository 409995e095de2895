"""MindSpore 2.10's answers for capture_mode="bytecode" programs (tests/golden/bytecode.json).

Run in the oracle venv: ``GLOG_v=3 ~/ms-oracle/bin/python tests/golden/make_bytecode.py``.
Every probe runs in a fresh process (a failed capture leaves MindSpore's jit
state broken). Each probe records the outputs of several calls, MindSpore's
graph-break count for the function (``get_code_extra``), and errors by type
and first line. Only probes where MindSpore's bytecode mode agrees with
PyNative are used as goldens by the tests (the stale-global probe is kept
to document the difference).
"""
import json
import os
import subprocess
import sys

PROBES = {}


def probe(fn):
    PROBES[fn.__name__] = fn
    return fn


def _setup():
    import mindspore as ms
    import numpy as np
    from mindspore import Tensor
    return np, ms, Tensor


def _breaks(fn):
    from mindspore._c_expression import get_code_extra
    extra = get_code_extra(getattr(fn, "__func__", fn))
    return None if extra is None else extra.get("break_count_")


def _vals(t):
    return t.asnumpy().tolist()


@probe
def tensor_if():
    np, ms, Tensor = _setup()

    def f(x):
        if x.sum() > 0:
            return x * 2 + 100
        return x * 2 - 100
    g = ms.jit(f, capture_mode="bytecode")
    outs = [_vals(g(Tensor(np.array(v, np.float32)))) for v in ([1.0, 2.0], [-1.0, -2.0],
                                                                [3.0, 1.0])]
    return {"inputs": [[1.0, 2.0], [-1.0, -2.0], [3.0, 1.0]], "outputs": outs,
            "breaks": _breaks(f)}


@probe
def while_on_tensor():
    np, ms, Tensor = _setup()

    def f(x):
        n = 0
        while x.sum() < 10:
            x = x * 2
            n += 1
        return x + n
    g = ms.jit(f, capture_mode="bytecode")
    ins = [[1.0, 1.0], [3.0, 4.0], [0.5, 0.25]]
    return {"inputs": ins, "outputs": [_vals(g(Tensor(np.array(v, np.float32)))) for v in ins],
            "breaks": _breaks(f)}


@probe
def and_or_on_tensor():
    np, ms, Tensor = _setup()

    def f(x, y):
        if x.sum() > 0 and y.sum() > 0:
            return x + y
        if x.sum() > 0 or y.sum() > 0:
            return x - y
        return x * y
    g = ms.jit(f, capture_mode="bytecode")
    ins = [([1.0], [2.0]), ([1.0], [-2.0]), ([-1.0], [-3.0])]
    outs = [_vals(g(Tensor(np.array(a, np.float32)), Tensor(np.array(b, np.float32))))
            for a, b in ins]
    return {"inputs": ins, "outputs": outs, "breaks": _breaks(f)}


@probe
def asnumpy_in_the_middle():
    np, ms, Tensor = _setup()

    def f(x):
        y = x * 2
        s = float(np.sum(y.asnumpy()))
        return y + s
    g = ms.jit(f, capture_mode="bytecode")
    ins = [[1.0, 2.0], [3.0, -1.0]]
    outs = [_vals(g(Tensor(np.array(v, np.float32)))) for v in ins]
    strict = ms.jit(f, capture_mode="bytecode", fullgraph=True)
    try:
        strict(Tensor(np.array(ins[0], np.float32)))
        error = None
    except Exception as err:  # noqa: BLE001 - recorded
        error = type(err).__name__
    return {"inputs": ins, "outputs": outs, "breaks": _breaks(f), "fullgraph_error": error}


@probe
def break_in_callee():
    np, ms, Tensor = _setup()

    def inner(x):
        if x.sum() > 0:
            return x + 1
        return x - 1

    def f(x):
        y = inner(x * 2)
        return y * 3
    g = ms.jit(f, capture_mode="bytecode")
    ins = [[1.0, 2.0], [-1.0, -2.0]]
    return {"inputs": ins, "outputs": [_vals(g(Tensor(np.array(v, np.float32)))) for v in ins]}


@probe
def cell_attribute_changed():
    np, ms, Tensor = _setup()
    from mindspore import nn

    class Scale(nn.Cell):
        def __init__(self):
            super().__init__()
            self.k = 1.0

        def construct(self, x):
            return x * self.k
    net = Scale()
    g = ms.jit(net, capture_mode="bytecode")
    x = Tensor(np.ones(1, np.float32))
    out = [_vals(g(x))]
    net.k = 7.0
    out.append(_vals(g(x)))
    return {"outputs": out}


@probe
def closure_changed():
    np, ms, Tensor = _setup()
    c = 1.0

    def f(x):
        return x * c
    g = ms.jit(f, capture_mode="bytecode")
    x = Tensor(np.ones(1, np.float32))
    out = [_vals(g(x))]
    c = 9.0
    out.append(_vals(g(x)))
    return {"outputs": out}


G = 1.0


@probe
def global_changed():
    """MindSpore's bytecode mode does not guard globals: the second output is stale."""
    global G
    np, ms, Tensor = _setup()

    def f(x):
        return x * G
    g = ms.jit(f, capture_mode="bytecode")
    x = Tensor(np.ones(1, np.float32))
    out = [_vals(g(x))]
    G = 5.0
    out.append(_vals(g(x)))
    return {"outputs": out, "pynative": [[1.0], [5.0]]}


@probe
def fstring_length():
    np, ms, Tensor = _setup()

    def f(x):
        return x + len(f"shape={x.shape}")
    g = ms.jit(f, capture_mode="bytecode")
    return {"outputs": [_vals(g(Tensor(np.ones(2, np.float32))))]}


@probe
def scalar_values():
    np, ms, Tensor = _setup()

    def f(x, n):
        if n > 2:
            return x * n
        return x - n
    g = ms.jit(f, capture_mode="bytecode")
    ns = [1, 2, 3, 2, 4, 5, 6]
    return {"inputs": ns, "outputs": [_vals(g(Tensor(np.ones(2, np.float32)), n)) for n in ns]}


@probe
def try_except():
    np, ms, Tensor = _setup()

    def f(x, i):
        try:
            v = [1.0, 2.0][i]
        except IndexError:
            v = -1.0
        return x * v
    g = ms.jit(f, capture_mode="bytecode")
    x = Tensor(np.ones(2, np.float32))
    return {"inputs": [0, 1, 5], "outputs": [_vals(g(x, i)) for i in (0, 1, 5)]}


@probe
def graph_mode_plain_function():
    np, ms, Tensor = _setup()

    def f(x):
        if x.sum() > 0:
            return x + 1
        return x - 1
    g = ms.jit(f, capture_mode="bytecode")
    ms.set_context(mode=ms.GRAPH_MODE)
    out = [_vals(g(Tensor(np.array(v, np.float32)))) for v in ([1.0], [-1.0])]
    return {"inputs": [[1.0], [-1.0]], "outputs": out}


@probe
def tuple_in_place():
    np, ms, Tensor = _setup()

    def f(pair):
        return pair[0] + pair[1]
    g = ms.jit(f, capture_mode="bytecode")
    a = Tensor(np.ones(1, np.float32))
    b = Tensor(np.full(1, 2.0, np.float32))
    out = [_vals(g((a, b)))]
    a.assign_value(Tensor(np.full(1, 10.0, np.float32)))
    out.append(_vals(g((a, b))))
    return {"outputs": out}


def run_one(name):
    result = PROBES[name]()
    print(json.dumps(result))


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--probe":
        run_one(sys.argv[2])
        return
    out = {}
    env = dict(os.environ, GLOG_v="3")
    for name in PROBES:
        proc = subprocess.run([sys.executable, __file__, "--probe", name], check=False,
                              capture_output=True, text=True, env=env, timeout=600)
        lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
        out[name] = json.loads(lines[-1]) if lines else {
            "error": (proc.stderr.strip().splitlines() or ["?"])[-1][:200]}
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bytecode.json")
    with open(path, "w") as fh:
        json.dump({"mindspore": "2.10.0", "probes": out}, fh, indent=1, sort_keys=True)
        fh.write("\n")


if __name__ == "__main__":
    main()
