"""``if`` statements and conditional expressions become ``ms__.if_stmt`` / ``if_exp``.

The runtime decides at capture time: a Python condition (a constant, a shape,
``self.training``, a Tensor with a known value) runs one branch as plain
Python, so nothing of the other branch reaches the graph; a condition that is
a Tensor inside the graph runs both branches as a ``lax.cond`` whose outputs
are the variables the branches assign (and the Parameters they write).

Before::

    if x.sum() > 0:
        y = x * 2
    else:
        y = x - 1

After::

    def ms__f_then_1():
        nonlocal y
        y = x * 2

    def ms__f_else_2():
        nonlocal y
        y = x - 1
    <get / set / watch helpers, see convert_scope.py>
    ms__.if_stmt(x.sum() > 0, ms__f_then_1, ms__f_else_2, ms__f_get_3, ms__f_set_4,
                 ('y',), <info>, ms__f_watch_5)

``a if c else b`` becomes ``ms__.if_exp(c, lambda: a, lambda: b, <info>, lambda: (a, b))``;
the last thunk gives the Tensors the expression may choose (``aliases.py``).

``<info>`` is a constant tuple the runtime uses for errors and for variables
defined on one side only: ``(file, where of the if, (where of each variable's
last assignment in the true branch), (... in the false branch), live names)``.
"""
from __future__ import annotations

import ast

from msxla.capture.ast import templates as T
from msxla.capture.ast.convert_scope import ControlFlowBase


class IfConverter(ControlFlowBase):
    def visit_If(self, node):
        self.generic_visit(node)
        if not self.scopes:
            return node
        body, orelse = node.body, node.orelse or [ast.Pass()]
        names = self.state_names(body + orelse)
        watch = self.watch_names(body + orelse, names)
        then_name, else_name = T.fresh_fn("then"), T.fresh_fn("else")
        then_def = T.fn_def(then_name, [], self.header(body) + body)
        else_def = T.fn_def(else_name, [], self.header(orelse) + orelse)
        T.located([then_def, else_def], node)
        state_defs, get_ref, set_ref, watch_ref = self.state_functions(names, watch, node)
        here = self.where(node)
        live = getattr(node, "ms_live_out", None)
        live = tuple(n for n in names if live is None or n in live)
        info = (self.filename, here, self.assignment_wheres(body, names, here),
                self.assignment_wheres(node.orelse, names, here), live)
        run = T.call(T.rt("if_stmt"), [node.test, T.load(then_name), T.load(else_name),
                                       get_ref, set_ref, T.const(tuple(names)), T.const(info),
                                       watch_ref])
        return [then_def, else_def] + state_defs + [T.located(T.expr(run), node)]


class IfExpConverter(ast.NodeTransformer):
    def __init__(self, filename, function=""):
        self.filename, self.function = filename, function

    def visit_IfExp(self, node):
        self.generic_visit(node)
        info = (self.filename, T.where(node, self.function), T.where(node.body, self.function),
                T.where(node.orelse, self.function))
        args = [node.test, T.thunk(node.body), T.thunk(node.orelse), T.const(info)]
        names = _loaded_names([node.body, node.orelse])
        if names:  # the Tensors the expression may choose or change in place
            args.append(T.thunk(ast.Tuple(elts=[T.load(n) for n in names], ctx=ast.Load())))
        return T.located(T.call(T.rt("if_exp"), args), node)


def _loaded_names(nodes):
    """Names an expression loads in its own scope (not in nested lambdas or comprehensions)."""
    names: dict = {}
    todo = list(nodes)
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp,
                             ast.GeneratorExp)):
            continue
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and \
                not node.id.startswith(T.RT):
            names[node.id] = None
        todo.extend(ast.iter_child_nodes(node))
    return sorted(names)


def transform(fn_node, filename, function=""):
    fn_node = IfConverter(filename, function).visit(fn_node)
    return IfExpConverter(filename, function).visit(fn_node)
