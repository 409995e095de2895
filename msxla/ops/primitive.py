"""MindSpore's Primitive classes (``ops.Add()``, ``ops.MatMul(transpose_a=True)``).

A Primitive instance holds its init attributes and, when called, runs an op
row with them. ``make_primitive`` builds such a class from the row's public
function: ``init`` lists the constructor attributes and their defaults, and
``call`` maps the instance call onto the function (default: the call's
arguments followed by the attributes as keywords).
"""
from __future__ import annotations

import functools
import inspect

# Every Primitive class made by make_primitive, by name (``ops.operations``).
PRIMITIVES: dict[str, type] = {}


class Primitive:
    """Base class of MindSpore primitives (``mindspore.ops.Primitive``)."""

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

    def shard(self, *args, **kwargs):
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


def make_primitive(name, fn, init=(), call=None, doc=None):
    """A Primitive class ``name`` whose instances call ``fn``.

    Args:
        init: ``(attr, default)`` pairs the constructor accepts, in order.
        call: ``call(prim, *args, **kwargs)`` when the instance call does not
            map onto ``fn(*args, **attrs)``.
    """
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
        for k, v in values.items():
            self.add_prim_attr(k, v)

    if call is None:
        def __call__(self, *args, **kwargs):
            return fn(*args, **kwargs, **{k: self.attrs[k] for k in names})
    else:
        def __call__(self, *args, **kwargs):
            return call(self, *args, **kwargs)

    cls = type(name, (Primitive,), {"__init__": __init__, "__call__": __call__,
                                    "__doc__": doc or fn.__doc__, "__module__": "msxla.ops"})
    PRIMITIVES[name] = cls
    return cls
