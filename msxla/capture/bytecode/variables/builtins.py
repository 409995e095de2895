"""Built-in functions: which run while capturing, which break, which are modelled.

- ``PURE``: deterministic built-ins; they run while the graph is captured and
  their results are constants of the graph (guarded through their inputs).
- ``BREAKS``: built-ins whose effect or result exists only at run time
  (``open``, ``input``, ``eval``, ``locals()``): a graph break.
- ``SPECIAL``: built-ins that need the interpreter: zero-argument ``super()``
  (it reads the frame), ``print`` (staged, unless it writes to a file or
  flushes), ``getattr``/``hasattr``/``setattr``/``delattr`` (guards and side
  effects, as the opcodes), ``iter``/``zip``/``enumerate``/``reversed``
  (rebuildable iterators), ``map``/``filter``/``sorted``/``min``/``max``
  (user callables are interpreted), ``str``/``repr``/``format`` of a Tensor
  computed in the graph (its text exists only at run time: a break).

Each special handler is ``handler(interp, frame, args, kwargs) -> value``.
"""
from __future__ import annotations

import builtins

from jax.core import Tracer

from msxla.capture.bytecode import breaks as B
from msxla.capture.bytecode.frame import UNBOUND
from msxla.capture.bytecode.variables import iterators as I

PURE = frozenset({
    abs, all, any, ascii, bin, bool, bytes, callable, chr, complex, dict, divmod, float,
    frozenset, hash, hex, id, int, isinstance, issubclass, len, list, oct, ord, pow, range,
    round, set, slice, sum, tuple, type, object, bytearray, memoryview, property, staticmethod,
    classmethod, __import__, __build_class__, next, NotImplemented.__class__, Ellipsis.__class__,
})
BREAKS = {
    open: B.PYTHON_IO, input: B.PYTHON_IO, breakpoint: B.PYTHON_IO, eval: B.UNSUPPORTED_CALL,
    exec: B.UNSUPPORTED_CALL, compile: B.UNSUPPORTED_CALL, globals: B.UNSUPPORTED_CALL,
    locals: B.UNSUPPORTED_CALL, vars: B.UNSUPPORTED_CALL, dir: B.UNSUPPORTED_CALL,
    help: B.PYTHON_IO,
}


def graph_tensor(value) -> bool:
    from msxla.common.tensor import Tensor
    return (isinstance(value, Tensor) and isinstance(value._data, Tracer)) or \
        isinstance(value, Tracer)


def _super(interp, frame, args, kwargs):
    if args or kwargs:
        return super(*args, **kwargs)
    cell = frame.cells.get("__class__")
    if cell is None or not frame.code.co_argcount:
        raise RuntimeError("super(): no arguments")
    first = frame.code.co_varnames[0]
    value = frame.locals.get(first, UNBOUND)
    if value is UNBOUND and first in frame.cells:
        value = frame.cells[first].cell_contents
    return super(cell.cell_contents, value)


def _print(interp, frame, args, kwargs):
    if interp.symbolic and (kwargs.get("file") is not None or kwargs.get("flush")):
        raise B.GraphBreak(B.PYTHON_IO, "print(..., file=..., flush=True) writes outside the "
                           "graph; it runs in Python")
    return builtins.print(*args, **kwargs)


def _getattr(interp, frame, args, kwargs):
    obj, name = args[0], args[1]
    if len(args) > 2:
        try:
            return interp.load_attr(obj, name)
        except AttributeError:
            return args[2]
    return interp.load_attr(obj, name)


def _hasattr(interp, frame, args, kwargs):
    try:
        interp.load_attr(args[0], args[1])
    except AttributeError:
        return False
    return True


def _setattr(interp, frame, args, kwargs):
    interp.store_attr(args[0], args[1], args[2])


def _delattr(interp, frame, args, kwargs):
    interp.delete_attr(args[0], args[1])


def _iter(interp, frame, args, kwargs):
    if len(args) != 1:
        return iter(*args)
    return interp.get_iter(args[0])


def _zip(interp, frame, args, kwargs):
    return I.ZipIter([interp.get_iter(a) for a in args], bool(kwargs.get("strict", False)))


def _enumerate(interp, frame, args, kwargs):
    start = kwargs.get("start", args[1] if len(args) > 1 else 0)
    return I.EnumIter(interp.get_iter(args[0]), start)


def _reversed(interp, frame, args, kwargs):
    out = I.reversed_iter(args[0])
    return out if out is not None else reversed(args[0])


def _materialise(interp, frame, iterable):
    it = interp.get_iter(iterable)
    return list(it)


def _map(interp, frame, args, kwargs):
    fn, iterables = args[0], [_materialise(interp, frame, a) for a in args[1:]]
    out = [interp.call_value(frame, fn, list(items), {}) for items in zip(*iterables)]
    return I.SeqIter(interp.t.mark_fresh(out) if interp.symbolic else out)


def _filter(interp, frame, args, kwargs):
    fn, items = args[0], _materialise(interp, frame, args[1])
    if fn is None:
        out = [x for x in items if interp.truth(x)]
    else:
        out = [x for x in items if interp.truth(interp.call_value(frame, fn, [x], {}))]
    return I.SeqIter(interp.t.mark_fresh(out) if interp.symbolic else out)


def _with_key(builtin):
    def handler(interp, frame, args, kwargs):
        key = kwargs.get("key")
        if key is not None:
            kwargs = dict(kwargs, key=lambda x: interp.call_value(frame, key, [x], {}))
        if builtin is sorted or len(args) == 1:
            args = [_materialise(interp, frame, args[0])] + list(args[1:])
        out = builtin(*args, **kwargs)
        return interp.t.mark_fresh(out) if interp.symbolic and builtin is sorted else out
    return handler


def _text(builtin):
    def handler(interp, frame, args, kwargs):
        if interp.symbolic and any(graph_tensor(a) for a in args):
            raise B.GraphBreak(B.TENSOR_TO_PYTHON, f"{builtin.__name__}() of a Tensor computed "
                               "in the graph: its text exists only when the graph runs")
        return builtin(*args, **kwargs)
    return handler


def _list_like(builtin):
    def handler(interp, frame, args, kwargs):
        src = args[0] if args else None
        if len(args) == 1 and not kwargs and not hasattr(src, "keys") and \
                type(src) not in (list, tuple, str):
            out = builtin(interp.get_iter(src))
        else:
            out = builtin(*args, **kwargs)
        return interp.t.mark_fresh(out) if interp.symbolic else out
    return handler


def _specials():
    from msxla.capture.staged_print import _print_dispatch
    return {_print_dispatch: _print}


SPECIAL = {
    super: _super, print: _print, getattr: _getattr, hasattr: _hasattr, setattr: _setattr,
    delattr: _delattr, iter: _iter, zip: _zip, enumerate: _enumerate, reversed: _reversed,
    map: _map, filter: _filter, sorted: _with_key(sorted), min: _with_key(min),
    max: _with_key(max), str: _text(str), repr: _text(repr), format: _text(format),
    list: _list_like(list), dict: _list_like(dict), set: _list_like(set),
}
SPECIAL.update(_specials())
