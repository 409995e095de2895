"""Static facts about a function body that the converters need.

- ``assigned(stmts)``: the names a block binds in its own scope, in order
  (generated helper functions count through their ``nonlocal`` lists);
- ``loaded(node)``: the names an expression or block reads (nested functions
  and lambdas included: they may read them later);
- ``declarations(fn)``: names declared ``global`` / ``nonlocal`` in a function;
- ``annotate_liveness(fn)``: for every ``if`` / ``while`` / ``for`` the set of
  names live after it (``node.ms_live_out``), by a backward pass over the
  structured body. A variable defined in only one branch of a Tensor ``if`` is
  an error only if it is live afterwards; loop temporaries are not carried;
- ``last_assignments(stmts)``: where each name was last assigned in a block,
  so a join error can name the lines of both branches;
- ``always_returns(stmts)``: every path through the block ends in ``return``
  or ``raise``.
"""
from __future__ import annotations

import ast

from msxla.capture.ast.templates import FN_PREFIX, is_generated_fn

_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


def _target_names(target, out):
    if isinstance(target, ast.Name):
        out.append(target.id)
    elif isinstance(target, (ast.Tuple, ast.List)):
        for t in target.elts:
            _target_names(t, out)
    elif isinstance(target, ast.Starred):
        _target_names(target.value, out)


class _Binder(ast.NodeVisitor):
    def __init__(self):
        self.names = []

    def visit_FunctionDef(self, node):
        if node.name.startswith(FN_PREFIX):
            for stmt in node.body:
                if isinstance(stmt, ast.Nonlocal):
                    self.names.extend(stmt.names)
            return
        self.names.append(node.name)

    visit_AsyncFunctionDef = visit_ClassDef = visit_FunctionDef

    def visit_Lambda(self, node):
        pass

    def _comprehension(self, node):  # only walrus targets leak out; rare, handled by Python
        pass

    visit_ListComp = visit_SetComp = visit_DictComp = visit_GeneratorExp = _comprehension

    def visit_Name(self, node):
        if isinstance(node.ctx, (ast.Store, ast.Del)):
            self.names.append(node.id)

    def visit_Import(self, node):
        for alias in node.names:
            self.names.append((alias.asname or alias.name).split(".")[0])

    visit_ImportFrom = visit_Import

    def visit_ExceptHandler(self, node):
        if node.name:
            self.names.append(node.name)
        self.generic_visit(node)

    def visit_NamedExpr(self, node):
        self.names.append(node.target.id)
        self.visit(node.value)


def assigned(stmts) -> list:
    """Names bound by ``stmts`` in their scope, first binding first, no repeats."""
    binder = _Binder()
    for s in (stmts if isinstance(stmts, list) else [stmts]):
        binder.visit(s)
    return list(dict.fromkeys(binder.names))


def loaded(node) -> set:
    """Every name read in ``node`` (a node or a list of nodes), nested scopes included."""
    out = set()
    for top in (node if isinstance(node, list) else [node]):
        for n in ast.walk(top):
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load):
                out.add(n.id)
    return out


def declarations(fn_node):
    """``(globals, nonlocals)`` declared directly in a function's scope."""
    glob, nonloc = set(), set()
    stack = list(fn_node.body)
    while stack:
        n = stack.pop()
        if isinstance(n, ast.Global):
            glob.update(n.names)
        elif isinstance(n, ast.Nonlocal):
            nonloc.update(n.names)
        elif isinstance(n, _SCOPES) and not is_generated_fn(n):
            continue
        stack.extend(ast.iter_child_nodes(n))
    return glob, nonloc


def params(fn_node) -> list:
    a = fn_node.args
    names = [x.arg for x in a.posonlyargs + a.args + a.kwonlyargs]
    names += [x.arg for x in (a.vararg, a.kwarg) if x is not None]
    return names


# ------------------------------------------------------------ liveness
def annotate_liveness(fn_node):
    """Set ``ms_live_out`` on every if/while/for of the function (not nested defs)."""
    _block(fn_node.body, set())


def _block(stmts, live):
    for s in reversed(stmts):
        live = _stmt(s, live)
    return live


def _stmt(s, out):
    if isinstance(s, ast.If):
        s.ms_live_out = set(out)
        return loaded(s.test) | _block(s.body, out) | _block(s.orelse, out)
    if isinstance(s, (ast.While, ast.For)):
        s.ms_live_out = set(out)
        head_uses = loaded(s.test) if isinstance(s, ast.While) else set()
        exit_live = out | _block(s.orelse, out)
        head = exit_live | head_uses
        for _ in range(8):
            body_in = _block(s.body, head)
            if isinstance(s, ast.For):
                body_in = body_in - set(assigned([ast.Assign(targets=[s.target],
                                                             value=ast.Constant(0))]))
            new = exit_live | head_uses | body_in
            if new == head:
                break
            head = new
        return head | (loaded(s.iter) if isinstance(s, ast.For) else set())
    if isinstance(s, (ast.Return, ast.Raise)):
        return loaded(s)
    if isinstance(s, ast.Try if not hasattr(ast, "TryStar") else (ast.Try, ast.TryStar)):
        return out | loaded(s)
    if isinstance(s, (ast.With, ast.AsyncWith)):
        inner = _block(s.body, out)
        return (inner - set(assigned([i.optional_vars for i in s.items if i.optional_vars]))
                ) | loaded([i.context_expr for i in s.items])
    if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return (out - {s.name}) | loaded(s)
    defs = set(assigned(s))
    uses = loaded(s)
    if isinstance(s, ast.AugAssign) and isinstance(s.target, ast.Name):
        uses.add(s.target.id)
    return (out - defs) | uses


# -------------------------------------------------------- locations
def last_assignments(stmts) -> dict:
    """``name -> node`` of the last statement in ``stmts`` (nested blocks and
    generated helpers included) that assigns the name."""
    found: dict = {}
    for top in stmts:
        for n in ast.walk(top):
            if isinstance(n, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.For, ast.With)):
                targets = (n.targets if isinstance(n, ast.Assign) else
                           [n.target] if not isinstance(n, ast.With) else
                           [i.optional_vars for i in n.items if i.optional_vars])
                names = []
                for t in targets:
                    _target_names(t, names)
                for name in names:
                    prev = found.get(name)
                    if prev is None or (n.lineno, n.col_offset) >= (prev.lineno, prev.col_offset):
                        found[name] = n
    return found


def always_returns(stmts) -> bool:
    if not stmts:
        return False
    last = stmts[-1]
    if isinstance(last, (ast.Return, ast.Raise)):
        return True
    if isinstance(last, ast.If):
        return always_returns(last.body) and always_returns(last.orelse)
    if isinstance(last, (ast.With, ast.AsyncWith)):
        return always_returns(last.body)
    return False


def contains(node, types, stop=_SCOPES) -> bool:
    """Whether ``node`` holds a node of ``types`` outside nested scopes."""
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, types):
            return True
        for child in ast.iter_child_nodes(n):
            if not isinstance(child, stop):
                stack.append(child)
    return False


def mark_opaque(root):
    """Mark the parts the control-flow converters must leave alone (``ms_skip``):
    class bodies, generator and async functions (their ``yield`` / ``await``
    cannot move into generated helper functions); they run as plain Python."""
    for n in ast.walk(root):
        generator = isinstance(n, ast.FunctionDef) and contains(
            n, (ast.Yield, ast.YieldFrom, ast.Await), stop=_SCOPES)
        if generator or isinstance(n, (ast.ClassDef, ast.AsyncFunctionDef)):
            n.ms_skip = True
    return root


def skipped(node) -> bool:
    return getattr(node, "ms_skip", False)


def functions(node) -> list:
    """``node`` and the user functions nested in it, innermost first, leaving out
    skipped parts (class bodies, generators) and generated helpers."""
    out = []
    for child in ast.iter_child_nodes(node):
        if not skipped(child):
            out.extend(functions(child))
    if isinstance(node, ast.FunctionDef) and not skipped(node) and not is_generated_fn(node):
        out.append(node)
    return out
