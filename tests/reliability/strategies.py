"""Hypothesis strategies for random small MindSpore programs (the differential
check's generator).

``programs()`` draws a ``Program``: a module whose entry is one of

- ``function``: a module-level function, or one made by a factory so that it
  closes over ``scale`` (rebound between calls);
- ``cell``: a Cell whose ``construct`` reads attributes (``k``, ``flag``,
  ``training``), Parameters and sub-Cells (a custom Cell, a Dense layer, a
  SequentialCell, a CellList it loops over);
- ``train``: a training step, ``value_and_grad`` of such a Cell followed by an
  optimizer (SGD, Momentum or Adam) updating its Parameters;
- ``grad``: ``value_and_grad`` of a function over its inputs and global
  Parameters, with jit applied outside or inside the gradient,

and a plan of 2 to 5 calls that change the inputs (values and leading
dimension), the scalar argument, globals, Cell attributes, the closure and
Parameters between calls. Bodies come from ``statements.py``; helper
functions (sometimes jitted themselves, sometimes rebinding the global Tensor
``R0``) come with them.
"""
from __future__ import annotations

import hypothesis.strategies as st

from program import Call, Program
from statements import Ctx, block, indent, statement

KINDS = ("function", "cell", "train", "grad")

HEADER = '''"""Generated program."""
import numpy as np

import msxla as ms
from msxla import Parameter, Tensor, nn, ops

DT = "{dtype}"
B = {b}
G0 = 0.5
G1 = 1
NET = None
SET_SCALE = None


def _init(seed, shape):
    return Tensor(np.random.default_rng(seed).standard_normal(shape).astype(DT))


W0 = Parameter(_init(100, (B,)), name="W0")
W1 = Parameter(_init(101, (B,)), name="W1")
W2 = Parameter(_init(103, (B + 1,)), name="W2")
T0 = _init(102, (B,))
R0 = _init(104, (B,))
L0, L1 = (lambda z: z * 0.5 + G0), (lambda z: ops.tanh(z) - G0)


def state():
    out = {{"W0": W0, "W1": W1, "W2": W2, "T0": T0, "R0": R0}}
    if NET is not None:
        out.update({{"NET." + k: p for k, p in NET.parameters_and_names()}})
        out["NET.t"] = NET.t
    return out
'''

CELLS = '''

class Sub(nn.Cell):
    def __init__(self, seed):
        super().__init__()
        self.w = Parameter(_init(seed, (B,)), name="w")
        self.k = 0.5

    def construct(self, u):
        return ops.tanh(u * self.w) + self.k


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.k = 1.0
        self.flag = True
        self.t = _init(18, (B,))
        self.w = Parameter(_init(11, (B,)), name="w")
        self.sub = Sub(12)
        self.layers = nn.CellList([Sub(13), Sub(14)])
        self.seq = nn.SequentialCell([Sub(15), nn.Tanh()])
{dense}
    def construct(self, x, y, n, c):
{body}
'''

DENSE = ("        self.dense = nn.Dense(B, B, weight_init=_init(16, (B, B)),\n"
         "                              bias_init=_init(17, (B,)))\n")

OPTIMIZERS = {
    "SGD": "nn.SGD(NET.trainable_params(), learning_rate=0.05)",
    "Momentum": "nn.Momentum(NET.trainable_params(), learning_rate=0.05, momentum=0.9)",
    "Adam": "nn.Adam(NET.trainable_params(), learning_rate=0.05)",
}


def _unpack(container):
    if container == "dict":
        return ["a = c['p']", "b = c['q']"]
    return ["a, b = c"]


def _returns(ctx: Ctx, vs, last, scalar_loss):
    if scalar_loss:
        other = ctx.pick(vs)
        return [f"return ({last} * {last}).mean() + ops.tanh({other}).sum() * 0.1"]
    other = ctx.pick(vs)
    forms = [f"return {last}", f"return {last}, {other}.sum()",
             f"return {{'out': {last}, 'aux': [{other}, G1]}}", f"return [{last}, None]"]
    if ctx.has_n:
        forms.append(f"return ({last}, n)")
    return [ctx.pick(forms)]


def _body(ctx: Ctx, container, scalar_loss):
    vs = ["x", "y", "a", "b"]
    lines = _unpack(container)
    local, last = list(vs), "x"
    for _ in range(ctx.draw(st.integers(2, 6))):
        more, new = statement(ctx, local, 0)
        lines += more
        if new:
            local.append(new)
            last = new
    if last == "x":
        lines.append("t0 = x + y")
        last = "t0"
    return lines + _returns(ctx, local, last, scalar_loss)


def _helpers(draw, rank, dtype, tensor_cf, grad, count):
    """``(sources, names, names of the helpers that rebind R0)``."""
    sources, names, rebinding = [], [], []
    for i in range(count):
        ctx = Ctx(draw, rank, dtype, has_n=False, grad=grad, tensor_cf=tensor_cf, max_depth=1)
        body = block(ctx, ["u", "v"], 0, min_size=1, max_size=3)
        if not grad and draw(st.integers(0, 3)) == 0:  # the helper rebinds a global Tensor
            body = ["global R0", "R0 = R0 * 0.5 + ops.tanh(v).mean()"] + body
            rebinding.append(f"helper{i}")
        sources.append(f"\n\ndef _helper{i}(u, v):\n" + "\n".join(indent(body))
                       + "\n    return u + v\n")
        sources[-1] = sources[-1].replace("return u + v", ctx.pick(["return u + v",
                                                                     "return u * ops.tanh(v)"]))
        sources[-1] += f"\n\nhelper{i} = _helper{i}\n"
        names.append(f"helper{i}")
    return sources, names, rebinding


@st.composite
def programs(draw, kinds=KINDS, tensor_cf=None):
    kind = draw(st.sampled_from(kinds))
    dtype = draw(st.sampled_from(["float32", "float32", "float64"]))
    rank = draw(st.sampled_from([2, 2, 3]))
    b = draw(st.sampled_from([2, 3, 4]))
    container = draw(st.sampled_from(["tuple", "list", "dict"]))
    cf = draw(st.booleans()) if tensor_cf is None else tensor_cf
    grad = kind in ("train", "grad")
    helper_src, helpers, rebinding = _helpers(draw, rank, dtype, cf, grad,
                                              draw(st.integers(0, 2)))
    nested_jit = bool(helpers) and draw(st.booleans())
    closure = kind in ("function", "grad") and draw(st.booleans())
    in_cell = kind in ("cell", "train")
    ctx = Ctx(draw, rank, dtype, in_cell=in_cell, closure=closure, grad=grad, tensor_cf=cf,
              helpers=helpers)
    body = _body(ctx, container, scalar_loss=grad)
    unpacked = len(_unpack(container))
    body[unpacked:unpacked] = [f"y = {h}(y, x)" for h in rebinding]  # called: the rebind runs
    source = HEADER.format(dtype=dtype, b=b) + "".join(helper_src)
    if in_cell:
        source += CELLS.format(dense=DENSE if dtype == "float32" else "",
                               body="\n".join(indent(body, 2)))
    elif closure:
        source += ("\n\ndef make_prog():\n    scale = 1.0\n\n    def prog(x, y, n, c):\n"
                   + "\n".join(indent(body, 2)) + "\n\n    def set_scale(v):\n"
                   "        nonlocal scale\n        scale = v\n\n    return prog, set_scale\n")
    else:
        source += "\n\ndef prog(x, y, n, c):\n" + "\n".join(indent(body)) + "\n"
    source += _make_entry(draw, kind, closure, helpers if nested_jit else ())
    calls = draw(call_plans(rank, b, kind, closure))
    return Program(source, tuple(calls), dtype, container)


def _make_entry(draw, kind, closure, jitted_helpers):
    lines = ["", "", "def make_entry(jit):", "    global NET, SET_SCALE"]
    lines += [f"    global {h}\n    {h} = jit(_{h})" for h in jitted_helpers]
    if closure:
        lines.append("    prog, SET_SCALE = make_prog()")
    if kind == "cell":
        lines += ["    NET = Net()", "    return jit(NET)"]
    elif kind == "function":
        lines.append("    return jit(prog)")
    elif kind == "train":
        opt = draw(st.sampled_from(sorted(OPTIMIZERS)))
        inputs = draw(st.booleans())
        lines += ["    NET = Net()", f"    opt = {OPTIMIZERS[opt]}",
                  f"    grad_fn = ms.value_and_grad(NET, {'(0, 1)' if inputs else 'None'}, "
                  "opt.parameters)", "", "    def train_step(x, y, n, c):",
                  "        loss, grads = grad_fn(x, y, n, c)",
                  f"        opt(grads{'[1]' if inputs else ''})",
                  "        return loss, grads", "", "    return jit(train_step)"]
    else:
        where = draw(st.sampled_from(["outside", "inside"]))
        if where == "outside":
            lines.append("    return jit(ms.value_and_grad(prog, (0, 1), [W0, W1]))")
        else:
            lines.append("    return ms.value_and_grad(jit(prog), (0, 1), [W0, W1])")
    return "\n".join(lines) + "\n"


@st.composite
def call_plans(draw, rank, b, kind, closure):
    lead = (draw(st.integers(1, 3)),) + ((2,) if rank == 3 else ())
    first = Call(lead + (b,), draw(st.integers(0, 10**6)), draw(st.integers(0, 3)))
    calls = [first]
    options = ["same", "seed", "shape", "n", "G0", "G1", "W0"]
    if kind in ("cell", "train"):
        options += ["k", "flag", "train", "NET.w"]
    if closure:
        options.append("scale")
    for _ in range(draw(st.integers(1, 4))):
        prev = calls[-1]
        what = draw(st.lists(st.sampled_from(options), min_size=1, max_size=3, unique=True))
        if "same" in what:
            calls.append(prev)
            continue
        shape, n, changes = prev.shape, prev.n, []
        if "shape" in what:
            shape = (draw(st.integers(1, 3)),) + shape[1:]
        if "n" in what:
            n = draw(st.integers(0, 3))
        if "G0" in what:
            changes.append(("global", "G0", draw(st.sampled_from([-1.5, 0.5, 2.0]))))
        if "G1" in what:
            changes.append(("global", "G1", draw(st.integers(0, 3))))
        if "k" in what:
            changes.append(("attr", "k", draw(st.sampled_from([-1.0, 0.5, 2.5]))))
        if "flag" in what:
            changes.append(("attr", "flag", draw(st.booleans())))
        if "train" in what:
            changes.append(("train", draw(st.booleans())))
        if "scale" in what:
            changes.append(("closure", draw(st.sampled_from([-2.0, 0.25, 3.0]))))
        for p in ("W0", "NET.w"):
            if p in what:
                changes.append(("param", p, draw(st.integers(0, 1000))))
        calls.append(Call(shape, draw(st.integers(0, 10**6)), n, tuple(changes)))
    return calls
