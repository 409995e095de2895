"""Writing a MindIR graph: nodes of MindSpore primitives, in the form MindSpore 2.10 writes.

    b = Builder("net")
    x = b.input((2, 3), np.float32)
    w = b.parameter("fc.weight", weight)
    y = b.fn("MatMul", x, w, transpose_b=True)         # a primitive function
    z = b.old("MaxPool", [y4], {"kernel_size": ...})   # an old-style primitive
    b.output([z]);  data = b.model.SerializeToString()

``fn`` lays the arguments out as MindSpore's operator definition orders them
(``optable.layout``): positional arguments first, then the constructor's
attributes from keywords or their defaults; enum strings become integers and
dtypes type ids, as MindSpore stores them. Python values become Constant
nodes. Each result is an ``MValue`` (its node name, shape and dtype, and the
value itself when it is a constant); every node carries its abstract
(``shape``), and each distinct primitive is listed once in the model.
"""
from __future__ import annotations

import dataclasses

import numpy as np

from msxla.mindir import optable, values
from msxla.mindir.schema import pb

IR_VERSION = "1.1"
PRODUCER = "MindSpore"       # the loader checks nothing else; msxla is named in doc_string
MODEL_VERSION = "2.10.0"
MIND_IR_VERSION = 3


@dataclasses.dataclass(frozen=True, eq=False)
class MValue:
    """One value of the graph being written."""

    name: str
    shape: tuple
    dtype: np.dtype
    const: np.ndarray | None = None

    @property
    def rank(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int:
        return int(np.prod(self.shape, dtype=np.int64))


class Builder:
    def __init__(self, name: str):
        self.model = pb.ModelProto(ir_version=IR_VERSION, producer_name=PRODUCER,
                                   model_version=MODEL_VERSION, little_endian=True,
                                   mind_ir_version=MIND_IR_VERSION,
                                   doc_string="written by msxla")
        self.graph = self.model.graph
        self.graph.name = name
        self._count = 0
        self._prims: dict = {}
        self._consts: dict = {}

    def _name(self, base: str) -> str:
        self._count += 1
        return f"{self.graph.name}:{base}_{self._count}"

    # ------------------------------------------------------------- leaves
    def input(self, shape, dtype, name: str | None = None) -> MValue:
        i = self.graph.input.add()
        i.name = self._name(name or "input")
        values.fill_abstract(i.tensor.add(), shape, dtype)
        return MValue(i.name, tuple(shape), np.dtype(dtype))

    def parameter(self, key: str, value: np.ndarray) -> MValue:
        value = np.asarray(value)
        p = self.graph.parameter.add()
        values.fill_tensor(p, value, name=f"{self.graph.name}:{key}")
        p.ref_key = key
        p.compression_type = pb.TensorProto.NO_COMPRESSION
        return MValue(p.name, value.shape, value.dtype)

    def const(self, value) -> MValue:
        """A tensor constant (numpy array or numpy scalar), shared between uses."""
        value = np.asarray(value)
        key = (value.dtype.str, value.shape, value.tobytes())
        found = self._consts.get(key)
        if found is None:
            found = MValue(self._value_node("Tensor", value), value.shape, value.dtype, value)
            self._consts[key] = found
        return found

    def _value_node(self, base, value) -> str:
        n = self.graph.node.add()
        name = self._name(base)
        n.name = name
        n.output.append(name)
        n.op_type = "Constant"
        a = n.attribute.add()
        a.name = "value"
        values.encode(a, value)
        return name

    def scalar(self, value) -> str:
        """A non-tensor constant (bool, int, float, str, tuple, None), shared between uses."""
        key = ("scalar", _freeze(value))
        found = self._consts.get(key)
        if found is None:
            found = self._consts[key] = self._value_node("Value", value)
        return found

    # -------------------------------------------------------------- nodes
    def _prim(self, op, function: bool, attrs=None) -> str:
        attrs = dict(attrs or {})
        key = (op, function, _freeze(sorted(attrs.items())))
        name = self._prims.get(key)
        if name is None:
            name = f"{op}:{len(self._prims) + 1}"
            p = self.model.primitives.add()
            p.name, p.op_type, p.instance_name = name, op, ""
            p.prim_type = (pb.PrimitiveProto.PRIMITIVE_FUNCTION if function
                           else pb.PrimitiveProto.PRIMITIVE)
            for k, v in attrs.items():
                a = p.attribute.add()
                a.name = k
                values.encode(a, v)
            self._prims[key] = name
        return name

    def node(self, op, inputs, shape, dtype, function=True, attrs=None, outputs=None) -> MValue:
        """A node of primitive ``op``; ``inputs`` are MValues or node names.
        ``outputs``: for a tuple-valued node, the (shape, dtype) of each element."""
        n = self.graph.node.add()
        name = self._name(op)
        n.name = name
        n.output.append(name)
        n.op_type = f"REF::{self._prim(op, function, attrs)}"
        n.input.extend(v.name if isinstance(v, MValue) else v for v in inputs)
        a = n.attribute.add()
        a.name = "shape"
        if outputs is None:
            a.type = pb.AttributeProto.TENSORS
            values.fill_abstract(a.tensors.add(), shape, dtype)
        else:
            a.type = pb.AttributeProto.TUPLE
            for s, d in outputs:
                e = a.values.add()
                e.type = pb.AttributeProto.TENSORS
                values.fill_abstract(e.tensors.add(), s, d)
        return MValue(name, tuple(int(d) for d in shape), np.dtype(dtype))

    def fn(self, op, *args, out_shape=None, out_dtype=None, outputs=None, **kwargs) -> MValue:
        """A primitive-function node. ``out_shape``/``out_dtype`` default to the first
        input's."""
        layout = optable.layout(op)
        if layout is None:
            raise ValueError(f"'{op}' is not a MindSpore 2.10 primitive function")
        inputs, rest = [], list(args)
        for spec in layout:
            if spec.variadic:
                inputs.extend(self._arg(spec, v) for v in rest)
                rest = []
                continue
            if not spec.init and rest:
                value = rest.pop(0)
            elif spec.name in kwargs:
                value = kwargs.pop(spec.name)
            elif spec.has_default:
                value = spec.default
            else:
                raise ValueError(f"For MindIR '{op}', argument '{spec.name}' is required")
            inputs.append(self._arg(spec, value))
        if rest or kwargs:
            raise ValueError(f"For MindIR '{op}', unused arguments {rest} {sorted(kwargs)}")
        first = next((a for a in args if isinstance(a, MValue)), None)
        shape = first.shape if out_shape is None else out_shape
        dtype = first.dtype if out_dtype is None else out_dtype
        return self.node(op, inputs, shape, dtype, True, outputs=outputs)

    def _arg(self, spec, value):
        if isinstance(value, MValue):
            return value
        if isinstance(value, np.ndarray):
            return self.const(value)
        if spec.convert == "enum" or (isinstance(value, str) and optable.has_enum(spec.name)):
            value = optable.enum_value(spec.name, value)
        elif spec.convert == "type_id" and not isinstance(value, int):
            value = optable.type_id(value)
        return self.scalar(value)

    def old(self, op, inputs, attrs, shape, dtype) -> MValue:
        """An old-style primitive: its arguments are the primitive's attributes."""
        return self.node(op, inputs, shape, dtype, False, attrs)

    def make_tuple(self, items) -> MValue:
        return self.node("MakeTuple", items, (), np.float32, False,
                         outputs=[(v.shape, v.dtype) for v in items])

    def output(self, value: MValue):
        o = self.graph.output.add()
        o.name = value.name


def _freeze(value):
    if isinstance(value, (list, tuple)):
        return (type(value).__name__,) + tuple(_freeze(v) for v in value)
    if isinstance(value, float):
        return ("f", value)
    if isinstance(value, bool):
        return ("b", value)
    return value
