"""What a call in converted code runs: ``ms__.call(f, *args, **kwargs)``.

Resolved at capture time, from what ``f`` is:

- a user function, method, lambda or nested function (defined outside msxla,
  jax, numpy, the standard library and site-packages): converted (cached per
  code object and syntax level) and called, so its control flow can become
  graph control flow too; functions made by conversion are called directly;
- a Cell: its ``construct`` converted, with the Cell's forward hooks and
  mixed precision (as ``Cell.__call__``); msxla's own container Cells
  (SequentialCell...) are converted too, so the user Cells they call are;
- a jitted function (``JitFunction``, whatever its capture mode): its
  function, converted and inlined (MindSpore inlines jit calls inside a
  graph; a bytecode-jitted function is treated as plain, as its docs say);
- built-ins that need a Tensor's value in Python (``print``, ``int``,
  ``float``, ``bool``, ``max``, ``min``, ``str``, ``repr``, ``format``,
  ``str.format``): versions that build graph operations instead
  (``builtins.py``, ``strings.py``);
- anything else (msxla ops, numpy, other built-ins, classes): called as is.

Globals and closure variables are not resolved here: converted functions
share the original's globals and closure cells and read them when they run,
and the capture's guards (built from the original function) recompile when
one of them changes (MindSpore keeps the first value; msxla follows PyNative).
"""
from __future__ import annotations

import functools
import inspect
import os
import sysconfig
import threading
import types

from msxla._source import is_internal_file
from msxla.capture.ast import builtins as B
from msxla.capture.ast import strings
from msxla.capture.ast.errors import SourceUnavailableError
from msxla.capture.ast.transform import convert
from msxla.capture.capture import note_nested_backend
from msxla.common.cell_base import CellBase
from msxla.options import Jitted

_state = threading.local()
_LIBRARY_ROOTS = ("msxla", "jax", "jaxlib", "numpy", "scipy", "builtins", "functools",
                  "itertools", "operator", "collections", "typing", "math", "abc", "enum")
_STDLIB = tuple(p for p in {sysconfig.get_paths().get("stdlib"),
                            sysconfig.get_paths().get("platstdlib")} if p)
_MSXLA_NN = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(__file__))), "nn")


def strict() -> bool:
    return getattr(_state, "strict", False)


class syntax_level:
    """The syntax level conversions use while a capture runs (per thread)."""

    def __init__(self, strict_level: bool):
        self.level = strict_level

    def __enter__(self):
        self.saved = getattr(_state, "strict", False)
        _state.strict = self.level

    def __exit__(self, *exc):
        _state.strict = self.saved
        return False


def call(f, *args, **kwargs):
    return resolve(f)(*args, **kwargs)


def converted(fn):
    """Mark a function defined inside converted code (it is converted already)."""
    try:
        fn.__ms_converted__ = True
    except (AttributeError, TypeError):
        pass
    return fn


def resolve(f):
    try:
        special = B.SPECIAL.get(f)
    except TypeError:  # unhashable callables
        special = None
    if special is not None:
        return special
    cls = type(f)
    if cls is types.FunctionType:
        return _function(f)
    if cls is types.MethodType:
        func = f.__func__
        if type(func) is types.FunctionType and _is_user(func):
            return types.MethodType(_function(func), f.__self__)
        return f
    if cls is types.BuiltinMethodType and f.__name__ == "format" and \
            isinstance(f.__self__, str):
        return lambda *a, **k: strings.lazy_call(f, a, k)
    if cls is types.BuiltinFunctionType or cls is type:
        return f
    if isinstance(f, CellBase):
        if type(f).__call__ is not CellBase.__call__:  # the Cell defines its own __call__
            return resolve(types.MethodType(type(f).__call__, f))
        return functools.partial(call_cell, f)
    if isinstance(f, Jitted):
        note_nested_backend(f.name, f.options.backend)
        return resolve(f.fn)
    if cls is functools.partial and type(f.func) is types.FunctionType:
        return functools.partial(_function(f.func), *f.args, **f.keywords)
    return f


def _function(fn):
    if getattr(fn, "__ms_converted__", False) or not _is_user(fn):
        return fn
    if inspect.isgeneratorfunction(fn) or inspect.iscoroutinefunction(fn):
        if strict():
            convert(fn, True)  # raises the refusal, at its yield
        return fn  # LAX: runs in Python while the graph is captured
    try:
        return convert(fn, strict())
    except SourceUnavailableError:
        return fn  # no source: runs as it is (its Tensor control flow cannot be converted)


def _is_user(fn) -> bool:
    module = (getattr(fn, "__module__", None) or "").split(".")[0]
    if module in _LIBRARY_ROOTS:
        return False
    filename = fn.__code__.co_filename
    return not (is_internal_file(filename) or "site-packages" in filename or (
        _STDLIB and filename.startswith(_STDLIB)))


# ----------------------------------------------------------------- Cells
def call_cell(cell, *args, **kwargs):
    """``cell(*args, **kwargs)`` inside converted code (see the module doc)."""
    if cell._mixed_precision_type is not None:
        return cell._run_mixed_precision(_call_cell, args, kwargs)
    return _call_cell(cell, args, kwargs)


def _call_cell(cell, args, kwargs):
    hooks = cell._hooks
    if getattr(type(cell), "bprop", None) is not None or (
            hooks.active and (hooks.backward or hooks.backward_pre)):
        return cell._run_construct(args, kwargs)
    construct = _construct_of(cell)
    if not hooks.active:
        return construct(*args, **kwargs)
    for fn, with_kwargs in list(hooks.forward_pre.values()):
        res = call(fn, cell, args, kwargs) if with_kwargs else call(fn, cell, args)
        if res is not None:
            if with_kwargs:
                args, kwargs = res
            else:
                args = res if isinstance(res, tuple) else (res,)
    out = construct(*args, **kwargs)
    for fn, with_kwargs in list(hooks.forward.values()):
        res = call(fn, cell, args, kwargs, out) if with_kwargs else call(fn, cell, args, out)
        if res is not None:
            out = res
    return out


def _construct_of(cell):
    note_nested_backend(type(cell).__name__, cell._jit_config_dict.get("backend"))
    method = cell.construct
    if isinstance(method, Jitted):
        method = method.fn
    func = getattr(method, "__func__", None)
    if type(func) is not types.FunctionType:
        return resolve(method)
    if _is_user(func):
        return types.MethodType(_function(func), cell)
    if cell._cells and func.__code__.co_filename.startswith(_MSXLA_NN) and _holds_user_cells(cell):
        return types.MethodType(convert(func, False), cell)  # a container of user Cells
    return method


def _holds_user_cells(cell):
    return any(_is_user(type(c).construct) for _, c in cell.cells_and_names()
               if type(type(c).construct) is types.FunctionType)
