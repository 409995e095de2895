"""Calls go through ``ms__.call``, which converts what they call, recursively.

``f(a, *b, k=c, **d)`` becomes ``ms__.call(f, a, *b, k=c, **d)``. At capture
time ``ms__.call`` looks at ``f`` (see ``resolve.py``): a user function or
method is converted (cached per code object) and called; a Cell runs its
converted ``construct``; a jitted function is inlined as a converted plain
function; ``print``, ``int``, ``float``, ``bool``, ``max``, ``min``, ``str``
... get versions that accept Tensors that only exist in the graph; anything
else (msxla ops, numpy, Python built-ins) is called as it is.

Strings that format Tensor values must format them when the graph runs:
``f"v={x}"`` becomes ``ms__.fstring(('v=', (x, -1, None)))`` and
``"%s" % x`` becomes ``ms__.percent("%s", x)``; both format at once unless a
value only exists in the graph (then they give a string that ``print``
formats at run time). ``del name`` becomes ``name = ms__.undefined('name')``
so control-flow state stays well defined. ``assert c, m`` becomes
``if not c: raise AssertionError(m)``, so a Tensor condition raises when the
graph runs (``raises.py``).

Not rewritten: ``super()`` (it needs the caller's frame), ``locals()``,
``vars()``, ``globals()``, ``eval`` and ``exec``.
"""
from __future__ import annotations

import ast

from msxla.capture.ast import templates as T

_FRAME_CALLS = frozenset({"super", "locals", "vars", "globals", "eval", "exec", "dir"})


class CallConverter(ast.NodeTransformer):
    def __init__(self, global_names=frozenset()):
        self.global_names = global_names

    def visit_Call(self, node):
        self.generic_visit(node)
        f = node.func
        if T.is_rt_call(node) or (isinstance(f, ast.Name) and f.id in _FRAME_CALLS):
            return node
        node.args = [f] + node.args
        node.func = T.located(T.rt("call"), f)
        return node

    def visit_JoinedStr(self, node):
        parts = []
        for v in node.values:
            if isinstance(v, ast.Constant):
                parts.append(v)
                continue
            spec = self.visit(v.format_spec) if v.format_spec is not None else ast.Constant(None)
            parts.append(ast.Tuple(elts=[self.visit(v.value), ast.Constant(v.conversion), spec],
                                   ctx=ast.Load()))
        out = T.call(T.rt("fstring"), [ast.Tuple(elts=parts, ctx=ast.Load())])
        return T.located(out, node)

    def visit_Assert(self, node):
        """``assert c, m`` -> ``if not c: raise AssertionError(m)`` (graph-aware)."""
        exc = T.call(T.load("AssertionError"), [node.msg] if node.msg is not None else [])
        out = ast.If(test=T.not_(node.test), body=[ast.Raise(exc=exc, cause=None)], orelse=[])
        return self.visit(T.located(out, node))

    def visit_BinOp(self, node):
        self.generic_visit(node)
        if isinstance(node.op, ast.Mod) and isinstance(node.left, ast.Constant) and \
                isinstance(node.left.value, str):
            return T.located(T.call(T.rt("percent"), [node.left, node.right]), node)
        return node

    def visit_Delete(self, node):
        keep, out = [], []
        for t in node.targets:
            if isinstance(t, ast.Name) and t.id not in self.global_names:
                undef = T.call(T.rt("undefined"), [ast.Constant(t.id)])
                out.append(T.located(T.assign(t.id, undef), node))
            else:
                keep.append(self.visit(t))
        if keep:
            node.targets = keep
            out.insert(0, node)
        return out


def transform(fn_node, global_names=frozenset()):
    return CallConverter(global_names).visit(fn_node)
