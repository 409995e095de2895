"""MindIR primitives that need more than ``msxla.ops.<Name>(**init)(*inputs)``.

- MindSpore's graph plumbing: ``Load`` (read a Parameter), ``UpdateState``
  and ``Depend`` (side-effect ordering: msxla's graphs keep program order
  themselves), ``MakeTuple`` / ``TupleGetItem``, ``Return``.
- MindSpore's internal operators that its functional API emits and that have
  no public Primitive: ``Muls`` (tensor * scalar), ``MatMulExt``, ``AddExt``
  (``x + alpha * y``), ... each is the msxla function that computes it.
- Old-style primitives keep their arguments as attributes named as the
  kernel reads them (``Conv2D``'s ``format``, ``stride`` as four ints): the
  msxla Primitive gets them as MindSpore's loader gives them, as attributes.
"""
from __future__ import annotations

import dataclasses

from msxla.mindir import optable
from msxla.mindir.interpret import (loader, primitive_class, split_arguments, tensor,
                                    unsupported)
from msxla.mindir.values import MONAD, Monad


def _ops():
    import msxla.ops as ops
    return ops


# ------------------------------------------------------------------ plumbing
@loader("Load")
def _load(node, param, *monad):
    return param


@loader("UpdateState")
def _update_state(node, *args):
    return MONAD


@loader("Depend")
def _depend(node, value, *deps):
    return value


@loader("MakeTuple", "make_tuple")
def _make_tuple(node, *items):
    return tuple(tensor(i) for i in items)


@loader("MakeList", "make_list")
def _make_list(node, *items):
    return [tensor(i) for i in items]


@loader("TupleGetItem", "tuple_getitem", "ListGetItem", "list_getitem")
def _getitem(node, seq, index):
    return seq[int(index)]


@loader("Return")
def _return(node, value):
    return value


@loader("StopGradient", "stop_gradient")
def _stop_gradient(node, x):
    return _ops().stop_gradient(tensor(x))


# ------------------------------------------------ MindSpore-internal operators
def _function(*names, fn):
    """Register primitive functions computed by one msxla function of their arguments."""
    def run(node, *args):
        positional, init = split_arguments(node, [a for a in args if not isinstance(a, Monad)])
        return fn(*positional, **init)
    for name in names:
        loader(name)(run)


def _scale(alpha, y):
    return y if isinstance(alpha, (int, float)) and alpha == 1 else y * alpha


def _reduce(name):
    def run(x, dim=None, keepdim=False, dtype=None):
        out = getattr(_ops(), name)(x, dim, keepdim)
        return out if dtype is None else out.astype(dtype)
    return run


_function("Muls", fn=lambda x, y: x * y)
_function("Divs", fn=lambda x, y: x / y)
_function("AddScalar", "AddExt", fn=lambda x, y, alpha=1: x + _scale(alpha, y))
_function("SubScalar", "SubExt", fn=lambda x, y, alpha=1: x - _scale(alpha, y))
_function("MatMulExt", "Mm", fn=lambda x, y: _ops().matmul(x, y))
_function("BatchMatMulExt", fn=lambda x, y: _ops().bmm(x, y))
_function("FlattenExt", fn=lambda x, start_dim=0, end_dim=-1:
          _ops().flatten(x, start_dim=start_dim, end_dim=end_dim))
_function("SiLU", fn=lambda x: _ops().silu(x))
_function("GeluExt", fn=lambda x, approximate="none":
          _ops().gelu(x, approximate=str(_word("approximate", approximate)).lower()))
_function("StackExt", fn=lambda tensors, dim=0: _ops().stack(tensors, dim))
_function("SumExt", fn=_reduce("sum"))
_function("MeanExt", fn=_reduce("mean"))
_function("ProdExt", fn=_reduce("prod"))
_function("ClampScalar", "ClampTensor", fn=lambda x, lo=None, hi=None: _ops().clamp(x, lo, hi))
for _name, _fn in (("EqScalar", "eq"), ("NeScalar", "ne"), ("LessScalar", "lt"),
                   ("LessEqualScalar", "le"), ("GreaterScalar", "gt"),
                   ("GreaterEqualScalar", "ge"), ("EqualExt", "equal")):
    _function(_name, fn=lambda x, y, _fn=_fn: getattr(_ops(), _fn)(x, y))


def _word(arg, value):
    return optable.enum_word(arg, value) if isinstance(value, int) else value


@loader("PadV3")
def _pad_v3(node, x, paddings, value=None, *monad):
    """Old-style PadV3: ``paddings`` as ops.pad takes them (last dim first) when
    ``paddings_contiguous``, else all begins then all ends."""
    pads = [int(p) for p in (paddings.tolist() if hasattr(paddings, "tolist") else paddings)]
    if not node.attrs.get("paddings_contiguous", True):
        half = len(pads) // 2
        pads = [p for pair in zip(pads[:half], pads[half:]) for p in pair]
    value = None if value is None or isinstance(value, Monad) else _scalar(value)
    return _ops().pad(tensor(x), tuple(pads), node.attrs.get("mode", "constant"), value)


@loader("MaxPoolWithArgmaxV2")
def _max_pool_argmax_v2(node, x, *monad):
    """Its attributes are stored as four values (1, 1, h, w); the Primitive takes (h, w)."""
    attrs = dict(node.attrs)
    for k in ("kernel_size", "strides", "pads", "dilation"):
        if isinstance(attrs.get(k), tuple) and len(attrs[k]) == 4:
            attrs[k] = attrs[k][2:]
    return old_style(dataclasses.replace(node, attrs=attrs), [x])


def _scalar(value):
    return value.item() if hasattr(value, "item") else value


# --------------------------------------------------------- old-style primitives
_RENAMED = {"format": "data_format"}
_BOOKKEEPING = frozenset({"input_names", "output_names", "primitive_target", "groups",
                          "IsFeatureMapOutput", "IsFeatureMapInputList"})


# MindSpore stores some dtype attributes of old-style primitives as small codes.
_DTYPE_CODES = {"MaxPoolWithArgmaxV2": {"argmax_type": {3: "int32", 4: "int64"}}}


def old_style(node, args):
    """Give the msxla Primitive the file's attributes, as MindSpore's loader does: the
    Primitive is made with its defaults, then the attributes it knows are set."""
    from msxla.common import dtype as mstype
    cls = primitive_class(node)
    attrs = {_RENAMED.get(k, k): v for k, v in node.attrs.items() if k not in _BOOKKEEPING}
    for k, codes in _DTYPE_CODES.get(node.op, {}).items():
        if attrs.get(k) in codes:
            attrs[k] = getattr(mstype, codes[attrs[k]])
    try:
        prim = cls()
    except TypeError:
        try:
            prim = cls(**attrs)
        except TypeError as e:
            raise unsupported(node, f"msxla's Primitive does not take its attributes ({e}).") \
                from None
    prim.add_prim_attrs({k: v for k, v in attrs.items() if k in prim.attrs})
    return prim(*(tensor(a) for a in args if not isinstance(a, Monad)))
