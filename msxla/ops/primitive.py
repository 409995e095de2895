"""MindSpore's Primitive classes (``ops.Add()``, ``ops.MatMul(transpose_a=True)``).

A Primitive instance holds its init attributes and, when called, runs an op.
Op rows (and composites) declare their Primitive classes with ``PrimDef``
(``@op(..., primitive=PrimDef(init=(("transpose_a", False),), call=...))``);
``msxla.ops.surface`` builds the classes with ``primitive_class``. ``init``
lists the constructor attributes and their defaults, ``call`` maps the
instance call onto the op (default: the call's arguments followed by the
attributes as keywords).
"""
from __future__ import annotations

import dataclasses
import functools
import inspect
from typing import Callable

from msxla.ops._grad.grad_base import registered_bprop

# Every Primitive class built for an op, by name (``ops.operations``).
PRIMITIVES: dict[str, type] = {}
# The default of a constructor argument that must be given (``Broadcast(root_rank)``).
REQUIRED = object()


@dataclasses.dataclass(frozen=True)
class PrimDef:
    """How an op's Primitive class is built.

    Args:
        name: the class name (default: the row's ``prim`` name).
        init: ``(attr, default)`` pairs the constructor accepts, in order.
        call: ``call(prim, *args, **kwargs)`` when the instance call does not
            map onto ``op(*args, **kwargs, **attrs)``.
        doc: the class docstring (default: the op's).
        check: ``check(prim)`` after the attributes are set: validates them (raising
            MindSpore's errors at construction) and may add derived attributes.
    """

    name: str | None = None
    init: tuple = ()
    call: Callable | None = None
    doc: str | None = None
    check: Callable | None = None


def _honouring_bprops(call):
    """``call`` (a Primitive class's ``__call__``), using a bprop registered for the
    instance in ``mindspore.ops._grad.grad_base`` when there is one."""

    @functools.wraps(call)
    def __call__(self, *args, **kwargs):
        bprop = registered_bprop(self)
        if bprop is None:
            return call(self, *args, **kwargs)
        from msxla.autodiff.custom_bprop import call_with_bprop
        return call_with_bprop(functools.partial(call, self), bprop, args, kwargs)

    __call__.__msxla_bprop_hook__ = True
    return __call__


class Primitive:
    """Base class of MindSpore primitives (``mindspore.ops.Primitive``)."""

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        call = cls.__dict__.get("__call__")
        if callable(call) and not getattr(call, "__msxla_bprop_hook__", False):
            cls.__call__ = _honouring_bprops(call)

    def __init__(self, name=None):
        self.name = name or type(self).__name__
        self.attrs = {}
        self.instance_name = ""
        self.input_names = ()
        self.output_names = ()

    def add_prim_attr(self, name, value):
        self.attrs[name] = value
        self.__dict__[name] = value
        return self

    def add_prim_attrs(self, attrs):
        for k, v in attrs.items():
            self.add_prim_attr(k, v)
        return self

    def del_prim_attr(self, name):
        self.attrs.pop(name, None)
        self.__dict__.pop(name, None)
        return self

    def set_prim_instance_name(self, name):
        self.instance_name = name
        return self

    def init_prim_io_names(self, inputs, outputs):
        self.input_names, self.output_names = tuple(inputs), tuple(outputs)

    def recompute(self, mode=True):
        return self

    _sharded = False

    def shard(self, in_strategy=None, out_strategy=None):
        """Semi-auto parallel strategies (tuples of slice counts per dimension, or Layouts)
        for the inputs and outputs; applied under SEMI_AUTO_PARALLEL / AUTO_PARALLEL
        (``msxla.parallel._sharding``)."""
        from msxla.parallel._sharding import check_strategy
        if in_strategy is None and out_strategy is None:
            return self
        kinds = [check_strategy(self.name, s, what) for s, what in
                 ((in_strategy, "in_strategy"), (out_strategy, "out_strategy")) if s is not None]
        if len(set(kinds)) > 1:
            raise ValueError("The in_strategy type must equal to the out_strategy type, one using "
                             "tuple(tuple) and the other using tuple(Layout) is not allowed.")
        prefix = "layout" if kinds[0] else "strategy"
        if in_strategy is not None:
            self.add_prim_attr(f"in_{prefix}", in_strategy)
        if out_strategy is not None:
            self.add_prim_attr(f"out_{prefix}", out_strategy)
        self._sharded = True
        return self

    def set_device(self, device_target):
        return self

    def place(self, role, rank_id):
        return self

    def __repr__(self):
        return f"Prim[{self.name}]"

    def __call__(self, *args, **kwargs):
        raise NotImplementedError(f"Primitive {self.name} has no implementation.")


class PrimitiveWithInfer(Primitive):
    """Kept for user primitives that subclass it; inference is jax's."""


class PrimitiveWithCheck(Primitive):
    """Kept for user primitives that subclass it."""


def prim_attr_register(init):
    """Decorator for a Primitive ``__init__``: its arguments become attributes."""

    @functools.wraps(init)
    def wrapped(self, *args, **kwargs):
        Primitive.__init__(self, type(self).__name__)
        bound = inspect.signature(init).bind(self, *args, **kwargs)
        bound.apply_defaults()
        for k, v in list(bound.arguments.items())[1:]:
            self.add_prim_attr(k, v)
        init(self, *args, **kwargs)

    return wrapped


def constexpr(fn=None, get_instance=True, name=None, reuse_result=True, check=True):
    """Mark ``fn`` as computed at compile time from constant arguments
    (``mindspore.ops.constexpr``). A captured graph calls it in Python while it is
    built, which is what every capture mode does with a plain Python function on
    Python values; the decorated object is a Primitive (``get_instance=True``) or its
    class."""

    def decorator(f):
        class ProxyOp(PrimitiveWithInfer):
            """Runs the decorated function (``ops.constexpr``)."""

            def __init__(self):
                super().__init__(name or f.__name__)
                self.fn = f
                self.add_prim_attr("constexpr_prim", True)
                if not reuse_result:
                    self.add_prim_attr("forbid_reuse_result", True)

            def __call__(self, *args, **kwargs):
                return f(*args, **kwargs)

        ProxyOp.__doc__ = f.__doc__
        return ProxyOp() if get_instance else ProxyOp

    return decorator(fn) if fn is not None else decorator


def primitive_class(name, target, init=(), call=None, doc=None, module="msxla.ops", check=None):
    """A Primitive class ``name`` whose instances call ``target()``, the op's public
    function (looked up at call time, so a row's public face may be set later)."""
    names = tuple(a for a, _ in init)
    defaults = dict(init)

    def __init__(self, *args, **kwargs):
        Primitive.__init__(self, name)
        if len(args) > len(names):
            raise TypeError(f"{name}() takes {len(names)} arguments but {len(args)} were given")
        values = dict(defaults)
        values.update(zip(names, args))
        for k, v in kwargs.items():
            if k not in defaults:
                raise TypeError(f"{name}() got an unexpected keyword argument '{k}'")
            values[k] = v
        missing = [k for k in names if values[k] is REQUIRED]
        if missing:
            raise TypeError(f"{name}.__init__() missing {len(missing)} required positional "
                            f"argument(s): {', '.join(repr(k) for k in missing)}")
        for k, v in values.items():
            self.add_prim_attr(k, v)
        if check is not None:
            check(self)

    if call is None:
        def run(self, *args, **kwargs):
            return target()(*args, **kwargs, **{k: self.attrs[k] for k in names})
    else:
        run = call

    def __call__(self, *args, **kwargs):
        if self._sharded:
            from msxla.parallel._sharding import sharded_call
            return sharded_call(self, lambda *a, **k: run(self, *a, **k), args, kwargs)
        return run(self, *args, **kwargs)

    if name in PRIMITIVES:
        raise ValueError(f"Primitive {name!r} is defined twice")
    cls = type(name, (Primitive,), {"__init__": __init__, "__call__": __call__,
                                    "__doc__": doc, "__module__": module,
                                    "init_args": tuple(init)})
    PRIMITIVES[name] = cls
    return cls
