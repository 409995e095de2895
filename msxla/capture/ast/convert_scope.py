"""What the control-flow converters share: scopes and state functions.

A converted ``if`` or loop moves its body into generated helper functions
that rebind the enclosing function's variables through ``nonlocal``. The
runtime reads and writes those variables as one tuple through two more
helpers (AutoGraph's get_state / set_state)::

    def ms__f_get_4():
        return (a, b)

    def ms__f_set_4(ms__v):
        nonlocal a, b
        (a, b) = ms__v

``nonlocal`` needs each variable to exist in the enclosing function, so the
function starts with ``a = ms__.undefined('a')`` for every such variable that
is not a parameter (an ``Undefined`` raises on use, like an unbound local).
Names declared ``global`` are not state: helpers declare them ``global``.
"""
from __future__ import annotations

import ast
import dataclasses

from msxla.capture.ast import analysis as A
from msxla.capture.ast import templates as T


@dataclasses.dataclass
class Scope:
    node: ast.FunctionDef
    params: set
    globals: set
    nonlocals: set
    locals: set
    rebound_by_calls: list = dataclasses.field(default_factory=list)
    needs_init: dict = dataclasses.field(default_factory=dict)


def _rebound_by_nested(fn_node, local):
    """This function's variables that functions nested in it rebind (``nonlocal``)."""
    out = []
    for n in ast.walk(fn_node):
        if n is not fn_node and isinstance(n, ast.FunctionDef) and not T.is_generated_fn(n):
            out += [name for name in A.declarations(n)[1] if name in local]
    return list(dict.fromkeys(out))


class ControlFlowBase(ast.NodeTransformer):
    """Tracks the user's function scopes; generated helpers are transparent."""

    def __init__(self, filename, function=""):
        self.filename = filename
        self.function = function
        self.scopes: list[Scope] = []

    def visit_FunctionDef(self, node):
        if A.skipped(node):
            return node
        if T.is_generated_fn(node):
            self.generic_visit(node)
            return node
        glob, nonloc = A.declarations(node)
        prm = set(A.params(node))
        local = prm | set(A.assigned(node.body))
        scope = Scope(node, prm, glob, nonloc, local, _rebound_by_nested(node, local))
        self.scopes.append(scope)
        try:
            self.generic_visit(node)
        finally:
            self.scopes.pop()
        inits = [T.located(T.assign(n, T.call(T.rt("undefined"), [ast.Constant(n)])),
                           node.body[0]) for n in scope.needs_init]
        if inits:
            node.body = inits + node.body
        return node

    def visit_ClassDef(self, node):
        return node

    visit_AsyncFunctionDef = visit_ClassDef

    @property
    def scope(self) -> Scope:
        return self.scopes[-1]

    # ------------------------------------------------------------- helpers
    def state_names(self, stmts, extra=()):
        """The variables a construct may rebind: those it assigns, and (if it calls
        anything) those nested functions rebind through ``nonlocal``."""
        scope = self.scope
        extra = list(extra)
        if scope.rebound_by_calls and any(isinstance(n, ast.Call) for s in stmts
                                          for n in ast.walk(s)):
            extra += scope.rebound_by_calls
        names = [n for n in A.assigned(stmts) + extra if n not in scope.globals
                 and not n.startswith(T.FN_PREFIX)]
        names = list(dict.fromkeys(names))
        for n in names:
            if n not in scope.params and n not in scope.nonlocals:
                scope.needs_init.setdefault(n, None)
        return names

    def watch_names(self, nodes, names):
        """Local variables read (not assigned) by a construct: their Tensors may be
        modified in place (``x[0] = 1``, ``ops.assign(x, ...)``) inside it."""
        scope = self.scope
        return sorted(n for n in A.loaded(nodes) if n in scope.locals and n not in names
                      and not n.startswith("ms__"))

    def header(self, stmts):
        """``nonlocal`` / ``global`` lines for a helper that runs ``stmts``."""
        scope = self.scope
        bound = A.assigned(stmts)
        glob = [n for n in bound if n in scope.globals]
        local = [n for n in bound if n not in scope.globals and not n.startswith(T.FN_PREFIX)]
        out = T.nonlocal_(local)
        if glob:
            out.append(ast.Global(names=glob))
        return out

    def state_functions(self, names, watch, origin):
        """``(get, set, watch)`` helper defs and the names to pass to the runtime."""
        get_name, set_name = T.fresh_fn("get"), T.fresh_fn("set")
        tup = ast.Tuple(elts=[T.load(n) for n in names], ctx=ast.Load())
        get_def = T.fn_def(get_name, [], [ast.Return(value=tup)])
        target = ast.Tuple(elts=[T.store(n) for n in names], ctx=ast.Store())
        set_body = (T.nonlocal_(names) + [ast.Assign(targets=[target], value=T.load("ms__v"))]
                    if names else [ast.Pass()])
        set_def = T.fn_def(set_name, ["ms__v"], set_body)
        defs = [get_def, set_def]
        watch_ref = ast.Constant(None)
        if watch:
            watch_name = T.fresh_fn("watch")
            wt = ast.Tuple(elts=[T.load(n) for n in watch], ctx=ast.Load())
            defs.append(T.fn_def(watch_name, [], [ast.Return(value=wt)]))
            watch_ref = T.load(watch_name)
        T.located(defs, origin)
        return defs, T.load(get_name), T.load(set_name), watch_ref

    def where(self, node):
        return T.where(node, self.function)

    def assignment_wheres(self, stmts, names, default):
        last = A.last_assignments(stmts)
        return tuple(self.where(last[n]) if n in last else default for n in names)
