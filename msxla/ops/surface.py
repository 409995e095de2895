"""The op surface: every name the op table exposes, bound in one place.

An op row (``opdef.op``) or a composite (``composite``, below) declares its
surface and this module binds it:

- its public function (``ops.add``) and alias names (``aliases=``), unless
  ``public=False`` (a row that only backs a Primitive or a method);
- its Primitive classes (``ops.Add``, ``ops.operations.Add``) from
  ``primitive=``: ``True`` (one class named by ``prim``, called as
  ``op(*args, **kwargs, **attrs)``), a name, a ``PrimDef`` (init attributes,
  call adapter) or a tuple of these;
- its Tensor method and operators (``method=``, ``operators=``).

Tensor methods whose signature is not the functional one (overload
resolvers, in-place methods, properties) are rows of the same method table,
registered with ``tensor_method``. Nothing else sets attributes on
``Tensor``. A family module ends with ``__all__ = exports(__name__)``: the
names it registered, with its Primitive classes set on the module.

Composites are public functions that cannot be one jitted row: they write
Parameters, draw PRNG keys outside the graph, return Python values, or
resolve overloads before calling rows.
"""
from __future__ import annotations

import collections
import dataclasses
import sys
from typing import Callable

from msxla.common.tensor import Tensor
from msxla.ops._arg_errors import reporting_bad_arguments
from msxla.ops.primitive import PrimDef, primitive_class

# Tensor attribute name -> (the bound object, what registered it).
METHODS: dict[str, tuple[object, object]] = {}
# Hand-written public ops, by name.
COMPOSITES: dict[str, "Composite"] = {}
# Family module -> the public names it registered, in order.
_EXPORTS: dict[str, list[tuple[str, object]]] = collections.defaultdict(list)

_REFLECTED = frozenset({
    "__radd__", "__rsub__", "__rmul__", "__rtruediv__", "__rfloordiv__", "__rmod__",
    "__rpow__", "__rmatmul__", "__rand__", "__ror__", "__rxor__", "__rlshift__",
    "__rrshift__", "__rdivmod__"})


@dataclasses.dataclass(eq=False)
class Composite:
    """A hand-written public op: its name, function, family module and surface."""

    name: str
    fn: Callable
    module: str
    prim_name: str
    method: str | None
    public: Callable = None
    prims: tuple = ()


# ------------------------------------------------------------------ Tensor
def tensor_method(name, fn=None, *, prop=False, origin=None):
    """Bind ``fn`` as ``Tensor.<name>`` (a property with ``prop=True``).

    Used as ``tensor_method("sum", _sum)`` or as a decorator
    ``@tensor_method("sum")``. A name is bound once: a second registration
    from a different origin is an error."""
    if fn is None:
        return lambda f: tensor_method(name, f, prop=prop, origin=origin)
    origin = fn if origin is None else origin
    if name in METHODS and METHODS[name][1] is not origin:
        raise ValueError(f"Tensor.{name} is bound twice ({METHODS[name][1]!r} and {origin!r})")
    value = property(fn) if prop else fn
    METHODS[name] = (value, origin)
    setattr(Tensor, name, value)
    return fn


def bind_surface(record, primitive, aliases, public, module):
    """Bind a row's or composite's methods, operators, Primitives and public names."""
    _bind_methods(record)
    for name in (record.name,) + tuple(aliases) if public else ():
        _EXPORTS[module].append((name, record))
    record.prims = tuple(_make_prims(record, primitive, module))


def _bind_methods(record):
    fn = record.public
    if record.method:
        tensor_method(record.method, fn, origin=record)
    for opname in getattr(record, "operators", ()):
        tensor_method(opname, _reflected(fn) if opname in _REFLECTED else fn, origin=record)


def _reflected(fn):
    def reflected(self, other):
        return fn(other, self)
    reflected.__name__ = fn.__name__
    return reflected


def _make_prims(record, primitive, module):
    if primitive is None or primitive is False:
        return
    specs = primitive if isinstance(primitive, tuple) else (primitive,)
    for spec in specs:
        if spec is True:
            spec = PrimDef()
        elif isinstance(spec, str):
            spec = PrimDef(spec)
        name = spec.name or record.prim_name
        cls = primitive_class(name, lambda: record.public, spec.init, spec.call,
                              spec.doc or record.fn_doc(), check=spec.check)
        _EXPORTS[module].append((name, cls))
        yield cls


def set_public(row_fn, public):
    """Make ``public`` the function users call for the row behind ``row_fn``
    (its Tensor method and operators follow; the row's generated function stays
    callable, and is what ``public`` calls)."""
    record = row_fn.__wrapped_row__
    public = reporting_bad_arguments(public, record.prim_name)
    public.__wrapped_row__ = record
    public.__module__ = "msxla.ops"
    if public.__doc__ is None:
        public.__doc__ = record.impl.__doc__
    record.public = public
    _bind_methods(record)
    return public


def public_face(row_fn):
    """Decorator form of ``set_public``: ``@public_face(_relu_row) def relu(...)``."""
    return lambda public: set_public(row_fn, public)


# -------------------------------------------------------------- composites
def composite(name=None, *, prim=None, primitive=None, method=None, aliases=(), public=True):
    """Register a hand-written public op (see the module docstring)."""

    def deco(fn):
        op_name = name or fn.__name__
        fn = reporting_bad_arguments(fn, prim or _camel(op_name))
        record = Composite(name=op_name, fn=fn, module=fn.__module__,
                           prim_name=prim or _camel(op_name), method=method, public=fn)
        record.fn_doc = lambda: fn.__doc__
        if public:
            if op_name in COMPOSITES:
                raise ValueError(f"composite {op_name!r} is defined twice")
            COMPOSITES[op_name] = record
        bind_surface(record, primitive, aliases, public, fn.__module__)
        return fn

    return deco


def _camel(name):
    return "".join(part.capitalize() for part in name.strip("_").split("_"))


# ----------------------------------------------------------------- exports
def exports(module_name):
    """The public names family ``module_name`` registered (its ``__all__``).

    Sets each Primitive class (and any alias) on the module, and checks that
    the module's own binding of each name is the registered object."""
    mod = sys.modules[module_name]
    names = []
    for name, obj in _EXPORTS.get(module_name, ()):
        value = obj if isinstance(obj, type) else obj.public
        have = mod.__dict__.setdefault(name, value)
        if have is not value and getattr(value, "__wrapped__", None) is have:
            mod.__dict__[name] = have = value  # a face bound by set_public(), now wrapped
        if have is not value:
            raise ValueError(f"{module_name}.{name} is not the registered op {value!r}")
        names.append(name)
    return names


def exported():
    """Every (module, name, object) the op families export."""
    for module, entries in _EXPORTS.items():
        for name, obj in entries:
            yield module, name, obj if isinstance(obj, type) else obj.public
