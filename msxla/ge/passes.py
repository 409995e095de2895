"""Clean-ups run on a converted GE graph (main graph and subgraphs).

- ``prune``: drop nodes whose outputs nothing reads (constants left behind
  by patterns, init values folded away). Data, Variable, Assign and
  NetOutput nodes always stay.
- ``fuse_mean``: ``RealDiv(ReduceSum(x, axes), n)`` where ``n`` is a Const
  (or a broadcast Const) equal to the number of reduced elements becomes
  ``ReduceMean(x, axes)``: jax lowers ``mean`` as a sum and a division.
"""
from __future__ import annotations

import numpy as np

from msxla.ge.graph import GeGraph, GeModel

_KEEP = ("Data", "RefData", "Variable", "Assign", "NetOutput")


def _users(g: GeGraph) -> dict:
    users: dict = {}
    for node in g.nodes:
        for src in node.input_sources():
            if src is not None:
                users.setdefault(src[0], []).append(node)
        for c in node.control_inputs:
            users.setdefault(c, []).append(node)
    return users


def prune(g: GeGraph):
    live = set()
    by_name = {n.name: n for n in g.nodes}
    stack = [n.name for n in g.nodes if n.type in _KEEP]
    while stack:
        name = stack.pop()
        if name in live:
            continue
        live.add(name)
        node = by_name[name]
        stack.extend(s[0] for s in node.input_sources() if s is not None)
        stack.extend(node.control_inputs)
    g.nodes = [n for n in g.nodes if n.name in live]


def _const_scalar(g: GeGraph, ref: str):
    by_name = {n.name: n for n in g.nodes}
    node = by_name.get(ref.rsplit(":", 1)[0])
    while node is not None and node.type in ("BroadcastTo", "Reshape"):
        node = by_name.get(node.inputs[0].rsplit(":", 1)[0])
    if node is None or node.type != "Const":
        return None
    value = node.attrs["value"]
    flat = value.reshape(-1)
    return flat[0] if flat.size and (flat == flat[0]).all() else None


def fuse_mean(g: GeGraph):
    users = _users(g)
    by_name = {n.name: n for n in g.nodes}
    for node in g.nodes:
        if node.type != "RealDiv":
            continue
        src = by_name.get(node.inputs[0].rsplit(":", 1)[0])
        if src is None or src.type != "ReduceSum" or len(users.get(src.name, [])) != 1 or \
                src.attrs.get("keep_dims"):
            continue
        n = _const_scalar(g, node.inputs[1])
        x_shape = src.input_desc[0].shape
        axes = _const_scalar_list(by_name, src.inputs[1])
        if n is None or axes is None or node.output_desc[0].shape != src.output_desc[0].shape:
            continue
        count = int(np.prod([x_shape[a] for a in axes]))
        if float(n) != float(count):
            continue
        node.type = "ReduceMean"
        node.inputs = list(src.inputs)
        node.input_desc = [d.renamed(p) for d, p in zip(src.input_desc, ("x", "axes"))]
        node.output_desc = [d.renamed("y") for d in node.output_desc]
        node.attrs = {"keep_dims": False, "noop_with_empty_axes": True}
    prune(g)


def _const_scalar_list(by_name, ref):
    node = by_name.get(ref.rsplit(":", 1)[0])
    if node is None or node.type != "Const":
        return None
    return [int(a) for a in node.attrs["value"].reshape(-1)]


def run(model: GeModel) -> GeModel:
    for g in model.graphs:
        fuse_mean(g)
        prune(g)
    return model
