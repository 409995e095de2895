"""``GeModel`` <-> GE's protobuf ``ModelDef``, and the AIR file.

An AIR file is one binary-serialised ``ge.proto.ModelDef`` (what GE's
``Graph::SaveToFile`` writes and ATC's ``--framework=1`` reads): graph[0] is
the main graph, graph[1:] the subgraphs. Writing follows GE's own
conventions:

- ``OpDef.input``: data edges ``"producer:index"``, then control edges
  ``"producer:-1"``;
- port names on ``input_desc`` / ``output_desc`` *and* in the meta attributes
  ``_input_name_key/_value`` and ``_output_name_key/_value`` (older GE
  loaders read only those);
- each descriptor also carries ``origin_format`` / ``origin_shape`` and
  ``device_type`` "NPU";
- dtype-valued attributes in C++ ``ge::DataType`` numbering (``dtypes.py``).

Reading drops exactly what writing derived, so
``from_bytes(to_bytes(m)) == m``.
"""
from __future__ import annotations

import numpy as np

from msxla.ge import dtypes
from msxla.ge.graph import AttrDtype, GeGraph, GeModel, GeNode, ListListInt, TensorDesc
from msxla.ge.schema import pb

_LV = pb.AttrDef.ListValue
_NODE_META = ("_input_name_key", "_input_name_value", "_output_name_key", "_output_name_value")
_DESC_META = ("origin_format", "origin_shape")


# ------------------------------------------------------------------ writing
def _set_attr(msg: pb.AttrDef, value):
    if isinstance(value, bool):
        msg.b = value
    elif isinstance(value, int):
        msg.i = value
    elif isinstance(value, float):
        msg.f = value
    elif isinstance(value, str):
        msg.s = value.encode()
    elif isinstance(value, AttrDtype):
        msg.dt = dtypes.to_cpp(value.dtype)
    elif isinstance(value, np.ndarray):
        _tensor(msg.t, value)
    elif isinstance(value, ListListInt):
        for row in value:
            msg.list_list_int.list_list_i.add().list_i.extend(row)
    elif isinstance(value, list):
        _set_list(msg.list, value)
    else:
        raise TypeError(f"cannot serialise GE attribute {value!r}")


def _set_list(lv, values):
    if all(isinstance(v, bool) for v in values) and values:
        lv.b.extend(values)
        lv.val_type = _LV.VT_LIST_BOOL
    elif all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        lv.i.extend(values)
        lv.val_type = _LV.VT_LIST_INT
    elif all(isinstance(v, float) for v in values):
        lv.f.extend(values)
        lv.val_type = _LV.VT_LIST_FLOAT
    elif all(isinstance(v, str) for v in values):
        lv.s.extend(v.encode() for v in values)
        lv.val_type = _LV.VT_LIST_STRING
    elif all(isinstance(v, AttrDtype) for v in values):
        lv.dt.extend(dtypes.to_cpp(v.dtype) for v in values)
        lv.val_type = _LV.VT_LIST_DATA_TYPE
    else:
        raise TypeError(f"cannot serialise GE list attribute {values!r}")


def _tensor(msg: pb.TensorDef, arr: np.ndarray):
    _desc(msg.desc, TensorDesc(arr.dtype, arr.shape))
    msg.data = np.array(arr, order="C").astype(arr.dtype.newbyteorder("<")).tobytes()


def _desc(msg: pb.TensorDescriptor, d: TensorDesc):
    msg.name = d.name
    msg.dtype = dtypes.to_proto(d.dtype)
    msg.shape.dim.extend(d.shape)
    msg.layout = d.layout
    msg.device_type = "NPU"
    msg.has_out_attr = True
    for k, v in d.attrs.items():
        _set_attr(msg.attr[k], v)
    msg.attr["origin_format"].s = d.layout.encode()
    _set_list(msg.attr["origin_shape"].list, list(d.shape))


def _op(msg: pb.OpDef, node: GeNode, index: int):
    msg.name = node.name
    msg.type = node.type
    msg.id = index
    msg.input.extend(node.inputs)
    msg.input.extend(f"{c}:-1" for c in node.control_inputs)
    for k, v in node.attrs.items():
        _set_attr(msg.attr[k], v)
    for d in node.input_desc:
        _desc(msg.input_desc.add(), d)
    for d in node.output_desc:
        _desc(msg.output_desc.add(), d)
    msg.subgraph_name.extend(node.subgraphs)
    ins = [(d.name, i) for i, d in enumerate(node.input_desc)]
    outs = [(d.name, i) for i, d in enumerate(node.output_desc)]
    for (key, value), pairs in ((("_input_name_key", "_input_name_value"), ins),
                                (("_output_name_key", "_output_name_value"), outs)):
        if pairs:
            _set_list(msg.attr[key].list, [n for n, _ in pairs])
            _set_list(msg.attr[value].list, [i for _, i in pairs])


def _graph(msg: pb.GraphDef, g: GeGraph):
    msg.name = g.name
    msg.input.extend(g.inputs)
    msg.output.extend(g.outputs)
    for i, node in enumerate(g.nodes):
        _op(msg.op.add(), node, i)
    for k, v in g.attrs.items():
        _set_attr(msg.attr[k], v)


def to_proto(model: GeModel) -> pb.ModelDef:
    msg = pb.ModelDef(name=model.name, version=model.version,
                      custom_version=model.custom_version)
    for g in model.graphs:
        _graph(msg.graph.add(), g)
    for k, v in model.attrs.items():
        _set_attr(msg.attr[k], v)
    return msg


def to_bytes(model: GeModel) -> bytes:
    return to_proto(model).SerializeToString(deterministic=True)


def save_air(model: GeModel, path: str):
    with open(path, "wb") as f:
        f.write(to_bytes(model))


# ------------------------------------------------------------------ reading
def _get_attr(msg: pb.AttrDef):
    kind = msg.WhichOneof("value")
    if kind == "s":
        return msg.s.decode()
    if kind in ("i", "f", "b"):
        return getattr(msg, kind)
    if kind == "dt":
        return AttrDtype(dtypes.from_cpp(msg.dt))
    if kind == "t":
        return _read_tensor(msg.t)
    if kind == "list_list_int":
        return ListListInt([list(r.list_i) for r in msg.list_list_int.list_list_i])
    if kind == "list":
        lv = msg.list
        t = lv.val_type
        if t == _LV.VT_LIST_BOOL:
            return list(lv.b)
        if t == _LV.VT_LIST_FLOAT:
            return list(lv.f)
        if t == _LV.VT_LIST_STRING:
            return [s.decode() for s in lv.s]
        if t == _LV.VT_LIST_DATA_TYPE:
            return [AttrDtype(dtypes.from_cpp(v)) for v in lv.dt]
        return list(lv.i)
    if kind is None:
        return None
    raise TypeError(f"GE attribute kind '{kind}' is not supported by msxla")


def _read_tensor(msg: pb.TensorDef) -> np.ndarray:
    dtype = dtypes.from_proto(msg.desc.dtype)
    shape = tuple(msg.desc.shape.dim)
    arr = np.frombuffer(msg.data, dtype=dtype.newbyteorder("<")).astype(dtype)
    return arr.reshape(shape).copy()


def _read_desc(msg: pb.TensorDescriptor) -> TensorDesc:
    attrs = {k: _get_attr(v) for k, v in msg.attr.items() if k not in _DESC_META}
    return TensorDesc(dtypes.from_proto(msg.dtype), tuple(msg.shape.dim), msg.layout or "ND",
                      msg.name, attrs)


def _read_op(msg: pb.OpDef) -> GeNode:
    inputs, control = [], []
    for ref in msg.input:
        if ref.endswith(":-1"):
            control.append(ref[:-3])
        else:
            inputs.append(ref)
    attrs = {k: _get_attr(v) for k, v in msg.attr.items() if k not in _NODE_META}
    return GeNode(msg.name, msg.type, inputs, [_read_desc(d) for d in msg.input_desc],
                  [_read_desc(d) for d in msg.output_desc], attrs, list(msg.subgraph_name),
                  control)


def from_proto(msg: pb.ModelDef) -> GeModel:
    graphs = []
    for g in msg.graph:
        graphs.append(GeGraph(g.name, [_read_op(o) for o in g.op], list(g.input),
                              list(g.output), {k: _get_attr(v) for k, v in g.attr.items()}))
    return GeModel(msg.name, graphs, {k: _get_attr(v) for k, v in msg.attr.items()},
                   msg.version, msg.custom_version)


def from_bytes(data: bytes) -> GeModel:
    return from_proto(pb.ModelDef.FromString(data))


def load_air(path: str) -> GeModel:
    with open(path, "rb") as f:
        return from_bytes(f.read())
