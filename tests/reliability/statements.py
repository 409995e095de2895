"""Statement generators: the body of a generated program, as source lines.

Every Tensor variable in a body has the program's shape and dtype, so any
statement may use any variable and both sides of a Tensor ``if`` join. A
block (if / while / for body) only rebinds variables that exist before it;
variables it creates stay inside it. ``Ctx`` says what the body may use:
``self`` (a Cell's construct), ``n`` and ``scale`` (the entry's scalar
argument and closure variable), Parameters to read and write, sub-Cells,
plain Tensors from outside (``T0``, ``self.t``), and whether Tensor control
flow and writes (to Parameters, in place) are allowed. Statements change
Tensors in place (arguments, locals, aliases a condition chose, Tensors from
outside), mix in-place changes and rebinding in the branches of a Tensor
``if``, join Parameters with Tensors, define lambdas two to a line and use
the scalar argument as a shape.
"""
from __future__ import annotations

import dataclasses

import hypothesis.strategies as st

import opspool


@dataclasses.dataclass
class Ctx:
    draw: object
    rank: int
    dtype: str
    in_cell: bool = False
    has_n: bool = True
    closure: bool = False
    grad: bool = False          # inside a differentiated program: no Parameter writes
    tensor_cf: bool = True
    helpers: list = dataclasses.field(default_factory=list)   # names of helper functions
    counter: int = 0
    max_depth: int = 2

    def fresh(self, prefix):
        self.counter += 1
        return f"{prefix}{self.counter}"

    def pick(self, options):
        return self.draw(st.sampled_from(options))

    @property
    def axes(self):  # reduce a Tensor to the trailing dimension (the Parameters' shape)
        return "(0,)" if self.rank == 2 else "(0, 1)"

    @property
    def params(self):
        names = ["W0", "W1"]
        if self.in_cell:
            names += ["self.w", "self.sub.w"]
        return names

    @property
    def outside(self):
        """Plain Tensors from outside the function (shape ``(B,)``), changed in place."""
        return ["T0"] + (["self.t"] if self.in_cell else [])

    @property
    def cells(self):
        if not self.in_cell:
            return []
        return ["self.sub", "self.seq"] + (["self.dense"] if self.dtype == "float32" else [])


def scalar(ctx: Ctx, loop_vars=()):
    options = ["0.5", "2", "G0", "1.5"]
    if ctx.has_n:
        options.append("n")
    if ctx.in_cell:
        options.append("self.k")
    if ctx.closure:
        options.append("scale")
    options += list(loop_vars)
    return ctx.pick(options)


def py_condition(ctx: Ctx, loop_vars=()):
    k = ctx.draw(st.integers(0, 3))
    options = [f"G1 > {k}"]
    if ctx.has_n:
        options += [f"n > {k}", "n % 2 == 0"]
    if ctx.in_cell:
        options += ["self.flag", "self.training", f"self.k > {k}"]
    options += [f"{v} > 0" for v in loop_vars]
    return ctx.pick(options)


def tensor_condition(ctx: Ctx, v):
    c = ctx.draw(st.sampled_from(["-0.37", "0.13", "0.61"]))
    red = ctx.pick([f"{v}.sum()", f"{v}.mean()", f"{v}.max()", f"ops.abs({v}).sum()"])
    cond = f"{red} > {c}"
    form = ctx.pick(["plain", "not", "and"] if ctx.has_n else ["plain", "not"])
    if form == "not":
        return f"not ({cond})"
    if form == "and":
        return f"{cond} and n > 0"
    return cond


def indent(lines, n=1):
    return ["    " * n + line for line in lines]


# ----------------------------------------------------------- simple statements
def expression(ctx: Ctx, vs, loop_vars=()):
    """A Tensor expression of the program's shape and dtype."""
    v, w = ctx.pick(vs), ctx.pick(vs)
    kinds = ["unary", "unary", "unary", "binary", "arith", "arith", "reduce", "param",
             "stack", "outside", "lambda"] + ["cell"] * (3 if ctx.cells else 0) + [
        "helper"] * (2 if ctx.helpers else 0) + ["shape"] * ctx.has_n + [
        "float"] * (not ctx.grad)
    kind = ctx.pick(kinds)
    if kind == "unary":
        return ctx.pick(opspool.unary(ctx.grad)).call(v)
    if kind == "binary":
        return ctx.pick(opspool.binary(ctx.grad)).call(v, w)
    if kind == "arith":
        s = scalar(ctx, loop_vars)
        return ctx.pick([f"{v} + {w}", f"{v} - {w}", f"{v} * ops.tanh({w})", f"{v} * {s}",
                         f"{v} + {s}", f"{s} - {v}", f"-{v}", f"{v} / 2"])
    if kind == "reduce":
        return ctx.pick([f"{v} - {v}.mean()", f"{v} * ops.tanh({v}.sum())",
                         f"{v} / (ops.abs({v}).sum(axis=-1, keepdims=True) + 1.0)",
                         f"{v} * ops.tanh({v}.max())"])
    if kind == "param":
        p = ctx.pick(ctx.params)
        return ctx.pick([f"{v} * {p}", f"{v} + {p}", f"ops.tanh({p}) - {v}"])
    if kind == "cell" and ctx.cells:
        return f"{ctx.pick(ctx.cells)}({v})"
    if kind == "helper" and ctx.helpers:
        return f"{ctx.pick(ctx.helpers)}({v}, {w})"
    if kind == "stack":
        return f"ops.stack([{v}, {w}]).mean(0)"
    if kind == "outside":
        return ctx.pick([f"{v} * {o}" for o in ctx.outside] + [f"{v} - {o}" for o in ctx.outside])
    if kind == "lambda":  # two lambdas on one line (module level)
        return ctx.pick([f"L1({v})", f"L0({v})"])
    if kind == "shape":  # the scalar argument as a shape
        return ctx.pick([f"{v} * ops.ones((n + 1, B)).mean(0)", f"{v} + ops.zeros((n, B)).sum(0)",
                         f"{v} + ops.tile(ops.ones((1, B)), (n + 1, 1)).sum(0) * 0.1"])
    if kind == "float":  # float() of a graph Tensor promotes like a Python float
        return ctx.pick([f"{v} * float({w}.mean())",
                         f"({v}.astype(ms.float16) * float(ops.tanh({w}).mean())).astype(DT)"])
    return ctx.pick(opspool.unary(ctx.grad)).call(v)


def param_write(ctx: Ctx, vs):
    p, v = ctx.pick(ctx.params), ctx.pick(vs)
    if ctx.draw(st.integers(0, 3)) == 0:  # a Parameter of another shape
        return [f"ops.assign_add(W2, ops.zeros_like(W2) + ops.tanh({v}).mean() * 0.1)"]
    return [ctx.pick([f"ops.assign_add({p}, ops.tanh({v}).mean(axis={ctx.axes}) * 0.1)",
                      f"ops.assign({p}, ops.tanh({p} + {v}.mean(axis={ctx.axes})))",
                      f"ops.assign_sub({p}, ops.sin({v}).mean(axis={ctx.axes}) * 0.05)"])]


def container(ctx: Ctx, vs, target):
    v, w = ctx.pick(vs), ctx.pick(vs)
    form = ctx.pick(["list", "dict", "tuple"])
    if form == "list":
        name = ctx.fresh("lst")
        return [f"{name} = [{v}]", f"{name}.append({w} * 0.5)",
                f"{target} = {name}[0] + {name}[-1]"]
    if form == "dict":
        name = ctx.fresh("dct")
        return [f"{name} = {{'u': {v}, 'v': {w}}}", f"{name}['w'] = {name}['u'] + 1.0",
                f"{target} = {name}['w'] - {name}['v']"]
    name = ctx.fresh("tup")
    return [f"{name} = ({v}, {w})", f"{target} = {name}[0] * 0.5 + {name}[1]"]


def in_place(ctx: Ctx, vs):
    """An in-place change of a variable (an argument, a local or an alias) or of a
    Tensor from outside the function."""
    v, w = ctx.pick(vs), ctx.pick(vs)
    if ctx.draw(st.integers(0, 3)) == 0:
        o = ctx.pick(ctx.outside)
        return ctx.pick([f"{o}.add_(ops.tanh({w}).mean(axis={ctx.axes}) * 0.1)",
                         f"{o}[0] = {o}[0] * 0.5 + 0.25",
                         f"ops.assign({o}, ops.sin({o} + {w}.mean(axis={ctx.axes})))"])
    return ctx.pick([f"{v}.add_({w} * 0.25)", f"{v}.mul_(0.5)", f"{v}[0] = {w}[0] * 0.5",
                     f"ops.assign({v}, ops.tanh({w}))"])


def alias(ctx: Ctx, vs, target):
    """A variable made an alias of one of two Tensors (by a Python or a Tensor
    condition), then changed in place: the chosen Tensor changes."""
    v, w = ctx.pick(vs), ctx.pick(vs)
    cond = (tensor_condition(ctx, ctx.pick(vs)) if ctx.tensor_cf and ctx.draw(st.booleans())
            else py_condition(ctx))
    form = ctx.pick(["ternary", "if", "rebind"])
    if form == "ternary":
        lines = [f"{target} = {v} if {cond} else {w}"]
    elif form == "if":
        lines = [f"if {cond}:", f"    {target} = {v}", "else:", f"    {target} = {w}"]
    else:
        lines = [f"{target} = {v}", f"if {cond}:", f"    {target} = {w}"]
    return lines + [ctx.pick([f"{target}.add_(0.5)", f"{target}[0] = {target}[-1] * 2",
                              f"ops.assign({target}, {target} * 0.5)"])]


def mixed_if(ctx: Ctx, vs, loop_vars):
    """A Tensor ``if`` that changes a variable in place on one side and rebinds it on
    the other."""
    v = ctx.pick(vs)
    rebind = [f"{v} = {expression(ctx, vs, loop_vars)}"]
    change = [in_place(ctx, [v])]
    first, second = (rebind, change) if ctx.draw(st.booleans()) else (change, rebind)
    return ([f"if {tensor_condition(ctx, ctx.pick(vs))}:"] + indent(first) + ["else:"]
            + indent(second) + [f"{v} = {v} + 0.0"])


def parameter_join(ctx: Ctx, vs, target):
    """A variable that is a Parameter on one path and a Tensor (or another
    Parameter) on the other."""
    v, p, q = ctx.pick(vs), ctx.pick(ctx.params), ctx.pick(ctx.params)
    cond = tensor_condition(ctx, ctx.pick(vs)) if ctx.tensor_cf else py_condition(ctx)
    j = ctx.fresh("pj")
    if ctx.draw(st.booleans()):
        lines = [f"{j} = {p}", f"if {cond}:", f"    {j} = ops.tanh({v}.mean(axis={ctx.axes}))"]
    else:
        lines = [f"{j} = {p} if {cond} else {q}"]
        if not ctx.grad:
            lines.append(f"{j}.add_(0.125)")
    return lines + [f"{target} = {v} * {j} + 1.0"]


def lambdas(ctx: Ctx, vs, target, loop_vars):
    fa, fb = ctx.fresh("fa"), ctx.fresh("fb")
    s, s2 = scalar(ctx, loop_vars), scalar(ctx, loop_vars)
    return [f"{fa}, {fb} = (lambda z: z * {s}), (lambda z: ops.tanh(z) + {s2})",
            f"{target} = {ctx.pick([fa, fb])}({ctx.pick(vs)})"]


def closure(ctx: Ctx, vs, target, loop_vars):
    name, captured = ctx.fresh("inner"), ctx.pick(vs)
    s = scalar(ctx, loop_vars)
    lines = []
    if not ctx.grad and ctx.draw(st.booleans()):  # over a copy of an outside Tensor, changed
        captured = ctx.fresh("copy")
        lines = [f"{captured} = {ctx.pick(ctx.outside)}.copy()", f"{captured}.add_(0.25)"]
    return lines + [f"def {name}(z):", f"    return z * {s} + {captured}",
                    f"{target} = {name}({ctx.pick(vs)})"]


# ---------------------------------------------------------------- statements
def statement(ctx: Ctx, vs, depth, loop_vars=()):
    """(lines, new variable or None)."""
    kinds = ["assign"] * 5 + ["augassign", "container", "closure", "lambdas", "param_join"]
    if not ctx.grad:
        kinds += ["param_write"] * 2 + ["in_place"] * 2 + ["alias"] * 2
        if ctx.tensor_cf and depth < ctx.max_depth:
            kinds += ["mixed_if"]
    if depth < ctx.max_depth:
        kinds += ["py_if", "py_for", "py_for", "py_while", "tensor_for"]
        if ctx.tensor_cf:
            kinds += ["tensor_if", "tensor_if", "tensor_while", "tensor_break"]
    kind = ctx.pick(kinds)
    new = depth == 0 and ctx.draw(st.booleans())
    target = ctx.fresh("t") if new else ctx.pick(vs)
    if kind == "assign":
        return [f"{target} = {expression(ctx, vs, loop_vars)}"], target if new else None
    if kind == "augassign":
        old = ctx.pick(vs)
        op = ctx.pick(["+=", "-=", "*="])
        rhs = f"ops.tanh({ctx.pick(vs)})" if op == "*=" else expression(ctx, vs, loop_vars)
        return [f"{old} {op} {rhs}"], None
    if kind == "container":
        return container(ctx, vs, target), target if new else None
    if kind == "closure":
        return closure(ctx, vs, target, loop_vars), target if new else None
    if kind == "param_write":
        return param_write(ctx, vs), None
    if kind == "in_place":
        return [in_place(ctx, vs)], None
    if kind == "alias":
        return alias(ctx, vs, target), target if new else None
    if kind == "mixed_if":
        return mixed_if(ctx, vs, loop_vars), None
    if kind == "param_join":
        return parameter_join(ctx, vs, target), target if new else None
    if kind == "lambdas":
        return lambdas(ctx, vs, target, loop_vars), target if new else None
    return compound(ctx, kind, vs, depth, loop_vars), None


def block(ctx: Ctx, vs, depth, loop_vars=(), min_size=1, max_size=3):
    lines, local = [], list(vs)
    for _ in range(ctx.draw(st.integers(min_size, max_size))):
        more, new = statement(ctx, local, depth, loop_vars)
        lines += more
        if new:
            local.append(new)
    return lines


def compound(ctx: Ctx, kind, vs, depth, loop_vars):
    d = depth + 1
    if kind == "py_if":
        lines = [f"if {py_condition(ctx, loop_vars)}:"] + indent(block(ctx, vs, d, loop_vars))
        if ctx.draw(st.booleans()):
            lines += ["else:"] + indent(block(ctx, vs, d, loop_vars))
        return lines
    if kind == "tensor_if":
        lines = [f"if {tensor_condition(ctx, ctx.pick(vs))}:"]
        lines += indent(block(ctx, vs, d, loop_vars))
        if ctx.draw(st.booleans()):
            lines += ["else:"] + indent(block(ctx, vs, d, loop_vars))
        return lines
    if kind == "py_for":
        form = ctx.pick(["range", "range", "tensors", "enumerate"]
                        + (["cells", "cells"] if ctx.in_cell else []))
        if form == "cells":
            v = ctx.pick(vs)
            cell = ctx.fresh("cell")
            return [f"for {cell} in self.layers:", f"    {v} = {cell}({v})"]
        i = ctx.fresh("i")
        if form == "range":
            bound = ctx.pick(["2", "3"] + (["n"] if ctx.has_n else []))
            return [f"for {i} in range({bound}):"] + indent(block(ctx, vs, d, (*loop_vars, i)))
        item, v = ctx.fresh("item"), ctx.pick(vs)
        pair = f"({ctx.pick(vs)}, {ctx.pick(vs)})"
        head = (f"for {item} in {pair}:" if form == "tensors"
                else f"for {i}, {item} in enumerate([{ctx.pick(vs)}, {ctx.pick(vs)}]):")
        first = f"{v} = {v} + {item} * 0.5" if form == "tensors" else f"{v} = {v} + {item} * {i}"
        extra = (i,) if form == "enumerate" else ()
        return [head, "    " + first] + indent(block(ctx, vs, d, (*loop_vars, *extra), 0, 2))
    if kind == "py_while":
        k = ctx.fresh("k")
        bound = ctx.pick(["2", "3"] + (["n"] if ctx.has_n else []))
        body = block(ctx, vs, d, (*loop_vars, k)) + [f"{k} += 1"]
        return [f"{k} = 0", f"while {k} < {bound}:"] + indent(body)
    if kind == "tensor_while":
        v, w = ctx.pick(vs), ctx.pick(vs)
        limit = ctx.pick(["5.0", "20.0"])
        lines = [f"while ops.abs({v}).sum() < {limit}:", f"    {v} = ops.abs({v}) * 1.5 + 0.5"]
        if w != v and ctx.draw(st.booleans()):
            lines.append(f"    {w} = ops.sin({w} + {v})")
        return lines
    if kind == "tensor_break":  # what the loop carries may be read by nothing after it
        i, v = ctx.fresh("i"), ctx.pick(vs)
        jump = ctx.pick(["break", "continue"])
        return ([f"for {i} in range({ctx.pick(['2', '3'])}):",
                 f"    if {tensor_condition(ctx, ctx.pick(vs))}:", f"        {jump}"]
                + indent(block(ctx, vs, d, (*loop_vars, i), 1, 2)))
    if kind == "tensor_for":
        v, w, row = ctx.pick(vs), ctx.pick(vs), ctx.fresh("row")
        op = ctx.pick(["ops.tanh", "ops.sigmoid", "ops.sin"])
        return [f"for {row} in {v}:", f"    {w} = {w} + {op}({row})"]
    raise AssertionError(kind)
