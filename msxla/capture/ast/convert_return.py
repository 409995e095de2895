"""Early ``return`` becomes one exit at the end of the function.

A ``return`` inside a Tensor ``if`` or loop cannot leave a graph branch, so
every ``return v`` becomes ``ms__retval = v; ms__do_return = True``; the
statements after it run under ``if not ms__do_return:``, every loop around it
also stops on the flag, and the function ends with one
``return ms__.ret(ms__do_return, ms__retval, always)``. A function whose only
``return`` is its last statement is left as it is.

Before::

    def f(x):
        if x.sum() > 0:
            return x * 2
        y = x - 1
        return y

After::

    def f(x):
        ms__do_return = False
        ms__retval = ms__.undefined('return value')
        if x.sum() > 0:
            ms__retval = x * 2
            ms__do_return = True
        if not ms__do_return:
            y = x - 1
            ms__retval = y
            ms__do_return = True
        return ms__.ret(ms__do_return, ms__retval, True)

``always`` says whether every path of the original ends in ``return`` or
``raise``; when the flag is a Tensor at the end and some path could fall off
the end (returning None), ``ms__.ret`` raises instead of inventing a value.
"""
from __future__ import annotations

import ast

from msxla.capture.ast import analysis as A
from msxla.capture.ast import templates as T
from msxla.capture.ast.convert_jumps import add_loop_flag, guard_block, sets_flag

DO_RETURN = "ms__do_return"
RETVAL = "ms__retval"


class _ReplaceReturn(ast.NodeTransformer):
    def visit_Return(self, node):
        value = node.value if node.value is not None else ast.Constant(None)
        return T.located([T.assign(RETVAL, value), T.assign(DO_RETURN, ast.Constant(True))],
                         node)

    def _loop(self, node):
        self.generic_visit(node)
        if sets_flag(node, DO_RETURN):
            add_loop_flag(node, DO_RETURN)
        return node

    visit_For = visit_While = _loop

    def _skip(self, node):
        return node

    visit_FunctionDef = visit_AsyncFunctionDef = visit_Lambda = visit_ClassDef = _skip


def _returns(fn_node):
    found = []
    stack = list(fn_node.body)
    while stack:
        n = stack.pop()
        if isinstance(n, ast.Return):
            found.append(n)
        for child in ast.iter_child_nodes(n):
            if not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda,
                                      ast.ClassDef)):
                stack.append(child)
    return found


def transform(fn_node):
    """Rewrite ``fn_node``'s returns (nested functions are handled when visited)."""
    for child in A.functions(fn_node):
        _transform_one(child)
    return fn_node


def _transform_one(fn_node):
    found = _returns(fn_node)
    body = fn_node.body
    if not found or (len(found) == 1 and body and found[0] is body[-1]):
        return
    always = A.always_returns(body)
    replacer = _ReplaceReturn()
    new_body = []
    for s in body:
        r = replacer.visit(s)
        new_body.extend(r if isinstance(r, list) else [r])
    first = body[0]
    prologue = [T.assign(DO_RETURN, ast.Constant(False)),
                T.assign(RETVAL, T.call(T.rt("undefined"), [ast.Constant("return value")]))]
    epilogue = ast.Return(value=T.call(T.rt("ret"), [T.load(DO_RETURN), T.load(RETVAL),
                                                     ast.Constant(always)]))
    fn_node.body = (T.located(prologue, first) + guard_block(new_body, DO_RETURN, True)
                    + [T.located(epilogue, body[-1])])
