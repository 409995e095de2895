"""The reference executor: runs a GE model in numpy, one GE operator at a time.

It gives each GE operator GE's documented meaning (Conv2D's strides / pads /
dilations / data_format, MatMulV2's transpose_x1/x2, ReduceSum's keep_dims,
Cast's ``dst_type`` in ``ge::DataType`` numbering, While / If / Case
subgraphs bound through ``_parent_node_index``); it never looks at the
StableHLO the graph came from. Kernels live by family in ``reference_*.py``
and register with ``@kernel("Add", ...)``.

State follows GE: ``Variable`` nodes read a variable store (name -> array)
and ``Assign`` writes it; ``run_model`` returns the NetOutput values and the
updated store. Every kernel's result is checked against the node's declared
output descriptors (dtype and shape), so a converter that declares the
wrong type fails here rather than somewhere downstream.
"""
from __future__ import annotations

import numpy as np

from msxla.ge.graph import AttrDtype, GeGraph, GeModel
from msxla.ge.opdefs import OPS

KERNELS: dict = {}


class GeExecutionError(RuntimeError):
    pass


def contiguous(x) -> np.ndarray:
    """A C-ordered copy (keeps 0-d arrays 0-d, unlike ``np.ascontiguousarray``)."""
    return np.array(x, order="C")


def kernel(*types):
    def deco(fn):
        for t in types:
            KERNELS[t] = fn
        return fn
    return deco


class Call:
    """One node being run: its attributes (GE defaults filled) and the model."""

    __slots__ = ("node", "runner")

    def __init__(self, node, runner):
        self.node = node
        self.runner = runner

    def attr(self, name):
        value = self.node.attrs.get(name)
        if value is None:
            value = OPS[self.node.type].attrs.get(name)
        if isinstance(value, AttrDtype):
            return value.dtype
        return value

    @property
    def out(self):
        """Declared ``(dtype, shape)`` of each output."""
        return [(d.dtype, d.shape) for d in self.node.output_desc]

    def run_subgraph(self, index, inputs):
        return self.runner.run_graph(self.runner.model.graph(self.node.subgraphs[index]), inputs)


class Runner:
    def __init__(self, model: GeModel, variables=None):
        _load_kernels()
        self.model = model
        self.variables = dict(variables or {})

    def run_graph(self, graph: GeGraph, inputs):
        values: dict = {}
        outputs = None
        for node in _topological(graph):
            args = []
            for src in node.input_sources():
                args.append(None if src is None else values[src[0]][src[1]])
            kind = node.type
            if kind in ("Data", "RefData"):
                index = node.attrs.get("index", 0)
                out = [_as(inputs[index], node.output_desc[0])]
            elif kind == "Const":
                out = [node.attrs["value"]]
            elif kind == "Variable":
                if node.name not in self.variables:
                    raise GeExecutionError(f"GE variable '{node.name}' has no value")
                out = [_as(self.variables[node.name], node.output_desc[0])]
            elif kind == "Assign":
                ref_node = node.input_sources()[0][0]
                self.variables[ref_node] = args[1]
                out = [args[1]]
            elif kind == "NetOutput":
                outputs = args
                out = []
            else:
                fn = KERNELS.get(kind)
                if fn is None:
                    raise GeExecutionError(f"the reference executor has no kernel for GE op "
                                           f"'{kind}' (node {node.name})")
                with np.errstate(all="ignore"):
                    out = fn(Call(node, self), *args)
                out = [np.asarray(o) for o in (out if isinstance(out, (tuple, list)) else [out])]
                _check(node, out)
            values[node.name] = out
        if outputs is None:
            outputs = [values[n][int(i)] for n, i in (r.rsplit(":", 1) for r in graph.outputs)]
        return outputs


def _as(value, desc):
    arr = np.asarray(value)
    if arr.dtype != desc.dtype or tuple(arr.shape) != tuple(desc.shape):
        raise GeExecutionError(f"GE input '{desc.name}' expects {desc.dtype}{list(desc.shape)}, "
                               f"got {arr.dtype}{list(arr.shape)}")
    return arr


def _check(node, outs):
    if len(outs) != len(node.output_desc):
        raise GeExecutionError(f"{node.type} '{node.name}' made {len(outs)} outputs, declared "
                               f"{len(node.output_desc)}")
    for k, (arr, desc) in enumerate(zip(outs, node.output_desc)):
        if not isinstance(arr, np.ndarray) or arr.dtype != desc.dtype or \
                tuple(arr.shape) != tuple(desc.shape):
            got = f"{getattr(arr, 'dtype', type(arr))}{list(np.shape(arr))}"
            raise GeExecutionError(f"{node.type} '{node.name}' output {k}: declared "
                                   f"{desc.dtype}{list(desc.shape)}, computed {got}")


def _topological(graph: GeGraph):
    """Nodes in an order where producers come first (stable for ordered graphs)."""
    done, order = set(), []
    by_name = {n.name: n for n in graph.nodes}

    def ready(n):
        return all(src is None or src[0] in done for src in n.input_sources()) and \
            all(c in done for c in n.control_inputs)

    pending = list(graph.nodes)
    while pending:
        rest = []
        for n in pending:
            if ready(n):
                done.add(n.name)
                order.append(n)
            else:
                rest.append(n)
        if len(rest) == len(pending):
            missing = {s[0] for n in rest for s in n.input_sources() if s and s[0] not in by_name}
            raise GeExecutionError(f"GE graph '{graph.name}' has a cycle or dangling inputs "
                                   f"{sorted(missing)}")
        pending = rest
    return order


def run_model(model: GeModel, inputs, variables=None):
    """Run ``model`` (main graph) on numpy ``inputs`` (by Data index):
    ``(outputs, variables)``."""
    runner = Runner(model, variables)
    outs = runner.run_graph(model.main, [np.asarray(x) for x in inputs])
    return outs, runner.variables


def _load_kernels():
    from msxla.ge import reference_array, reference_flow, reference_math, reference_nn  # noqa
