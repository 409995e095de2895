"""Small builders for the syntax the converters generate.

Every generated name starts with ``ms__``: ``ms__`` itself is the runtime
(``msxla.capture.ast.runtime``), ``ms__f_*`` are generated helper functions
(branch and loop bodies, state getters and setters) and other ``ms__*`` names
are generated variables (``ms__do_return``, ``ms__break_3``). Generated nodes
take the location of the user's statement they replace (``located``), so the
converted code keeps the user's line numbers.
"""
from __future__ import annotations

import ast
import itertools

RT = "ms__"
FN_PREFIX = "ms__f_"
_counter = itertools.count(1)


def fresh(kind: str) -> str:
    return f"ms__{kind}_{next(_counter)}"


def fresh_fn(kind: str) -> str:
    return f"{FN_PREFIX}{kind}_{next(_counter)}"


def is_generated_fn(node) -> bool:
    return isinstance(node, ast.FunctionDef) and node.name.startswith(FN_PREFIX)


def load(name):
    return ast.Name(id=name, ctx=ast.Load())


def store(name):
    return ast.Name(id=name, ctx=ast.Store())


def rt(attr):
    """``ms__.<attr>``."""
    return ast.Attribute(value=load(RT), attr=attr, ctx=ast.Load())


def is_rt_call(node, attr=None) -> bool:
    f = getattr(node, "func", None)
    return (isinstance(node, ast.Call) and isinstance(f, ast.Attribute)
            and isinstance(f.value, ast.Name) and f.value.id == RT
            and (attr is None or f.attr == attr))


def call(func, args=(), keywords=()):
    return ast.Call(func=func, args=list(args), keywords=list(keywords))


def kw(name, value):
    return ast.keyword(arg=name, value=value)


def const(value):
    """A literal for a (nested) tuple of constants."""
    if isinstance(value, (tuple, list)):
        return ast.Tuple(elts=[const(v) for v in value], ctx=ast.Load())
    return ast.Constant(value=value)


def assign(name, value):
    return ast.Assign(targets=[store(name)], value=value)


def expr(value):
    return ast.Expr(value=value)


def thunk(body_expr):
    """``lambda: <expr>`` (marked as generated)."""
    node = ast.Lambda(args=_no_args(), body=body_expr)
    node.ms_generated = True
    return node


def _no_args():
    return ast.arguments(posonlyargs=[], args=[], vararg=None, kwonlyargs=[], kw_defaults=[],
                         kwarg=None, defaults=[])


def fn_def(name, params, body, decorate=False):
    """``def name(params): body`` (optionally marked as already converted)."""
    args = _no_args()
    args.args = [ast.arg(arg=p) for p in params]
    deco = [rt("converted")] if decorate else []
    return ast.FunctionDef(name=name, args=args, body=list(body) or [ast.Pass()],
                           decorator_list=deco, returns=None)


def nonlocal_(names):
    return [ast.Nonlocal(names=list(names))] if names else []


def not_(value):
    return ast.UnaryOp(op=ast.Not(), operand=value)


def located(nodes, origin):
    """Give every node in ``nodes`` (and below) without a location ``origin``'s location."""
    single = not isinstance(nodes, list)
    for top in ([nodes] if single else nodes):
        for node in ast.walk(top):
            if "lineno" in node._attributes and getattr(node, "lineno", None) is None:
                node.lineno = origin.lineno
                node.col_offset = origin.col_offset
                node.end_lineno = getattr(origin, "end_lineno", origin.lineno)
                node.end_col_offset = getattr(origin, "end_col_offset", origin.col_offset)
    return nodes


def where(node, function=""):
    """``(line, col, end_col, function)`` of a node, as generated code records it."""
    end_col = node.end_col_offset if getattr(node, "end_lineno", None) == node.lineno else None
    return (node.lineno, node.col_offset, end_col, function)
