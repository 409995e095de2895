"""Clean-ups run on a converted GE graph (main graph and subgraphs).

- ``prune``: drop nodes whose outputs nothing reads (constants left behind
  by patterns, init values folded away). Data, Variable, Assign and
  NetOutput nodes always stay.
- ``fuse_mean``: ``RealDiv(ReduceSum(x, axes), n)`` where ``n`` is a Const
  (or a broadcast Const) equal to the number of reduced elements becomes
  ``ReduceMean(x, axes)``: jax lowers ``mean`` as a sum and a division.
- ``fold_transposes``: ``MatMulV2(x, Transpose(w, [1, 0]))`` becomes
  ``MatMulV2(x, w, transpose_x2=true)`` (likewise x1, and BatchMatMulV2 with
  the last two dims swapped): ``Dense`` computes ``x @ w.T``.
- ``fold_chains``: ``BroadcastTo(BroadcastTo(x))`` and ``Reshape(Reshape(x))``
  keep only the outer node.
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
        # the ReduceSum becomes the ReduceMean; the RealDiv's readers read it
        src.type = "ReduceMean"
        src.name = _unique(g, src.name.replace("ReduceSum", "ReduceMean"))
        src.attrs = {"keep_dims": False, "noop_with_empty_axes": True}
        _redirect(g, node.name, src.name)
    prune(g)


def _unique(g: GeGraph, name: str) -> str:
    taken = {n.name for n in g.nodes}
    out, k = name, 1
    while out in taken:
        out = f"{name}_{k}"
        k += 1
    return out


def _redirect(g: GeGraph, old: str, new: str):
    """Readers of node ``old``'s output 0 read node ``new``'s instead."""
    def swap(ref):
        return f"{new}:0" if ref == f"{old}:0" else ref
    for n in g.nodes:
        n.inputs = [swap(r) for r in n.inputs]
    g.outputs = [swap(r) for r in g.outputs]


def _const_scalar_list(by_name, ref):
    node = by_name.get(ref.rsplit(":", 1)[0])
    if node is None or node.type != "Const":
        return None
    return [int(a) for a in node.attrs["value"].reshape(-1)]


def _producer(by_name, ref):
    return by_name.get(ref.rsplit(":", 1)[0]) if ref else None


def fold_transposes(g: GeGraph):
    users = _users(g)
    by_name = {n.name: n for n in g.nodes}
    flags = {"MatMulV2": ("transpose_x1", "transpose_x2"), "BatchMatMulV2": ("adj_x1", "adj_x2")}
    for node in g.nodes:
        if node.type not in flags:
            continue
        for port in (0, 1):
            t = _producer(by_name, node.inputs[port])
            if t is None or t.type != "Transpose" or len(users.get(t.name, [])) != 1:
                continue
            perm = _const_scalar_list(by_name, t.inputs[1])
            rank = len(t.output_desc[0].shape)
            if perm != list(range(rank - 2)) + [rank - 1, rank - 2]:
                continue
            flag = flags[node.type][port]
            node.inputs[port] = t.inputs[0]
            node.input_desc[port] = t.input_desc[0].renamed(node.input_desc[port].name)
            node.attrs[flag] = not node.attrs.get(flag, False)


def fold_chains(g: GeGraph):
    users = _users(g)
    by_name = {n.name: n for n in g.nodes}
    for node in g.nodes:
        if node.type not in ("BroadcastTo", "Reshape"):
            continue
        inner = _producer(by_name, node.inputs[0])
        if inner is not None and inner.type == node.type and \
                len(users.get(inner.name, [])) == 1:
            node.inputs[0] = inner.inputs[0]
            node.input_desc[0] = inner.input_desc[0].renamed("x")


def run(model: GeModel) -> GeModel:
    for g in model.graphs:
        fuse_mean(g)
        fold_transposes(g)
        fold_chains(g)
        prune(g)
    return model
