"""Syntax refused before conversion, at the user's line.

Under ``fullgraph=True`` (``jit_syntax_level`` STRICT) the function must be
all graph: the statements MindSpore's graph syntax lacks are compile errors
that point at the construct and say what to change. Under ``fullgraph=False``
(LAX) they run as plain Python while the graph is captured (``fallback.py``
says why that is correct); MindSpore 2.10 refuses most of them even in LAX.

Whatever the level, a jitted function that is itself a generator or a
coroutine is refused: a graph returns values, it cannot suspend.
"""
from __future__ import annotations

import ast

from msxla.capture.ast import analysis as A
from msxla.capture.ast.errors import UNSUPPORTED_HINT, unsupported

# node type -> (MindSpore's name for it, what the user wrote, hint or None)
_STRICT = {
    ast.Try: ("statement 'Try'", "try/except", None),
    ast.ClassDef: ("statement 'ClassDef'", "a class definition",
                   "define the class outside the jitted function, or use fullgraph=False"),
    ast.Delete: ("statement 'Delete'", "del",
                 "drop the del (or assign None instead), or use fullgraph=False"),
    ast.Nonlocal: ("statement 'Nonlocal'", "nonlocal",
                   "return the value instead of rebinding it (or use fullgraph=False)"),
    ast.With: ("statement 'With'", "a with block", None),
    ast.SetComp: ("expression 'SetComp'", "a set comprehension",
                  "build a list or tuple instead, or use fullgraph=False"),
    ast.Yield: ("expression 'Yield'", "yield", "return a tuple or list instead of yielding"),
    ast.YieldFrom: ("expression 'YieldFrom'", "yield from", "return a tuple or list instead"),
    ast.Await: ("expression 'Await'", "await", None),
    ast.AsyncFunctionDef: ("statement 'AsyncFunctionDef'", "an async function", None),
    ast.AsyncFor: ("statement 'AsyncFor'", "async for", None),
    ast.AsyncWith: ("statement 'AsyncWith'", "async with", None),
    ast.Match: ("statement 'Match'", "match/case", "use if/elif instead, or use fullgraph=False"),
}
if hasattr(ast, "TryStar"):
    _STRICT[ast.TryStar] = ("statement 'TryStar'", "try/except*", None)


def check(fn_node, filename, strict, function=""):
    """Raise for syntax the level does not allow (``fn_node`` is the jitted function)."""
    if isinstance(fn_node, ast.AsyncFunctionDef) or A.contains(
            fn_node, (ast.Yield, ast.YieldFrom, ast.Await)):
        bad = _first(fn_node, (ast.Yield, ast.YieldFrom, ast.Await), own_scope=True) or fn_node
        kind, what, hint = _STRICT.get(type(bad), _STRICT[ast.AsyncFunctionDef])
        raise unsupported(filename, bad, f"Unsupported {kind}: '{function}' contains {what}; "
                          "a graph returns its results, it cannot suspend.",
                          function, hint or "jit a function that returns its values")
    if not strict:
        return
    bad = _first(fn_node, tuple(_STRICT))
    if bad is not None:
        kind, what, hint = _STRICT[type(bad)]
        raise unsupported(filename, bad, f"Unsupported {kind}: {what} is not supported in "
                          "graph mode with fullgraph=True (jit_syntax_level STRICT).", function,
                          hint or UNSUPPORTED_HINT)


def _first(root, types, own_scope=False):
    """The first node of ``types`` in source order (only in ``root``'s own scope if asked)."""
    found = None
    stack = list(ast.iter_child_nodes(root))
    while stack:
        n = stack.pop()
        if isinstance(n, types) and (found is None or (n.lineno, n.col_offset) <
                                     (found.lineno, found.col_offset)):
            found = n
        if own_scope and isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda,
                                        ast.ClassDef)):
            continue
        stack.extend(ast.iter_child_nodes(n))
    return found
