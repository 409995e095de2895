"""Showing converted code: each line with the user's line it came from.

``listing(node, filename)`` prints a converted function as Python source
where every statement ends with ``# <file>:<line>``: the source map of the
conversion (generated statements carry the line of the user's statement
they replace). Set ``MSXLA_DEBUG_AST=1`` to log the listing of every
function ast capture converts, or call ``msxla.capture.ast.converted_source``.
"""
from __future__ import annotations

import ast
import os

from msxla import flags
from msxla._log import LOG


def enabled() -> bool:
    return flags.debug_ast()


def announce(name, text):
    LOG.warning("ast capture converted '%s':\n%s", name, text)


def listing(node, filename) -> str:
    base = os.path.basename(filename)
    lines: list[str] = []
    _emit([node], 0, lines, base)
    return "\n".join(lines)


def _line(text, indent, node, base, lines):
    where = f"  # {base}:{node.lineno}" if getattr(node, "lineno", None) else ""
    for i, part in enumerate(text.splitlines() or [""]):
        lines.append("    " * indent + part + (where if i == 0 else ""))


def _emit(stmts, indent, lines, base):
    for s in stmts:
        blocks = _blocks(s)
        if blocks is None:
            _line(ast.unparse(s), indent, s, base, lines)
            continue
        for deco in getattr(s, "decorator_list", ()):
            _line("@" + ast.unparse(deco), indent, s, base, lines)
        for header, body in blocks:
            _line(header, indent, s, base, lines)
            _emit(body or [ast.Pass()], indent + 1, lines, base)


def _blocks(s):
    u = ast.unparse
    if isinstance(s, ast.FunctionDef):
        return [(f"def {s.name}({u(s.args)}):", s.body)]
    if isinstance(s, ast.ClassDef):
        return [(f"class {s.name}:", s.body)]
    if isinstance(s, ast.If):
        return [(f"if {u(s.test)}:", s.body)] + ([("else:", s.orelse)] if s.orelse else [])
    if isinstance(s, ast.While):
        return [(f"while {u(s.test)}:", s.body)] + ([("else:", s.orelse)] if s.orelse else [])
    if isinstance(s, ast.For):
        head = f"for {u(s.target)} in {u(s.iter)}:"
        return [(head, s.body)] + ([("else:", s.orelse)] if s.orelse else [])
    if isinstance(s, ast.With):
        return [("with " + ", ".join(u(i) for i in s.items) + ":", s.body)]
    if isinstance(s, ast.Try):
        out = [("try:", s.body)]
        for h in s.handlers:
            head = "except" + (f" {u(h.type)}" if h.type else "") + (f" as {h.name}"
                                                                      if h.name else "")
            out.append((head + ":", h.body))
        if s.orelse:
            out.append(("else:", s.orelse))
        if s.finalbody:
            out.append(("finally:", s.finalbody))
        return out
    return None
