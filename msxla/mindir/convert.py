"""StableHLO module -> MindIR graph: the walk that drives the converters.

The entry function's arguments become the graph's inputs, then its
Parameters (MindIR parameters holding their values); its first ``n_outs``
results become the graph's output (one value, or a MakeTuple shaped like
the function's return value). Each op is handed to the converter registered
for its name (``registry.py``); ``func.call`` is inlined. The StableHLO
parsing is ``msxla.ge.parse`` (shared with the GE converter).

Two values are kept lazy so the graph stays close to what MindSpore writes:
a ``broadcast_in_dim`` is only materialised (``BroadcastTo``) where its
consumer does not broadcast by itself (element-wise ops do, as numpy), and
constants that StableHLO reshapes, broadcasts, converts or builds with
``iota`` are folded into one Constant node.
"""
from __future__ import annotations

import dataclasses

import numpy as np

from msxla.capture.values import Seq, TensorLeaf, describe_kind
from msxla.ge import parse
from msxla.mindir.builder import Builder, MValue
from msxla.mindir.registry import CONVERTERS, export_error, load_all


@dataclasses.dataclass(frozen=True, eq=False)
class Lazy:
    """``src`` (reshaped to the target's rank) broadcast to ``shape``, not yet written."""

    src: MValue
    shape: tuple

    @property
    def dtype(self):
        return self.src.dtype

    @property
    def rank(self):
        return len(self.shape)


class Context:
    """What a converter sees: the builder, the value map and small emitting helpers."""

    def __init__(self, funcs, builder: Builder):
        self.funcs = funcs
        self.b = builder
        self.env: dict = {}
        self.locs: list = []
        self._materialised: dict = {}

    # ------------------------------------------------------------- values
    def get(self, value) -> MValue:
        v = self.env[value]
        return self.materialise(v) if isinstance(v, Lazy) else v

    def get_lazy(self, value):
        return self.env[value]

    def inputs(self, op) -> list:
        return [self.get(v) for v in op.operands]

    def materialise(self, v: Lazy) -> MValue:
        found = self._materialised.get(id(v))
        if found is None:
            found = self._materialised[id(v)] = (v, self._broadcast_to(v.src, v.shape))
        return found[1]

    def _broadcast_to(self, x: MValue, shape) -> MValue:
        shape = tuple(int(d) for d in shape)
        if x.const is not None and np.prod(shape, dtype=np.int64) <= 64:
            return self.b.const(np.broadcast_to(x.const, shape).copy())
        return self.b.fn("BroadcastTo", x, out_shape=shape, shape=shape)

    # ------------------------------------------------------------ helpers
    def reshape(self, x: MValue, shape) -> MValue:
        shape = tuple(int(d) for d in shape)
        if tuple(x.shape) == shape:
            return x
        if x.const is not None:
            return self.b.const(x.const.reshape(shape))
        return self.b.fn("Reshape", x, shape, out_shape=shape)

    def transpose(self, x: MValue, perm) -> MValue:
        perm = tuple(int(p) for p in perm)
        if perm == tuple(range(x.rank)):
            return x
        shape = tuple(x.shape[p] for p in perm)
        if x.const is not None:
            return self.b.const(np.transpose(x.const, perm).copy())
        return self.b.fn("Transpose", x, perm, out_shape=shape)

    def cast(self, x: MValue, dtype) -> MValue:
        dtype = np.dtype(dtype)
        if x.dtype == dtype:
            return x
        if x.const is not None:
            return self.b.const(x.const.astype(dtype))
        return self.b.fn("Cast", x, _ms_dtype(dtype), out_dtype=dtype)

    def broadcast(self, x: MValue, shape) -> MValue:
        """``x`` (rank-aligned) broadcast to ``shape``, written out."""
        if tuple(x.shape) == tuple(shape):
            return x
        return self._broadcast_to(x, shape)

    def slice(self, x: MValue, begin, end, strides=None) -> MValue:
        strides = tuple(strides or (1,) * x.rank)
        begin, end = tuple(int(b) for b in begin), tuple(int(e) for e in end)
        if begin == (0,) * x.rank and end == tuple(x.shape) and strides == (1,) * x.rank:
            return x
        shape = tuple(max(0, -(-(e - b) // s)) for b, e, s in zip(begin, end, strides))
        if x.const is not None:
            sl = tuple(slice(b, e, s) for b, e, s in zip(begin, end, strides))
            return self.b.const(x.const[sl].copy())
        return self.b.fn("StridedSlice", x, begin, end, strides, out_shape=shape)

    def concat(self, parts, axis: int) -> MValue:
        if len(parts) == 1:
            return parts[0]
        shape = list(parts[0].shape)
        shape[axis] = sum(p.shape[axis] for p in parts)
        items = self.b.make_tuple(parts)
        return self.b.fn("Concat", items, axis=axis, out_shape=tuple(shape),
                         out_dtype=parts[0].dtype)

    # ------------------------------------------------------------ errors
    def loc(self, op):
        return parse.location(op) or (self.locs[-1] if self.locs else None)

    def error(self, op, message, hint=None):
        return export_error(f"For 'export' to MINDIR, {message}", self.loc(op), hint)

    def unsupported(self, op, detail=""):
        what = f"'{parse.op_label(op)}'" + (f" {detail}" if detail else "")
        return self.error(op, f"{what} has no MindSpore operator in msxla's MindIR export.",
                          "Export with file_format='AIR' or 'STABLEHLO', or avoid the op that "
                          "produces it.")

    # ------------------------------------------------------------ blocks
    def run_block(self, block, args) -> list:
        for barg, v in zip(block.arguments, args):
            self.env[barg] = v
        for view in block.operations:
            op = view.operation
            if op.name in ("func.return", "stablehlo.return"):
                return [self.env[v] for v in op.operands]
            self.convert_op(op)
        return []

    def convert_op(self, op):
        if op.name == "func.call":
            callee = op.attributes["callee"].value
            loc = parse.location(op)
            if loc is not None:
                self.locs.append(loc)
            try:
                outs = self.run_block(parse.entry_block(self.funcs[callee]),
                                      [self.env[v] for v in op.operands])
            finally:
                if loc is not None:
                    self.locs.pop()
        else:
            conv = CONVERTERS.get(parse.op_label(op)) or CONVERTERS.get(op.name)
            if conv is None:
                raise self.unsupported(op)
            outs = conv(self, op)
        for r, v in zip(op.results, outs):
            self.env[r] = v


def _ms_dtype(dtype):
    from msxla.common import dtype as mstype
    return mstype.from_np(np.dtype(dtype))


def convert_module(module, name: str, n_args: int, params, n_outs: int, out_spec=None):
    """A MindIR ``ModelProto`` from a StableHLO module whose entry function takes
    ``n_args`` inputs and then ``params`` (``[(name, numpy value)]``)."""
    load_all()
    with module.context:
        funcs = parse.functions(module)
        block = parse.entry_block(funcs["main"])
        b = Builder(name)
        ctx = Context(funcs, b)
        feeds = []
        for i, a in enumerate(block.arguments):
            shape, dtype = parse.value_type(a)
            if i < n_args:
                feeds.append(b.input(shape, dtype, name=f"x{i}" if n_args > 1 else "x"))
            else:
                key, value = params[i - n_args]
                feeds.append(b.parameter(key, np.asarray(value, dtype)))
        with np.errstate(all="ignore"):
            results = ctx.run_block(block, feeds)[:n_outs]
        results = [ctx.materialise(r) if isinstance(r, Lazy) else r for r in results]
        b.output(_outputs(b, results, out_spec))
        return b.model


def _outputs(b, results, spec):
    """The graph output: the one result, or MakeTuples shaped like the return value."""
    if spec is None:
        return results[0] if len(results) == 1 else b.make_tuple(results)
    it = iter(results)

    def build(node):
        if isinstance(node, TensorLeaf):
            return next(it)
        if isinstance(node, Seq):
            return b.make_tuple([build(c) for c in node.children])
        raise ValueError(f"export to MINDIR: outputs of kind {describe_kind(node)} are not "
                         "supported")
    return build(spec)
