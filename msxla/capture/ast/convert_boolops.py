"""``and`` / ``or`` / ``not`` and chained comparisons that work on graph Tensors.

Python's ``a and b`` asks ``bool(a)``, which a Tensor inside the graph cannot
answer at capture time. The operands become thunks so the runtime keeps
Python's short-circuit semantics for Python values and builds the graph
equivalent for Tensors (``b if a else a``, as MindSpore does, so both sides
must join like the branches of an ``if``).

Before::

    if x.sum() > 0 and not done:
        ...
    ok = 0 < x.sum() < 10

After::

    if ms__.and_(lambda: x.sum() > 0, lambda: ms__.not_(done)):
        ...
    ok = ms__.and_(lambda: 0 < x.sum(), lambda: x.sum() < 10)

A chained comparison is split only when its middle operands are plain names,
constants or attributes (evaluating them twice changes nothing).
"""
from __future__ import annotations

import ast
import copy

from msxla.capture.ast import templates as T

_SIMPLE = (ast.Name, ast.Constant, ast.Attribute)


class BoolOpConverter(ast.NodeTransformer):
    def visit_BoolOp(self, node):
        self.generic_visit(node)
        fn = "and_" if isinstance(node.op, ast.And) else "or_"
        return T.located(T.call(T.rt(fn), [T.thunk(v) for v in node.values]), node)

    def visit_UnaryOp(self, node):
        self.generic_visit(node)
        if isinstance(node.op, ast.Not):
            return T.located(T.call(T.rt("not_"), [node.operand]), node)
        return node

    def visit_Compare(self, node):
        self.generic_visit(node)
        if len(node.ops) < 2 or not all(isinstance(c, _SIMPLE) for c in node.comparators[:-1]):
            return node
        lefts = [node.left] + [copy.deepcopy(c) for c in node.comparators[:-1]]
        parts = [T.located(ast.Compare(left=lhs, ops=[op], comparators=[rhs]), node)
                 for lhs, op, rhs in zip(lefts, node.ops, node.comparators)]
        return T.located(T.call(T.rt("and_"), [T.thunk(p) for p in parts]), node)


def transform(fn_node):
    return BoolOpConverter().visit(fn_node)
