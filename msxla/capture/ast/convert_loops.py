"""``while`` and ``for`` loops become ``ms__.while_stmt`` / ``ms__.for_stmt``.

The runtime decides per loop at capture time. A ``while`` whose condition is
a Python value runs as a Python loop (unrolled into the graph); once its
condition is a Tensor in the graph it becomes a ``lax.while_loop`` whose
carry is the variables the body assigns (and the Parameters it writes). A
``for`` over a Python iterable (``range`` with constant bounds, tuples,
lists, dicts, ``zip``, ``enumerate``, CellList, SequentialCell, a Tensor's
first axis) is unrolled, as MindSpore does.

Before::

    while x.sum() < 10:
        x = x * 2

After::

    def ms__f_test_1():
        return x.sum() < 10

    def ms__f_body_2():
        nonlocal x
        x = x * 2
    <get / set / watch helpers>
    ms__.while_stmt(ms__f_test_1, ms__f_body_2, ms__f_get_3, ms__f_set_4, ('x',), <info>, None)

``for t in it: body`` becomes ``def ms__f_body_N(ms__itr): nonlocal ...; t = ms__itr;
body`` and ``ms__.for_stmt(it, <extra test>, ms__f_body_N, ...)``; the extra
test is ``lambda: ms__.loop_cond(<break/return flags>, None)`` when the loop
has jumps. ``<info>`` is ``(file, where of the loop, (where each variable is
last assigned in the body), live names after the loop, names the condition
reads)``. A loop's ``else`` (when it has no ``break``) runs after it.
"""
from __future__ import annotations

import ast

from msxla.capture.ast import analysis as A
from msxla.capture.ast import templates as T
from msxla.capture.ast.convert_scope import ControlFlowBase


class LoopConverter(ControlFlowBase):
    def _info(self, node, names, body, test_names):
        here = self.where(node)
        live = getattr(node, "ms_live_out", None)
        live = tuple(n for n in names if live is None or n in live)
        return (self.filename, here, self.assignment_wheres(body, names, here), live,
                tuple(n for n in names if n in test_names))

    def visit_While(self, node):
        self.generic_visit(node)
        if not self.scopes:
            return node
        body = node.body
        names = self.state_names(body)
        watch = self.watch_names(body + [node.test], names)
        test_name, body_name = T.fresh_fn("test"), T.fresh_fn("body")
        test_def = T.fn_def(test_name, [], [ast.Return(value=node.test)])
        body_def = T.fn_def(body_name, [], self.header(body) + body)
        T.located([test_def, body_def], node)
        state_defs, get_ref, set_ref, watch_ref = self.state_functions(names, watch, node)
        info = self._info(node, names, body, A.loaded(node.test))
        run = T.call(T.rt("while_stmt"), [T.load(test_name), T.load(body_name), get_ref,
                                          set_ref, T.const(tuple(names)), T.const(info),
                                          watch_ref])
        return [test_def, body_def] + state_defs + [T.located(T.expr(run), node)] + node.orelse

    def visit_For(self, node):
        self.generic_visit(node)
        if not self.scopes:
            return node
        bind = T.located(ast.Assign(targets=[node.target], value=T.load("ms__itr")), node)
        body = [bind] + node.body
        names = self.state_names(body)
        watch = self.watch_names(node.body, names)
        body_name = T.fresh_fn("body")
        body_def = T.located(T.fn_def(body_name, ["ms__itr"], self.header(body) + body), node)
        state_defs, get_ref, set_ref, watch_ref = self.state_functions(names, watch, node)
        flags = getattr(node, "ms_flags", None)
        extra = ast.Constant(None)
        if flags:
            test = T.call(T.rt("loop_cond"), [ast.Tuple(elts=[T.load(f) for f in flags],
                                                        ctx=ast.Load()), ast.Constant(None)])
            extra = T.thunk(test)
        info = self._info(node, names, body, set(A.loaded(body)))  # read by a next iteration
        run = T.call(T.rt("for_stmt"), [node.iter, extra, T.load(body_name), get_ref, set_ref,
                                        T.const(tuple(names)), T.const(info), watch_ref])
        return [body_def] + state_defs + [T.located(T.expr(run), node)] + node.orelse


def transform(fn_node, filename, function=""):
    return LoopConverter(filename, function).visit(fn_node)
