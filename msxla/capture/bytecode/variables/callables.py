"""How the interpreter calls things (``CALL``, ``CALL_FUNCTION_EX``, ``with``, ...).

While capturing (symbolic):

- a user function, bound method, ``Cell`` whose ``construct`` is user code
  (called plainly: no hooks, no mixed precision, no custom bprop), callable
  user object (``__call__``), or ``jit``-wrapped user function is *inlined*:
  its bytecode runs in a new interpreter frame, so its Tensor operations join
  the same graph;
- functions, classes and Cells of staged libraries (msxla, jax, numpy, the
  pure standard library) are *called* with the traced Tensors; a Cell run this
  way is guarded as a whole;
- user classes are instantiated by CPython (their code's guards come from
  ``discover``); generator functions are called by CPython too;
- mutating methods on objects the code did not create, in-place Tensor
  methods on Tensors that are not graph values, and everything else
  (``random``, ``time``, third-party packages, unknown C functions) are graph
  breaks.

When a break runs in Python (concrete), a user function called at the
breaking instruction runs as its own bytecode-jitted function (``nested``),
as Dynamo does: its own graphs are captured and cached.
"""
from __future__ import annotations

import builtins
import functools
import types

from jax.core import Tracer

from msxla.capture.bytecode import breaks as B
from msxla.capture.bytecode import compat
from msxla.capture.bytecode.variables import builtins as BI
from msxla.capture.bytecode.variables import objects as O
from msxla.capture.bytecode.variables.opaque import contains_opaque
from msxla.common.cell_base import CellBase
from msxla.options import Jitted

MAX_INLINE_DEPTH = 24
_BUILTIN_TYPES = (list, dict, tuple, str, set, frozenset, int, float, bool, complex, bytes,
                  range, slice, type(None))
_DESCRIPTORS = (types.MethodDescriptorType, types.WrapperDescriptorType,
                types.ClassMethodDescriptorType)


def _plain_cell_construct(cell):
    """The user ``construct`` function of ``cell`` when a call may be inlined, else None."""
    construct = type(cell).__dict__.get("construct")
    if construct is None:
        for klass in type(cell).__mro__[1:]:
            if "construct" in klass.__dict__:
                construct = klass.__dict__["construct"]
                break
    if isinstance(construct, Jitted):
        construct = construct.fn
    if not O.is_user_function(construct):
        return None
    if cell._hooks.active or cell._mixed_precision_type is not None or \
            getattr(type(cell), "bprop", None) is not None:
        return None
    return construct


class CallPolicy:
    """The ``call_value`` part of the interpreter (see the module doc)."""

    def call_value(self, frame, fn, args, kwargs):
        if self.symbolic:
            if contains_opaque(fn) or any(contains_opaque(a) for a in args) or \
                    any(contains_opaque(v) for v in kwargs.values()):
                raise B.GraphBreak(B.OPAQUE_VALUE, "a call with a value Python computed at an "
                                   "earlier graph break")
            return self._call_symbolic(frame, fn, list(args), kwargs)
        return self._call_concrete(frame, fn, list(args), kwargs)

    # ------------------------------------------------------------ symbolic
    def _call_symbolic(self, frame, fn, args, kwargs):
        from msxla.common.tensor import Tensor
        cls = type(fn)
        try:
            special = BI.SPECIAL.get(fn)
        except TypeError:  # unhashable callable
            special = None
        if special is not None:
            return special(self, frame, args, kwargs)
        if cls is types.FunctionType:
            if O.is_user_code(fn.__code__):
                if compat.is_generator_code(fn.__code__):
                    self.t.guards.user_code_run_by_python(fn)
                    return fn(*args, **kwargs)
                return self.inline(frame, fn, args, kwargs)
            return self._library_call(fn, args, kwargs)
        if cls is types.MethodType:
            func, owner = fn.__func__, fn.__self__
            if O.is_user_function(func):
                return self._call_symbolic(frame, func, [owner] + args, kwargs)
            if isinstance(owner, CellBase):
                self.t.guards.library_cell(owner)
            if isinstance(owner, Tensor) and O.tensor_method_mutates(func.__name__) and \
                    not self.t.may_mutate(owner):
                self.t.outside_tensor_write(owner)
                raise self._side_effect(func.__name__, owner)
            return self._library_call(fn, args, kwargs)
        if isinstance(fn, Jitted):
            return self._call_symbolic(frame, fn.fn, args, kwargs)
        if isinstance(fn, CellBase):
            construct = _plain_cell_construct(fn)
            if construct is not None:
                self.t.guards.cell_call_state(fn)
                return self.inline(frame, construct, [fn] + args, kwargs)
            self.t.guards.library_cell(fn)
            return self._library_call(fn, args, kwargs)
        if cls is functools.partial:
            return self._call_symbolic(frame, fn.func, list(fn.args) + args,
                                       {**fn.keywords, **kwargs})
        if cls is types.BuiltinFunctionType or cls is types.BuiltinMethodType:
            return self._call_builtin(frame, fn, args, kwargs)
        if cls in _DESCRIPTORS:  # list.append(lst, x), dict.get(d, k), ...
            if args and O.mutating_method(args[0], fn.__name__) and \
                    not self.t.may_mutate(args[0]):
                raise self._side_effect(fn.__name__, args[0])
            return fn(*args, **kwargs)
        if isinstance(fn, type):
            return self._construct(frame, fn, args, kwargs)
        call = cls.__dict__.get("__call__") or next(
            (k.__dict__["__call__"] for k in cls.__mro__ if "__call__" in k.__dict__), None)
        if O.is_user_function(call):
            return self._call_symbolic(frame, call, [fn] + args, kwargs)
        if O.is_staged_library(fn) or O.is_staged_library(cls):
            return self._library_call(fn, args, kwargs)
        raise B.GraphBreak(B.UNSUPPORTED_CALL, f"call of {_describe(fn)}, which is not user "
                           "code and not from a library the capture can stage")

    def _guard_contents(self, values):
        """Reading an outside list/dict/set (``len(LOG)``): its contents are guarded."""
        for value in values:
            if type(value) in (list, dict, set) and not self.t.is_tracked(value):
                self.t.guards.contents_read(value)

    def _call_builtin(self, frame, fn, args, kwargs):
        owner = getattr(fn, "__self__", None)
        self._guard_contents(args)
        if owner is not None and owner is not builtins:
            self._guard_contents((owner,))
        if owner is None or owner is builtins:
            kind = BI.BREAKS.get(fn)
            if kind is not None:
                raise B.GraphBreak(kind, f"{fn.__name__}() has effects or results that exist "
                                   "only when the function runs")
            if fn in BI.PURE:
                return fn(*args, **kwargs)
        if isinstance(owner, types.ModuleType):
            if O.is_staged_library(fn) or O.is_staged_library(owner):
                return self._library_call(fn, args, kwargs)
            raise B.GraphBreak(B.UNSUPPORTED_CALL, f"call of {_describe(fn)}")
        if owner is not None:  # a bound method of a built-in object: list.append, str.join
            if O.mutating_method(owner, fn.__name__) and not self.t.may_mutate(owner):
                raise self._side_effect(fn.__name__, owner)
            if isinstance(owner, _BUILTIN_TYPES) or O.is_staged_library(type(owner)) or \
                    self.t.is_tracked(owner):
                return fn(*args, **kwargs)
            raise B.GraphBreak(B.UNSUPPORTED_CALL, f"call of {_describe(fn)} of a "
                               f"{type(owner).__name__} object")
        return self._library_call(fn, args, kwargs)

    def _construct(self, frame, cls, args, kwargs):
        if cls in BI.BREAKS:
            raise B.GraphBreak(BI.BREAKS[cls], f"{cls.__name__}() cannot be staged")
        if O.is_staged_library(cls) or cls.__module__ == "builtins":
            return self.t.mark_fresh(self._library_call(cls, args, kwargs))
        for klass in cls.__mro__:  # user class: CPython builds it; guard what its code reads
            for attr in vars(klass).values():
                if O.is_user_function(attr):
                    self.t.guards.user_code_run_by_python(attr)
        return self.t.mark_fresh(cls(*args, **kwargs))

    def _library_call(self, fn, args, kwargs):
        """A call into library code with traced Tensors. In-place writes to Tensors
        that are not graph values (globals, attributes) would leak tracers: break."""
        from msxla.common.parameter import Parameter
        from msxla.common.tensor import Tensor
        self._guard_contents(args)
        watched = [(a, a._data) for a in list(args) + list(kwargs.values())
                   if isinstance(a, Tensor) and type(a) is not Parameter and
                   not isinstance(a._data, Tracer) and not self.t.may_mutate(a)]
        for value in list(args) + list(kwargs.values()):
            if O.is_user_function(value):
                self.t.guards.user_code_run_by_python(value)
        if type(fn) is types.FunctionType and fn.__closure__:
            # value_and_grad(net): the Cells and functions it closes over are guarded
            self.t.guards.user_code_run_by_python(fn)
        out = fn(*args, **kwargs)
        for tensor, data in watched:
            if tensor._data is not data:
                tensor._data = data
                self.t.outside_tensor_write(tensor)
                raise B.GraphBreak(B.SIDE_EFFECT, f"{_describe(fn)} writes in place to a Tensor "
                                   "that lives outside the function")
        return out

    def _side_effect(self, name, receiver):
        return B.GraphBreak(B.SIDE_EFFECT, f"{type(receiver).__name__}.{name}() mutates an "
                            "object that lives outside the function")

    def inline(self, frame, fn, args, kwargs):
        from msxla.capture.bytecode.frame import Frame
        depth = frame.depth + 1 if frame is not None else 1
        if depth > MAX_INLINE_DEPTH:
            raise B.GraphBreak(B.INLINE_DEPTH, f"calls nested deeper than {MAX_INLINE_DEPTH}")
        bad = self.unsupported_in(fn.__code__)
        if bad is not None:
            raise B.GraphBreak(B.UNSUPPORTED_OPCODE, f"'{fn.__code__.co_name}' uses {bad.raw}, "
                               "which the capture does not model")
        callee = Frame.for_call(fn, args, kwargs, depth)
        return self.run_frame(callee)

    # ------------------------------------------------------------ concrete
    def _call_concrete(self, frame, fn, args, kwargs):
        from msxla.capture.bytecode import nested
        if frame is not None and fn is builtins.super and not args:
            return BI._super(self, frame, args, kwargs)
        if type(fn) in (types.BuiltinFunctionType, type) and fn in (iter, zip, enumerate,
                                                                     reversed):
            return BI.SPECIAL[fn](self, frame, args, kwargs)
        if self.jit_callee is not None:
            jit_callee, options = self.jit_callee, self.options
            if isinstance(fn, CellBase) and _plain_cell_construct(fn) is not None:
                return nested.call_method(jit_callee, _plain_cell_construct(fn), fn, args,
                                          kwargs, options)
            if type(fn) is types.MethodType and O.is_user_function(fn.__func__) and \
                    not compat.is_generator_code(fn.__func__.__code__):
                return nested.call_method(jit_callee, fn.__func__, fn.__self__, args, kwargs,
                                          options)
            if O.is_user_function(fn) and not compat.is_generator_code(fn.__code__):
                return nested.call_function(jit_callee, fn, args, kwargs, options)
        return fn(*args, **kwargs)


def _describe(fn) -> str:
    name = getattr(fn, "__qualname__", None) or getattr(fn, "__name__", None) or repr(fn)
    module = O.module_root(fn)
    return f"'{module}.{name}'" if module and module != "builtins" else f"'{name}'"
