"""Reductions: stablehlo.reduce -> ReduceSum / ReduceMax / ReduceMin / ReduceProd /
ReduceAll / ReduceAny, and jax's argmax / argmin reduction -> Argmax / Argmin.

The reduction body picks the primitive (``return add(a, b)`` -> ReduceSum);
an init value that is not the operator's identity is combined afterwards::

    reduce(x, init=c) add over [1]  ->  Add(ReduceSum(x, (1,), False), c)

jax's argmax is a two-operand reduce of ``(x, iota)`` whose body compares the
values (GT for argmax, LT for argmin) and keeps the lower index on ties; it
becomes ``Argmax(x, axis, output_type)`` (MindSpore also keeps the first
index) plus ``ReduceMax`` for the value result.
"""
from __future__ import annotations

import numpy as np

from msxla.ge import parse
from msxla.mindir.convert import Lazy
from msxla.mindir.registry import mindir_converter

# body op -> (reduction, reduction on bool, combiner, identity of the combiner)
_KINDS = {
    "stablehlo.add": ("ReduceSum", "ReduceAny", "Add", lambda dt: 0),
    "stablehlo.multiply": ("ReduceProd", "ReduceAll", "Mul", lambda dt: 1),
    "stablehlo.maximum": ("ReduceMax", "ReduceAny", "Maximum", lambda dt: _lowest(dt)),
    "stablehlo.minimum": ("ReduceMin", "ReduceAll", "Minimum", lambda dt: _highest(dt)),
    "stablehlo.and": ("ReduceAll", "ReduceAll", "LogicalAnd", lambda dt: True),
    "stablehlo.or": ("ReduceAny", "ReduceAny", "LogicalOr", lambda dt: False),
}
_BOOL_COMBINE = {"Add": "LogicalOr", "Mul": "LogicalAnd", "Maximum": "LogicalOr",
                 "Minimum": "LogicalAnd"}


def _lowest(dt):
    if dt.kind == "f" or str(dt) == "bfloat16":
        return -np.inf
    return np.iinfo(dt).min if dt.kind in "iu" else False


def _highest(dt):
    if dt.kind == "f" or str(dt) == "bfloat16":
        return np.inf
    return np.iinfo(dt).max if dt.kind in "iu" else True


def _is_identity(value, identity, dtype):
    if value is None or np.asarray(value).size != 1:
        return False
    with np.errstate(all="ignore"):
        return bool(np.asarray(identity, dtype) == np.asarray(value).reshape(()).astype(dtype))


def reduce(b, kind, x, dims, keep_dims=False):
    shape = tuple(d for i, d in enumerate(x.shape) if i not in dims) if not keep_dims else \
        tuple(1 if i in dims else d for i, d in enumerate(x.shape))
    return b.fn(kind, x, tuple(int(d) for d in dims), keep_dims=keep_dims, out_shape=shape)


@mindir_converter("stablehlo.reduce")
def _reduce(ctx, op):
    n = len(op.operands) // 2
    dims = parse.ints(op, "dimensions")
    if n == 2:
        found = _arg_reduce(ctx, op, dims)
        if found is not None:
            return found
    kind = parse.single_body_op(op.regions[0]) if n == 1 else None
    if kind not in _KINDS:
        raise ctx.unsupported(op, f"with a '{kind or 'multi-op'}' body" if n == 1
                              else f"with {n} operands")
    b = ctx.b
    x, init = ctx.inputs(op)
    reduce_type, bool_type, combine, identity = _KINDS[kind]
    is_bool = x.dtype == np.bool_
    out_shape, _ = parse.value_type(op.results[0])
    if any(x.shape[d] == 0 for d in dims):  # nothing to reduce: the init value
        return [Lazy(ctx.reshape(init, (1,) * len(out_shape)), tuple(out_shape))]
    y = reduce(b, bool_type if is_bool else reduce_type, x, dims)
    if not _is_identity(init.const, identity(x.dtype), x.dtype):
        y = b.fn(_BOOL_COMBINE.get(combine, combine) if is_bool else combine, y,
                 ctx.reshape(init, ()))
    return [y]


def _defining_op(value):
    owner = value.owner
    return getattr(owner, "operation", owner) if hasattr(owner, "name") else None


def _arg_reduce(ctx, op, dims):
    """jax's argmax/argmin reduction: ``(values, indices)``, or None if not that form."""
    if len(dims) != 1:
        return None
    producer = _defining_op(op.operands[1])
    if producer is None or producer.name != "stablehlo.iota" or \
            parse.int_attr(producer, "iota_dimension") != dims[0]:
        return None
    init_index = ctx.get(op.operands[3]).const
    if init_index is None or np.asarray(init_index).reshape(-1)[0] != 0:
        return None
    args = list(op.regions[0].blocks[0].arguments)
    direction = None
    for body_op in parse.body_ops(op.regions[0]):
        if body_op.name == "stablehlo.compare" and list(body_op.operands) == [args[0], args[2]]:
            direction = parse.comparison(body_op)[0]
            break
    if direction not in ("GT", "LT"):
        return None
    b = ctx.b
    x = ctx.get(op.operands[0])
    idx_shape, idx_dtype = parse.value_type(op.results[1])
    arg_type, red_type = ("Argmax", "ReduceMax") if direction == "GT" else ("Argmin",
                                                                            "ReduceMin")
    if x.dtype == np.bool_:
        raise ctx.unsupported(op, "(arg-reduction of booleans)")
    index = b.fn(arg_type, x, axis=dims[0], output_type=_ms(idx_dtype), out_shape=idx_shape,
                 out_dtype=idx_dtype)
    return [reduce(b, red_type, x, dims), index]


def _ms(dtype):
    from msxla.common import dtype as mstype
    return mstype.from_np(np.dtype(dtype))
