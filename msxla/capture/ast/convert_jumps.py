"""``break`` and ``continue`` become flags, so loops can be graph loops.

A graph loop has no jumps: its body runs to the end and its condition is
tested again. Each ``break`` becomes ``ms__break_N = True`` and the loop's
condition also tests the flag; each ``continue`` becomes
``ms__continue_N = True`` (reset at the top of the body). The statements
after a statement that may set a flag run under ``if not flag:``. When the
flag is a Python bool this is exactly the original control flow; when it is a
Tensor (the jump sat under a Tensor ``if``) it becomes graph control flow.

Before::

    while x.sum() < 10:
        x = x + 1
        if x.max() > 5:
            break
        y = x
    else:
        z = 0

After::

    ms__break_1 = False
    while ms__.loop_cond((ms__break_1,), lambda: x.sum() < 10):
        x = x + 1
        if x.max() > 5:
            ms__break_1 = True
        if not ms__break_1:
            y = x
    if not ms__break_1:
        z = 0

``for`` loops get the flags as ``node.ms_flags`` (read by the loop converter,
which passes them to ``ms__.for_stmt`` as its extra test).
"""
from __future__ import annotations

import ast

from msxla.capture.ast import analysis as A
from msxla.capture.ast import templates as T

_LOOPS = (ast.For, ast.While)
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


def sets_flag(node, flag) -> bool:
    """Whether ``node`` (outside nested functions) may assign True to ``flag``."""
    stack = [node]
    while stack:
        n = stack.pop()
        if (isinstance(n, ast.Assign) and len(n.targets) == 1
                and isinstance(n.targets[0], ast.Name) and n.targets[0].id == flag
                and isinstance(n.value, ast.Constant) and n.value.value is True):
            return True
        for child in ast.iter_child_nodes(n):
            if not isinstance(child, _SCOPES) or T.is_generated_fn(child):
                stack.append(child)
    return False


def guard_block(stmts, flag, into_loops=False):
    """Run the statements after one that may set ``flag`` only while it is False."""
    out = []
    for i, s in enumerate(stmts):
        s = _guard_nested(s, flag, into_loops)
        out.append(s)
        rest = stmts[i + 1:]
        if rest and sets_flag(s, flag):
            guarded = ast.If(test=T.not_(T.load(flag)), body=guard_block(rest, flag, into_loops),
                             orelse=[])
            out.append(T.located(guarded, rest[0]))
            break
    return out


def _guard_nested(s, flag, into_loops):
    if isinstance(s, _LOOPS) and not into_loops:
        return s
    for field in ("body", "orelse", "finalbody"):
        block = getattr(s, field, None)
        if isinstance(block, list) and block and isinstance(block[0], ast.stmt) and \
                not isinstance(s, _SCOPES):
            setattr(s, field, guard_block(block, flag, into_loops))
    for handler in getattr(s, "handlers", ()):
        handler.body = guard_block(handler.body, flag, into_loops)
    return s


def add_loop_flag(loop, flag):
    """Make ``loop`` stop when ``flag`` is set: in its test (while) or its flags (for)."""
    if isinstance(loop, ast.While):
        flags = ast.Tuple(elts=[T.load(flag)], ctx=ast.Load())
        test = T.call(T.rt("loop_cond"), [flags, T.thunk(loop.test)])
        loop.test = T.located(test, loop.test)
    else:
        loop.ms_flags = getattr(loop, "ms_flags", []) + [flag]


class _ReplaceJump(ast.NodeTransformer):
    """Replace this loop's own ``break`` / ``continue`` by ``flag = True``."""

    def __init__(self, kind, flag):
        self.kind, self.flag, self.found = kind, flag, False

    def visit_Break(self, node):
        return self._jump(node, ast.Break)

    def visit_Continue(self, node):
        return self._jump(node, ast.Continue)

    def _jump(self, node, kind):
        if kind is not self.kind:
            return node
        self.found = True
        return T.located(T.assign(self.flag, ast.Constant(True)), node)

    def _skip(self, node):
        return node

    visit_For = visit_While = visit_FunctionDef = visit_AsyncFunctionDef = _skip
    visit_Lambda = visit_ClassDef = _skip


class JumpConverter(ast.NodeTransformer):
    def _scope(self, node):
        if not A.skipped(node):
            self.generic_visit(node)
        return node

    visit_FunctionDef = visit_AsyncFunctionDef = visit_ClassDef = _scope

    def _loop(self, node):
        self.generic_visit(node)  # inner loops first: their jumps are theirs
        out = []
        cont = T.fresh("continue")
        rep = _ReplaceJump(ast.Continue, cont)
        node.body = [rep.visit(s) for s in node.body]
        if rep.found:
            node.body = [T.located(T.assign(cont, ast.Constant(False)), node.body[0])] + \
                guard_block(node.body, cont)
        brk = T.fresh("break")
        rep = _ReplaceJump(ast.Break, brk)
        node.body = [rep.visit(s) for s in node.body]
        if not rep.found:
            return node
        node.body = guard_block(node.body, brk)
        add_loop_flag(node, brk)
        out.append(T.located(T.assign(brk, ast.Constant(False)), node))
        out.append(node)
        if node.orelse:
            guard = ast.If(test=T.not_(T.load(brk)), body=node.orelse, orelse=[])
            out.append(T.located(guard, node.orelse[0]))
            node.orelse = []
        return out

    visit_While = visit_For = _loop


def transform(fn_node):
    return JumpConverter().visit(fn_node)
