"""The op table: each MindSpore op defined once, as one ``OpDef`` row.

A row is made by decorating the op's jax implementation::

    @op(dtype="promote", method="add", operators=("__add__", "__radd__"), prim="Add")
    def add(input, other):
        return jnp.add(input, other)

The decorated function's signature *is* MindSpore's functional signature
(``ops.add(input, other)``). The decorator records the row and returns the
public function, generated with that same signature, which unwraps Tensors,
promotes dtypes by the row's rule, calls the implementation through
``jax.jit(inline=True)`` (so eager calls take jax's C++ dispatch path and
captured calls inline into the graph) and wraps the result. The row's Tensor
method, operators, Primitive classes and alias names are bound to the same
row by ``msxla.ops.surface``::

    @op(dtype="promote", static=("transpose_a", "transpose_b"), prim="MatMul",
        primitive=PrimDef(init=(("transpose_a", False), ("transpose_b", False)),
                          call=_matmul_prim))

Arguments named in ``static`` are compile-time attributes (axes, shapes,
dtypes, flags) and must be hashable; lists are turned into tuples. All other
arguments may carry Tensors, Python scalars or None.

``dtype`` rules (applied to the arguments named in ``dtype_args``, default:
every non-static argument):

- ``None``: the implementation handles dtypes itself;
- ``"promote"``: MindSpore's type promotion, all participants cast to it;
- ``"float"``: as promote, but integer and bool results become float32;
- a function ``key -> Type`` over a tuple of Types and Python scalar types.
"""
from __future__ import annotations

import dataclasses
import functools
import inspect
from typing import Callable

import jax

from msxla.common import dtype as mstype
from msxla.common.tensor import Tensor
from msxla.ops import _arg_errors, _dispatch, surface

REGISTRY: dict[str, "OpDef"] = {}


@dataclasses.dataclass(eq=False)
class OpDef:
    """One op: its MindSpore name and signature, jax implementation and dtype rule."""

    name: str
    impl: Callable
    signature: inspect.Signature
    static: tuple[str, ...]
    dtype_rule: object
    dtype_args: tuple[str, ...]
    prim_name: str
    method: str | None
    operators: tuple[str, ...]
    differentiable: bool
    dtypes: tuple | None  # dtypes the row claims to support (tested by the op-table suite)
    dyn: tuple[str, ...] = ()
    key_pos: tuple[int, ...] = ()  # positions (among dyn) of the dtype_args
    jitted: Callable = None
    public: Callable = None
    module: str = ""  # the family module that defines the row
    prims: tuple = ()  # the Primitive classes built for the row

    def rule(self, key):
        """The dtype to cast the participating arguments to, or None."""
        return _rule(self.dtype_rule, key)

    def fn_doc(self):
        return self.impl.__doc__


@functools.lru_cache(maxsize=4096)
def _rule(rule, key):
    if rule is None or not key:
        return None
    if rule == "promote":
        out = mstype.result_type(key)
    elif rule == "float":
        out = mstype.result_type(key)
        if mstype.category(out) < 2:
            out = mstype.float32
    else:
        out = rule(key)
    # Nothing to do when every tensor participant already has the result dtype.
    if all(k is out for k in key):
        return None
    return out


def op(name=None, *, static=(), dtype=None, dtype_args=None, method=None, operators=(),
       prim=None, primitive=None, aliases=(), public=True, differentiable=True, dtypes=None):
    """Register a jax implementation as an op row and return its public function.

    ``primitive``, ``aliases`` and ``public`` say which Primitive classes and
    public names the row has (``msxla.ops.surface``)."""

    def deco(impl):
        op_name = name or impl.__name__
        sig = inspect.signature(impl)
        params = list(sig.parameters)
        for s in static:
            if s not in params:
                raise TypeError(f"op {op_name!r}: static argument {s!r} is not a parameter")
        dyn = tuple(p for p in params if p not in static)
        row = OpDef(
            name=op_name, impl=impl, signature=sig, static=tuple(static), dtype_rule=dtype,
            dtype_args=tuple(dtype_args) if dtype_args is not None else dyn,
            prim_name=prim or _camel(op_name), method=method, operators=tuple(operators),
            differentiable=differentiable, dtypes=dtypes, dyn=dyn, module=impl.__module__)
        row.key_pos = tuple(i for i, p in enumerate(dyn) if p in row.dtype_args)
        row.jitted = _make_jitted(row, dyn)
        row.public = _make_public(row, dyn)
        if op_name in REGISTRY:
            raise ValueError(f"op {op_name!r} is defined twice")
        REGISTRY[op_name] = row
        surface.bind_surface(row, primitive, aliases, public, row.module)
        return row.public

    return deco


def _camel(name):
    return "".join(part.capitalize() for part in name.split("_"))


def _make_jitted(row, dyn):
    impl, cast_pos = row.impl, row.key_pos
    cast_value = _dispatch.cast_value
    # Dynamic arguments that follow a static one or are keyword-only must be
    # passed by name (``amax(input, axis=None, ..., *, initial=None)``).
    params = list(row.signature.parameters.values())
    by_name = not any(p.kind is p.VAR_POSITIONAL for p in params) and (
        [p.name for p in params if p.name in dyn] != [p.name for p in params[:len(dyn)]]
        or any(p.kind is p.KEYWORD_ONLY and p.name in dyn for p in params))

    def run(cast, *args, **statics):
        if cast is not None:
            npd = cast.np_dtype
            args = list(args)
            for i in cast_pos:
                args[i] = cast_value(args[i], npd)
        if by_name:
            return impl(**dict(zip(dyn, args)), **statics)
        return impl(*args, **statics)

    run.__name__ = row.name
    return jax.jit(run, static_argnums=(0,), static_argnames=row.static, inline=True)


def _make_public(row, dyn):
    from msxla.ops._fastcall import make_public
    return make_public(row, dyn, call_op)


def call_op(row, args, statics):
    """Run ``row`` on user arguments (Tensors, scalars, sequences, None)."""
    try:
        _arg_errors.refuse_text_and_dicts(row, args, statics)
        arrays = [a._data if isinstance(a, Tensor) else _dispatch.unwrap(a) for a in args]
        for k, v in statics.items():
            if isinstance(v, (list, tuple)):  # a shape may hold Tensors (a scalar made one)
                statics[k] = tuple(_static_from_tensor(x) if isinstance(x, Tensor) else x
                                   for x in v)
            elif isinstance(v, Tensor):
                statics[k] = _static_from_tensor(v)
        cast = None
        scalars = _dispatch.variable_scalars(args, row.key_pos)
        if row.dtype_rule is not None:
            cast = row.rule(_dispatch.dtype_key([args[i] if i in scalars else arrays[i]
                                                 for i in row.key_pos]))
        out = row.jitted(cast, *arrays, **statics)
        if scalars and _dispatch.only_scalars(args, row.key_pos):
            return _dispatch.wrap_scalar(out)
    except _arg_errors.FAILURES as err:
        pos, named = _call_arguments(row, args, statics)
        new = _arg_errors.bad_argument_error(row.prim_name, row.signature, pos, named, err,
                                             row.dyn)
        if new is not None:
            raise new from None
        if getattr(err, "loc", None) is not None or isinstance(err, (AttributeError, KeyError)):
            raise
        new = _dispatch.translate_error(row, err, _dispatch.shapes_of(args))
        if new is None:
            raise
        raise new from err
    return _dispatch.wrap_output(out)


def _call_arguments(row, args, statics):
    """``(args, kwargs)`` of the call for the row's signature."""
    if any(p.kind is p.VAR_POSITIONAL for p in row.signature.parameters.values()):
        return args, statics
    return (), {**dict(zip(row.dyn, args)), **statics}


def _static_from_tensor(t):
    arr = t._concrete("a static argument")
    return arr.item() if arr.ndim == 0 else tuple(arr.tolist())
