"""Building GE graphs: ``GraphBuilder.add`` plus small shape-aware helpers.

``add(op_type, inputs, outputs, **attrs)`` makes one ``GeNode`` from the op's
``IR`` row: it names the ports (``x0, x1, ...`` for a dynamic port), fills the
attributes GE would default, sets ``N`` for ops that count their dynamic
inputs, and checks required attributes. The helpers below it (``reshape``,
``transpose``, ``binary``, ``const`` ...) compute their output shape, so the
converters only state what they mean::

    y = b.binary("Add", b.reshape(x, (2, 1)), b.const(np.ones(3, np.float32)))

A ``GeTensor`` is one node output: ``"node:index"`` plus its dtype and shape.
"""
from __future__ import annotations

import collections
import dataclasses
import re

import numpy as np

from msxla.ge.graph import GeGraph, GeNode, TensorDesc
from msxla.ge.opdefs import REQUIRED, ir

SHAPE_DTYPE = np.dtype(np.int64)   # shape / offsets / perm inputs
AXIS_DTYPE = np.dtype(np.int32)    # scalar axis inputs (ConcatV2, GatherV2, Cumsum)


@dataclasses.dataclass(frozen=True)
class GeTensor:
    ref: str
    dtype: np.dtype
    shape: tuple
    layout: str = "ND"

    @property
    def rank(self):
        return len(self.shape)

    @property
    def size(self):
        return int(np.prod(self.shape, dtype=np.int64))

    def desc(self, name="") -> TensorDesc:
        return TensorDesc(self.dtype, self.shape, self.layout, name)


class Namer:
    """Model-wide unique node and subgraph names."""

    def __init__(self):
        self._counts = collections.Counter()
        self._taken = set()

    def take(self, base: str) -> str:
        base = re.sub(r"[^A-Za-z0-9_./-]", "_", base) or "node"
        name = base
        while name in self._taken:
            name = f"{base}_{self._counts[base]}"
            self._counts[base] += 1
        self._taken.add(name)
        return name

    def node(self, op_type: str) -> str:
        name = f"{op_type}_{self._counts[op_type]}"
        self._counts[op_type] += 1
        while name in self._taken:
            name = f"{op_type}_{self._counts[op_type]}"
            self._counts[op_type] += 1
        self._taken.add(name)
        return name


class GraphBuilder:
    """Appends nodes to one ``GeGraph`` (main graph or subgraph)."""

    def __init__(self, name: str, namer: Namer | None = None):
        self.namer = namer or Namer()
        self.graph = GeGraph(name)
        self._consts: dict = {}
        self._nodes: dict = {}

    def node_of(self, t: "GeTensor"):
        """The node producing ``t`` (None if it is not in this graph)."""
        return self._nodes.get(t.ref.rsplit(":", 1)[0])

    # ------------------------------------------------------------ the core
    def add(self, op_type, inputs=(), outputs=(), attrs=None, subgraphs=(), name=None,
            control=(), layout="ND"):
        """Add a node; ``inputs`` has one entry per declared port (a list for a
        dynamic port, None for an absent optional one); ``outputs`` are
        ``(dtype, shape)`` pairs. Returns the node's outputs as GeTensors."""
        spec = ir(op_type)
        refs, in_desc, counts = [], [], {}
        for (port, optional, dynamic), value in zip(spec.input_ports(), _pad(inputs, spec)):
            if dynamic:
                counts[port] = len(value)
                for k, t in enumerate(value):
                    refs.append(t.ref)
                    in_desc.append(t.desc(f"{port}{k}"))
            elif value is None:
                if not optional:
                    raise ValueError(f"GE op {op_type}: input '{port}' is required")
                refs.append("")
                in_desc.append(TensorDesc(np.float32, (), "ND", port, {"_is_unfed_optional": 1}))
            else:
                refs.append(value.ref)
                in_desc.append(value.desc(port))
        while refs and refs[-1] == "":  # absent optional inputs at the end are omitted
            refs.pop()
            in_desc.pop()
        out_desc = []
        ports = spec.output_ports()
        for k, out in enumerate(outputs):
            dtype, shape = out[0], out[1]
            if ports and ports[-1][1] and k >= len(ports) - 1:
                port = f"{ports[-1][0]}{k - len(ports) + 1}"
            else:
                port = ports[k][0]
            out_desc.append(TensorDesc(dtype, shape, layout, port))
        if op_type in ("Data", "RefData", "Variable") and not refs:
            in_desc = [d.renamed("x") for d in out_desc]  # GE: input desc = output desc
        full = {}
        given = dict(attrs or {})
        for key, default in spec.attrs.items():
            if key in given:
                full[key] = given.pop(key)
            elif key == "N" and counts:
                full[key] = next(iter(counts.values()))
            elif default is REQUIRED:
                raise ValueError(f"GE op {op_type}: attribute '{key}' is required")
            else:
                full[key] = default
        full.update(given)  # extra (meta) attributes
        if layout != "ND":
            for d in in_desc:
                if d.shape and len(d.shape) >= 4 and d.layout == "ND":
                    d.layout = layout
        node = GeNode(name or self.namer.node(op_type), op_type, refs, in_desc, out_desc, full,
                      list(subgraphs), list(control))
        self.graph.nodes.append(node)
        self._nodes[node.name] = node
        return [GeTensor(f"{node.name}:{k}", d.dtype, d.shape, d.layout)
                for k, d in enumerate(out_desc)]

    def add1(self, op_type, inputs, dtype, shape, /, **attrs):
        return self.add(op_type, inputs, [(dtype, shape)], attrs)[0]

    # ------------------------------------------------------------ constants
    def const(self, value, dtype=None) -> GeTensor:
        arr = np.asarray(value, dtype=dtype)
        arr = np.array(arr, order="C")
        key = (str(arr.dtype), arr.shape, arr.tobytes()) if arr.size <= 64 else None
        if key is not None and key in self._consts:
            return self._consts[key]
        t = self.add("Const", [], [(arr.dtype, arr.shape)], {"value": arr})[0]
        if key is not None:
            self._consts[key] = t
        return t

    def shape_const(self, values) -> GeTensor:
        return self.const(np.asarray(list(values), dtype=SHAPE_DTYPE).reshape(-1))

    def axis_const(self, value) -> GeTensor:
        return self.const(np.asarray(value, dtype=AXIS_DTYPE))

    # ------------------------------------------------------- shape helpers
    def reshape(self, x: GeTensor, shape) -> GeTensor:
        shape = tuple(int(d) for d in shape)
        if tuple(x.shape) == shape:
            return x
        return self.add1("Reshape", [x, self.shape_const(shape)], x.dtype, shape)

    def transpose(self, x: GeTensor, perm) -> GeTensor:
        perm = [int(p) for p in perm]
        if perm == list(range(x.rank)):
            return x
        shape = tuple(x.shape[p] for p in perm)
        return self.add1("Transpose", [x, self.shape_const(perm)], x.dtype, shape)

    def broadcast_to(self, x: GeTensor, shape) -> GeTensor:
        shape = tuple(int(d) for d in shape)
        if tuple(x.shape) == shape:
            return x
        return self.add1("BroadcastTo", [x, self.shape_const(shape)], x.dtype, shape)

    def cast(self, x: GeTensor, dtype) -> GeTensor:
        from msxla.ge.dtypes import to_cpp
        dtype = np.dtype(dtype)
        if x.dtype == dtype:
            return x
        return self.add1("Cast", [x], dtype, x.shape, dst_type=to_cpp(dtype))

    def unary(self, op_type, x: GeTensor, dtype=None, **attrs) -> GeTensor:
        return self.add1(op_type, [x], dtype or x.dtype, x.shape, **attrs)

    def binary(self, op_type, x: GeTensor, y: GeTensor, dtype=None) -> GeTensor:
        shape = np.broadcast_shapes(tuple(x.shape), tuple(y.shape))
        return self.add1(op_type, [x, y], dtype or x.dtype, shape)

    def compare(self, op_type, x: GeTensor, y: GeTensor) -> GeTensor:
        return self.binary(op_type, x, y, np.bool_)

    def select(self, cond: GeTensor, a: GeTensor, b: GeTensor) -> GeTensor:
        shape = np.broadcast_shapes(tuple(cond.shape), tuple(a.shape), tuple(b.shape))
        return self.add1("SelectV2", [cond, a, b], a.dtype, shape)

    def clip(self, x: GeTensor, lo, hi) -> GeTensor:
        lo = lo if isinstance(lo, GeTensor) else self.const(np.asarray(lo, x.dtype))
        hi = hi if isinstance(hi, GeTensor) else self.const(np.asarray(hi, x.dtype))
        return self.add1("ClipByValue", [x, lo, hi], x.dtype, x.shape)

    def slice(self, x: GeTensor, offsets, sizes) -> GeTensor:
        offsets, sizes = list(offsets), [int(s) for s in sizes]
        if all(o == 0 for o in offsets) and tuple(sizes) == tuple(x.shape):
            return x
        return self.add1("Slice", [x, self.shape_const(offsets), self.shape_const(sizes)],
                         x.dtype, sizes)

    def concat(self, xs, axis: int) -> GeTensor:
        if len(xs) == 1:
            return xs[0]
        shape = list(xs[0].shape)
        shape[axis] = sum(t.shape[axis] for t in xs)
        return self.add1("ConcatV2", [list(xs), self.axis_const(axis)], xs[0].dtype, shape)

    def pack(self, xs, axis: int = 0) -> GeTensor:
        shape = list(xs[0].shape)
        shape.insert(axis if axis >= 0 else len(shape) + 1 + axis, len(xs))
        return self.add1("Pack", [list(xs)], xs[0].dtype, shape, axis=axis)

    def reduce(self, op_type, x: GeTensor, axes, keep_dims=False) -> GeTensor:
        axes = sorted(int(a) for a in axes)
        if not axes:
            return x
        shape = [1 if i in axes else d for i, d in enumerate(x.shape)] if keep_dims else \
            [d for i, d in enumerate(x.shape) if i not in axes]
        return self.add1(op_type, [x, self.shape_const(axes)], x.dtype, shape,
                         keep_dims=keep_dims)

    def fill(self, value, dtype, shape) -> GeTensor:
        """A constant of ``shape``: a scalar Const broadcast (keeps files small)."""
        scalar = self.const(np.asarray(value, dtype=dtype))
        return self.broadcast_to(scalar, shape)


def _pad(inputs, spec):
    values = list(inputs)
    return values + [None] * (len(spec.inputs) - len(values))
