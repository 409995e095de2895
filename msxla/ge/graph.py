"""A small Python model of GE's graph IR: ``GeModel`` > ``GeGraph`` > ``GeNode``.

It mirrors the protobuf messages one to one (``serialize.py`` converts both
ways) but holds numpy dtypes, tuples and plain Python attribute values, so the
converter, the reference executor and the printer never touch field numbers:

- ``TensorDesc``: one port (IR port name, dtype, shape, format string, extra
  attributes such as ``_parent_node_index``);
- ``GeNode``: GE op type, inputs as ``"producer:index"`` strings (``""`` for an
  absent optional input), control inputs, port descriptors, attributes and the
  names of attached subgraphs (While cond/body, If/Case branches);
- ``GeGraph``: nodes in topological order, graph inputs/outputs;
- ``GeModel``: ``graphs[0]`` is the main graph, ``graphs[1:]`` all subgraphs.

Attribute values: ``bool``/``int``/``float``/``str``, lists of those,
``numpy.ndarray`` (a Tensor attribute such as Const ``value``), ``AttrDtype``
(a ``Type`` attribute), ``ListListInt``. Floats are held at float32 precision,
as GE stores them, so a model survives serialisation unchanged.
"""
from __future__ import annotations

import dataclasses

import numpy as np


@dataclasses.dataclass(frozen=True)
class AttrDtype:
    """A ``Type``-valued attribute (stored as C++ ``ge::DataType``)."""

    dtype: np.dtype

    def __post_init__(self):
        object.__setattr__(self, "dtype", np.dtype(self.dtype))


class ListListInt(tuple):
    """A ``ListListInt`` attribute: a tuple of int tuples."""

    def __new__(cls, rows=()):
        return super().__new__(cls, tuple(tuple(int(v) for v in row) for row in rows))


def normalize_attr(value):
    """The canonical in-memory form of an attribute value."""
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        return float(np.float32(value))
    if isinstance(value, (str, AttrDtype, ListListInt, np.ndarray)):
        return value
    if isinstance(value, np.dtype):
        return AttrDtype(value)
    if isinstance(value, (list, tuple)):
        return [normalize_attr(v) for v in value]
    raise TypeError(f"unsupported GE attribute value {value!r}")


def _canon(value):
    """A hashable, comparable form of an attribute value (arrays by bytes)."""
    if isinstance(value, np.ndarray):
        return ("tensor", str(value.dtype), value.shape, np.array(value, order="C").tobytes())
    if isinstance(value, list):
        return ("list", tuple(_canon(v) for v in value))
    if isinstance(value, dict):
        return tuple(sorted((k, _canon(v)) for k, v in value.items()))
    if isinstance(value, TensorDesc):
        return value.key()
    return (type(value).__name__, value)


@dataclasses.dataclass(eq=False)
class TensorDesc:
    """One port of a node (``TensorDescriptor``)."""

    dtype: np.dtype
    shape: tuple
    layout: str = "ND"
    name: str = ""
    attrs: dict = dataclasses.field(default_factory=dict)

    def __post_init__(self):
        self.dtype = np.dtype(self.dtype)
        self.shape = tuple(int(d) for d in self.shape)
        self.attrs = {k: normalize_attr(v) for k, v in self.attrs.items()}

    def key(self):
        return (str(self.dtype), self.shape, self.layout, self.name, _canon(self.attrs))

    def __eq__(self, other):
        return isinstance(other, TensorDesc) and self.key() == other.key()

    def renamed(self, name: str) -> "TensorDesc":
        return TensorDesc(self.dtype, self.shape, self.layout, name, dict(self.attrs))


@dataclasses.dataclass(eq=False)
class GeNode:
    """One GE operator (``OpDef``)."""

    name: str
    type: str
    inputs: list = dataclasses.field(default_factory=list)
    input_desc: list = dataclasses.field(default_factory=list)
    output_desc: list = dataclasses.field(default_factory=list)
    attrs: dict = dataclasses.field(default_factory=dict)
    subgraphs: list = dataclasses.field(default_factory=list)
    control_inputs: list = dataclasses.field(default_factory=list)

    def __post_init__(self):
        self.attrs = {k: normalize_attr(v) for k, v in self.attrs.items()}

    def key(self):
        return (self.name, self.type, tuple(self.inputs),
                tuple(d.key() for d in self.input_desc), tuple(d.key() for d in self.output_desc),
                _canon(self.attrs), tuple(self.subgraphs), tuple(self.control_inputs))

    def __eq__(self, other):
        return isinstance(other, GeNode) and self.key() == other.key()

    def attr(self, name, default=None):
        return self.attrs.get(name, default)

    def input_sources(self):
        """``(producer node name, output index)`` per data input (None if absent)."""
        out = []
        for ref in self.inputs:
            if not ref:
                out.append(None)
                continue
            node, idx = ref.rsplit(":", 1)
            out.append((node, int(idx)))
        return out


@dataclasses.dataclass(eq=False)
class GeGraph:
    """One graph (``GraphDef``): the main graph or a subgraph."""

    name: str
    nodes: list = dataclasses.field(default_factory=list)
    inputs: list = dataclasses.field(default_factory=list)   # "Data node:0" per graph input
    outputs: list = dataclasses.field(default_factory=list)  # "node:index" per graph output
    attrs: dict = dataclasses.field(default_factory=dict)

    def __post_init__(self):
        self.attrs = {k: normalize_attr(v) for k, v in self.attrs.items()}

    def key(self):
        return (self.name, tuple(n.key() for n in self.nodes), tuple(self.inputs),
                tuple(self.outputs), _canon(self.attrs))

    def __eq__(self, other):
        return isinstance(other, GeGraph) and self.key() == other.key()

    def node(self, name: str) -> GeNode:
        for n in self.nodes:
            if n.name == name:
                return n
        raise KeyError(name)

    def nodes_of_type(self, *types):
        return [n for n in self.nodes if n.type in types]

    def op_types(self) -> list:
        return [n.type for n in self.nodes]


@dataclasses.dataclass(eq=False)
class GeModel:
    """A GE model (``ModelDef``): the main graph and every subgraph, flattened."""

    name: str
    graphs: list = dataclasses.field(default_factory=list)
    attrs: dict = dataclasses.field(default_factory=dict)
    version: int = 0
    custom_version: str = ""

    def __post_init__(self):
        self.attrs = {k: normalize_attr(v) for k, v in self.attrs.items()}

    @property
    def main(self) -> GeGraph:
        return self.graphs[0]

    def graph(self, name: str) -> GeGraph:
        for g in self.graphs:
            if g.name == name:
                return g
        raise KeyError(f"GE model '{self.name}' has no graph '{name}'")

    def key(self):
        return (self.name, self.version, self.custom_version, _canon(self.attrs),
                tuple(g.key() for g in self.graphs))

    def __eq__(self, other):
        return isinstance(other, GeModel) and self.key() == other.key()

    def op_types(self) -> set:
        return {n.type for g in self.graphs for n in g.nodes}

    def dump(self) -> str:
        from msxla.ge.printer import dump
        return dump(self)

    def to_bytes(self) -> bytes:
        from msxla.ge.serialize import to_bytes
        return to_bytes(self)

    def save(self, path: str):
        """Write the model as an AIR file (a binary ``ModelDef``)."""
        from msxla.ge.serialize import save_air
        save_air(self, path)

    def run(self, *inputs, variables=None):
        """Run on the numpy reference executor: ``(outputs, variables)``."""
        from msxla.ge.reference import run_model
        return run_model(self, list(inputs), variables)
