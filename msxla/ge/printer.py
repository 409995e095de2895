"""A readable text dump of a GE model (``GeModel.dump()``), one node per line::

    graph f
      input_0: float32[2,3] = Data() index=0
      Mul_0: float32[2,3] = Mul(input_0, input_1)
      Add_0: float32[2,3] = Add(Mul_0, input_2)
      NetOutput(Add_0)

Inputs are ``producer`` (output 0) or ``producer:k``; control edges follow as
``^node``. Attributes equal to GE's defaults are left out; small constants
are shown in full, larger ones by dtype and shape. Subgraphs (While / If /
Case bodies) follow the main graph, each under its own ``graph`` header.
"""
from __future__ import annotations

import numpy as np

from msxla.ge.dtypes import from_cpp
from msxla.ge.graph import AttrDtype, GeGraph, GeModel, TensorDesc
from msxla.ge.opdefs import OPS, REQUIRED

_SMALL = 8
_CPP_DTYPE_ATTRS = {("Cast", "dst_type"), ("Real", "Tout"), ("Imag", "Tout"), ("Complex", "Tout")}
_HIDDEN = ("_parent_node_index",)


def _type(d: TensorDesc) -> str:
    text = f"{d.dtype.name}[{','.join(map(str, d.shape))}]"
    return text if d.layout == "ND" else f"{text}@{d.layout}"


def _value(v) -> str:
    if isinstance(v, np.ndarray):
        head = f"{v.dtype.name}[{','.join(map(str, v.shape))}]"
        if v.size <= _SMALL:
            flat = v.reshape(-1).tolist()
            body = ", ".join(_scalar(x) for x in flat)
            return f"{head}{{{body}}}" if v.ndim else f"{head}{{{body}}}"
        return head
    if isinstance(v, AttrDtype):
        return v.dtype.name
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return _scalar(v)
    if isinstance(v, str):
        return repr(v)
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    return str(v)


def _scalar(x) -> str:
    if isinstance(x, bool):
        return "true" if x else "false"
    if isinstance(x, float):
        return str(np.float32(x)) if np.isfinite(x) else str(x)
    return str(x)


def _ref(ref: str) -> str:
    if not ref:
        return "_"
    node, idx = ref.rsplit(":", 1)
    return node if idx == "0" else ref


def _attrs(node) -> str:
    spec = OPS.get(node.type)
    shown = []
    for k in sorted(node.attrs):
        v = node.attrs[k]
        if k in _HIDDEN and node.type != "Data":
            continue
        default = spec.attrs.get(k, REQUIRED) if spec else REQUIRED
        if default is not REQUIRED and _value(default) == _value(v) and k != "index":
            continue
        if k == "N":
            continue
        if (node.type, k) in _CPP_DTYPE_ATTRS:
            shown.append(f"{k}={v}({from_cpp(v).name})")
            continue
        shown.append(f"{k}={_value(v)}")
    if node.subgraphs:
        shown.append(f"subgraphs=[{', '.join(node.subgraphs)}]")
    return (" " + " ".join(shown)) if shown else ""


def dump_graph(g: GeGraph, title: str = "graph") -> list:
    lines = [f"{title} {g.name}"]
    for node in g.nodes:
        args = [_ref(r) for r in node.inputs] + [f"^{c}" for c in node.control_inputs]
        call = f"{node.type}({', '.join(args)}){_attrs(node)}"
        outs = node.output_desc
        if not outs:
            lines.append(f"  {call}")
        elif len(outs) == 1:
            lines.append(f"  {node.name}: {_type(outs[0])} = {call}")
        else:
            types = ", ".join(_type(d) for d in outs)
            lines.append(f"  {node.name}: ({types}) = {call}")
    return lines


def dump(model: GeModel) -> str:
    lines = dump_graph(model.main)
    for g in model.graphs[1:]:
        lines.append("")
        lines += dump_graph(g, "subgraph")
    return "\n".join(lines) + "\n"
