"""A MindIR file as plain Python: ``FuncGraph`` (what ``mindspore.load`` returns).

    graph = FuncGraph.from_bytes(open("net.mindir", "rb").read())
    print(graph)            # inputs, parameters, one line per node, outputs

A graph holds its inputs (name, shape, dtype), its Parameters (name and
numpy value), its nodes in an order where every node follows its inputs
(only the nodes the outputs need: ``Depend(value, tokens)`` is its value, so
MindSpore's side-effect bookkeeping, ``UpdateState`` chains, is dropped) and the name of its output. A node is a Constant
(its value) or a primitive call (the primitive's name, its attributes, and
whether it is a primitive function, whose inputs are all of its arguments).
``nn.GraphCell`` runs it (``interpret.py``).
"""
from __future__ import annotations

import dataclasses

import numpy as np

from msxla.mindir import values
from msxla.mindir.schema import pb


@dataclasses.dataclass
class Node:
    name: str
    op: str                       # "Constant", or a primitive's name ("MatMul")
    inputs: tuple = ()
    attrs: dict = dataclasses.field(default_factory=dict)   # the primitive's attributes
    function: bool = True         # a primitive function (all arguments are inputs)
    value: object = None          # a Constant's value
    scope: str = ""               # MindSpore's scope ("Default/fc-Dense/MatMul-op0")
    abstract: object = None       # (shape, dtype) of the output, when the file gives it


@dataclasses.dataclass
class Input:
    name: str
    shape: tuple
    dtype: np.dtype


class FuncGraph:
    """A graph loaded from MindIR (``mindspore._c_expression.FuncGraph``'s counterpart)."""

    def __init__(self, name, inputs, parameters, nodes, output, ir_version="", producer=""):
        self.name = name
        self.inputs = list(inputs)            # [Input]
        self.parameters = dict(parameters)    # {graph-local name: (Parameter name, np value)}
        self.nodes = list(nodes)              # [Node], inputs first
        self.output = output
        self.ir_version = ir_version
        self.producer = producer

    # ------------------------------------------------------------ reading
    @classmethod
    def from_bytes(cls, data: bytes) -> FuncGraph:
        model = pb.ModelProto()
        model.ParseFromString(data)
        return cls.from_proto(model)

    @classmethod
    def from_proto(cls, model) -> FuncGraph:
        g = model.graph
        if not g.output:
            raise ValueError("the MindIR file has no graph output")
        prims = {p.name: p for p in model.primitives}
        functions = {f.name for f in model.functions}
        inputs = []
        for i in g.input:
            t = i.tensor[0]
            inputs.append(Input(i.name, tuple(t.dims), values.np_dtype(t.data_type)))
        params = {p.name: (p.ref_key or p.name.split(":", 1)[-1], values.tensor_value(p))
                  for p in g.parameter}
        nodes = {}
        for n in g.node:
            nodes[n.output[0] if n.output else n.name] = _node(n, prims, functions)
        output = g.output[0].name
        return cls(g.name, inputs, params, _needed(nodes, output), output, model.ir_version,
                   model.producer_name)

    # ------------------------------------------------------------- printing
    def __str__(self):
        lines = [f"FuncGraph {self.name}"]
        for i in self.inputs:
            lines.append(f"  input {_short(i.name)}: {np.dtype(i.dtype).name}{list(i.shape)}")
        for name, (key, value) in self.parameters.items():
            lines.append(f"  param {key}: {value.dtype.name}{list(value.shape)}")
        for n in self.nodes:
            if n.op == "Constant":
                lines.append(f"  {_short(n.name)} = {_show(n.value)}")
            else:
                args = ", ".join(_short(x) for x in n.inputs)
                attrs = "" if not n.attrs else " " + str(n.attrs)
                lines.append(f"  {_short(n.name)} = {n.op}({args}){attrs}")
        lines.append(f"  return {_short(self.output)}")
        return "\n".join(lines)

    __repr__ = __str__


_SKIP_ATTRS = frozenset({"input_names", "output_names"})


def _node(n, prims, functions) -> Node:
    name = n.output[0] if n.output else n.name
    if n.op_type == "Constant":
        return Node(name, "Constant", value=values.decode(n.attribute[0]))
    abstract = None
    for a in n.attribute:
        if a.name == "shape":
            abstract = values.abstract_of(a)
    ref = n.op_type[len("REF::"):] if n.op_type.startswith("REF::") else n.op_type
    prim = prims.get(ref)
    if prim is None:
        if ref in functions:
            raise ValueError(f"MindIR node '{name}' calls the sub-graph '{ref}'; graphs with "
                             "control flow or sub-graph calls are not supported by msxla's "
                             "MindIR loader yet")
        raise ValueError(f"MindIR node '{name}' refers to an unknown primitive '{ref}'")
    attrs = {a.name: values.decode(a) for a in prim.attribute if a.name not in _SKIP_ATTRS}
    inputs = tuple(n.input)
    if prim.op_type == "Depend":  # Depend(value, ordering tokens) is the value
        inputs = inputs[:1]
    return Node(name, prim.op_type, inputs, attrs,
                prim.prim_type == pb.PrimitiveProto.PRIMITIVE_FUNCTION,
                scope=n.domain, abstract=abstract)


def _needed(nodes: dict, output: str) -> list:
    """The nodes ``output`` depends on, each after its inputs (iterative: deep nets)."""
    order, state = [], {}
    stack = [(output, False)]
    while stack:
        name, done = stack.pop()
        if name not in nodes:
            continue
        if done:
            if state.get(name) != 2:
                state[name] = 2
                order.append(nodes[name])
            continue
        if state.get(name):
            continue
        state[name] = 1
        stack.append((name, True))
        for dep in reversed(nodes[name].inputs):
            if dep in nodes and not state.get(dep):
                stack.append((dep, False))
    return order


def _short(name: str) -> str:
    return name.split(":", 1)[1] if ":" in name else name


def _show(value):
    if isinstance(value, np.ndarray):
        if value.size <= 4:
            return f"{value.dtype.name}{list(value.shape)} {value.tolist()}"
        return f"{value.dtype.name}{list(value.shape)}"
    return repr(value)
