"""Converting one function: the ordered pipeline, compiling, caching.

``convert(fn, strict)`` returns a new function with ``fn``'s globals,
closure cells and defaults whose code is ``fn``'s source rewritten so that
control flow can become graph control flow. The rewritten syntax tree is
compiled under the user's file name with the user's line numbers, so
tracebacks, error carets and the graph's source locations all point at the
user's code. Because the new function shares ``fn``'s globals dict and
closure cells, it reads their values when it runs (at capture time); the
capture's guards (on the original function, ``discover.py``) recompile when
one changes.

The pipeline, in order (each step relies on the ones before it):

1. ``unsupported.check``: refuse what the syntax level does not allow,
   before anything is rewritten (errors point at the original code).
2. ``convert_jumps``: ``break`` / ``continue`` become flags; loops test them.
3. ``convert_return``: early returns become a flag and one final return
   (after jumps, so a ``return`` in a loop stops loops that already test
   flags).
4. liveness: which names each if/loop must hand on (needs the final shape of
   the statements, so after 2-3, before 5-7 move statements into helpers).
5. ``convert_calls``: calls go through ``ms__.call``; f-strings and
   ``%``-formatting become runtime formatting; ``del`` becomes undefined.
6. ``convert_loops`` then ``convert_if``: statements become runtime calls
   with generated helper functions (loops first: a loop's body may hold
   ``if`` statements the if-converter then finds inside the loop helper).
7. ``convert_if`` (conditional expressions) and ``convert_boolops``:
   expression rewrites, last, so they also apply to the tests and flags the
   earlier steps generated.
"""
from __future__ import annotations

import ast
import copy
import threading
import types
import weakref

from msxla.capture.ast import analysis as A
from msxla.capture.ast import (
    convert_boolops,
    convert_calls,
    convert_if,
    convert_jumps,
    convert_loops,
    convert_return,
    debug,
    parse,
    unsupported,
)
from msxla.capture.ast import templates as T

_lock = threading.Lock()
_cache: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # code -> {strict: Converted}
_runtime_cell = None


class Converted:
    """The converted code of one function, and its listing for debugging."""

    __slots__ = ("code", "filename", "node")

    def __init__(self, code, node, filename):
        self.code, self.node, self.filename = code, node, filename

    def listing(self) -> str:
        text = debug.listing(self.node, self.filename)
        return text.replace("def ms__entry(", f"def {self.code.co_name}(", 1)


def converted_code(fn, strict: bool) -> Converted:
    code = fn.__code__
    with _lock:
        entry = _cache.get(code, {}).get(strict)
    if entry is None:
        entry = _build(fn, strict)
        with _lock:
            _cache.setdefault(code, {})[strict] = entry
        if debug.enabled():
            debug.announce(getattr(fn, "__qualname__", code.co_name), entry.listing())
    return entry


def convert(fn: types.FunctionType, strict: bool = False) -> types.FunctionType:
    """``fn`` converted (a new function object; ``fn`` is not changed)."""
    conv = converted_code(fn, strict)
    code = fn.__code__
    orig = dict(zip(code.co_freevars, fn.__closure__ or ()))
    cells = tuple(_runtime() if name == T.RT else orig[name] for name in conv.code.co_freevars)
    new = types.FunctionType(conv.code, fn.__globals__, fn.__name__, fn.__defaults__, cells)
    new.__kwdefaults__ = fn.__kwdefaults__
    new.__qualname__ = fn.__qualname__
    new.__doc__ = fn.__doc__
    new.__module__ = fn.__module__
    new.__ms_converted__ = True
    return new


def _runtime():
    global _runtime_cell
    if _runtime_cell is None:
        from msxla.capture.ast import runtime
        _runtime_cell = types.CellType(runtime)
    return _runtime_cell


def _build(fn, strict) -> Converted:
    found, filename = parse.function_node(fn)
    code = fn.__code__
    node = copy.deepcopy(found)
    function = code.co_name
    if isinstance(node, ast.Lambda):
        lam = node
        body = T.located([ast.Return(value=lam.body)], lam)
        node = T.located(T.fn_def("ms__entry", [], body), lam)
        node.args = lam.args
    node.decorator_list = []
    node.name = "ms__entry"  # its own name must stay a global (recursion), not a factory local
    _strip_annotations(node)
    _mangle_private_names(node, code)
    unsupported.check(node, filename, strict, function)
    A.mark_opaque(node)
    glob, _ = A.declarations(node)
    node = convert_jumps.transform(node)
    node = convert_return.transform(node)
    for fn_node in A.functions(node):
        A.annotate_liveness(fn_node)
    node = convert_calls.transform(node, frozenset(glob))
    node = convert_loops.transform(node, filename, function)
    node = convert_if.transform(node, filename, function)
    node = convert_boolops.transform(node)
    _mark_nested(node)
    return Converted(_compile(node, code, filename), node, filename)


class _Marker(ast.NodeTransformer):
    """Nested user functions and lambdas are converted with the function that
    defines them: mark them so ``ms__.call`` does not convert them again."""

    def visit_FunctionDef(self, node):
        self.generic_visit(node)
        if not T.is_generated_fn(node):
            node.decorator_list.append(T.located(T.rt("converted"), node))
        return node

    def visit_Lambda(self, node):
        self.generic_visit(node)
        if getattr(node, "ms_generated", False):
            return node
        return T.located(T.call(T.rt("converted"), [node]), node)

    def visit_ClassDef(self, node):
        return node


def _mark_nested(fn_node):
    for stmt in fn_node.body:
        _Marker().visit(stmt)


def _code_names(code, out):
    out.update(code.co_names, code.co_varnames, code.co_freevars, code.co_cellvars)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            _code_names(const, out)
    return out


def _mangle_private_names(node, code):
    """``self.__x`` in a method compiles to ``self._Cls__x``; outside the class body the
    converted code must spell the mangled name itself (taken from the original code)."""
    mangled = {}
    for name in _code_names(code, set()):
        head, sep, tail = name.partition("__")
        if head.startswith("_") and sep and tail and not tail.endswith("__"):
            mangled["__" + tail] = name
    if not mangled:
        return
    for n in ast.walk(node):
        if isinstance(n, ast.Attribute) and n.attr in mangled:
            n.attr = mangled[n.attr]
        elif isinstance(n, ast.Name) and n.id in mangled:
            n.id = mangled[n.id]


def _strip_annotations(node):
    node.returns = None
    a = node.args
    for arg in a.posonlyargs + a.args + a.kwonlyargs + [a.vararg, a.kwarg]:
        if arg is not None:
            arg.annotation = None


def _compile(node, code, filename):
    factory = T.fn_def("ms__factory", [T.RT] + list(code.co_freevars),
                       [node, ast.Return(value=T.load(node.name))])
    T.located(factory, node)
    module = ast.Module(body=[factory], type_ignores=[])
    ast.fix_missing_locations(module)
    compiled = compile(module, filename, "exec", dont_inherit=True)
    factory_code = next(c for c in compiled.co_consts if isinstance(c, types.CodeType))
    inner = next(c for c in factory_code.co_consts
                 if isinstance(c, types.CodeType) and c.co_name == node.name)
    return inner.replace(co_name=code.co_name, co_qualname=code.co_qualname)
