"""Finding the source of a function and its syntax tree, at the user's lines.

ast capture converts a function from its source, as MindSpore does. The
whole file the function lives in is parsed once (cached per file text), and
the function's node is found by its code object: a ``def`` by its first line
(decorators included) and name, a ``lambda`` by its line and, when one line
holds several, by its arguments and by the source positions of its
instructions (``co_positions``), never by the line alone. Parsing the whole file
keeps every node's line *and column* exactly where the user wrote it, so the
converted code can be compiled under the user's file name and its frames,
tracebacks and jaxpr source locations point at the user's lines.

Functions with no source (typed at an interactive prompt, built by ``exec``)
raise ``SourceUnavailableError`` (an ``OSError``, like MindSpore's "can not
compile temporary source code in terminal").
"""
from __future__ import annotations

import ast
import linecache
import threading

from msxla.capture.ast.errors import SourceUnavailableError, user_error

_lock = threading.Lock()
_files: dict = {}  # filename -> (text hash, {first line: [nodes]})
_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef)


def function_node(fn):
    """``(node, filename)``: the ``FunctionDef`` or ``Lambda`` that compiled to ``fn``."""
    code = fn.__code__
    filename = code.co_filename
    index = _file_index(fn, filename)
    candidates = [n for n in index.get(code.co_firstlineno, ()) if _matches(n, code)]
    if len(candidates) > 1:
        candidates = _by_position(candidates, code)
    if not candidates:
        raise _missing(fn, filename, "its definition was not found in the file (was the file "
                       "changed after it was imported?)")
    return candidates[0], filename


def _file_index(fn, filename):
    linecache.checkcache(filename)
    lines = linecache.getlines(filename, getattr(fn, "__globals__", None))
    if not lines:
        raise _missing(fn, filename, "the file's source is not available")
    text = "".join(lines)
    key = hash(text)
    with _lock:
        cached = _files.get(filename)
        if cached is not None and cached[0] == key:
            return cached[1]
    try:
        tree = ast.parse(text, filename)
    except SyntaxError as err:
        raise _missing(fn, filename, f"the file does not parse ({err.msg})") from None
    index: dict = {}
    for node in ast.walk(tree):
        if isinstance(node, _DEFS):
            first = min([d.lineno for d in node.decorator_list] + [node.lineno])
            index.setdefault(first, []).append(node)
        elif isinstance(node, ast.Lambda):
            index.setdefault(node.lineno, []).append(node)
    with _lock:
        _files[filename] = (key, index)
    return index


def _matches(node, code):
    if isinstance(node, ast.Lambda):
        return code.co_name == "<lambda>"
    return node.name == code.co_name


def _arg_names(args: ast.arguments):
    names = [a.arg for a in args.posonlyargs + args.args]
    if args.vararg:
        names.append(args.vararg.arg)
    names += [a.arg for a in args.kwonlyargs]
    if args.kwarg:
        names.append(args.kwarg.arg)
    return names


def _by_position(nodes, code):
    """Several functions start on one line: pick by arguments, then by where the
    code's instructions are (``co_positions``): the innermost node whose body
    holds all of them."""
    n_args = code.co_argcount + code.co_kwonlyargcount + bool(code.co_flags & 0x04) + bool(
        code.co_flags & 0x08)
    wanted = list(code.co_varnames[:n_args])
    nodes = [n for n in nodes if isinstance(n, _DEFS) or _arg_names(n.args) == wanted] or nodes
    spans = [(line, col, end_line, end_col) for line, end_line, col, end_col in
             code.co_positions() if None not in (line, end_line, col, end_col)
             and (line, col) != (end_line, end_col)]  # RESUME and the like have no span
    if len(nodes) > 1 and spans:
        inside = [n for n in nodes if all(_holds(n, s) for s in spans)]
        nodes = sorted(inside, key=_extent)[:1] or nodes
    return nodes


def _body_span(node):
    body = node.body if isinstance(node, ast.Lambda) else node.body[0]
    last = node.body if isinstance(node, ast.Lambda) else node.body[-1]
    return body.lineno, body.col_offset, last.end_lineno, last.end_col_offset


def _holds(node, span):
    line, col, end_line, end_col = _body_span(node)
    return (line, col) <= span[:2] and span[2:] <= (end_line, end_col)


def _extent(node):
    line, col, end_line, end_col = _body_span(node)
    return (end_line - line, end_col - col)


def _missing(fn, filename, why):
    name = getattr(fn, "__qualname__", getattr(fn, "__name__", repr(fn)))
    return user_error(
        SourceUnavailableError,
        f"capture_mode='ast' could not get the source code of '{name}' (file '{filename}'): "
        f"{why}.",
        hint="ast capture compiles a function from its source, so the function must be "
             "defined in a .py file (not typed at an interactive prompt or built with exec); "
             "move it into a file, or use capture_mode='trace' or 'bytecode'.")
