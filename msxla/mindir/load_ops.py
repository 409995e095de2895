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

from msxla.mindir import optable
from msxla.mindir.interpret import (LOADERS, loader, primitive_class, split_arguments,
                                    tensor, unsupported)
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
_function("EqualExt", fn=lambda x, y: _ops().equal(x, y))


def _word(arg, value):
    return optable.enum_word(arg, value) if isinstance(value, int) else value


# --------------------------------------------------------- old-style primitives
_RENAMED = {"format": "data_format"}
_BOOKKEEPING = frozenset({"input_names", "output_names", "primitive_target", "groups",
                          "IsFeatureMapOutput", "IsFeatureMapInputList"})


def _old_style(node, *args):
    """Give the msxla Primitive the file's attributes, as MindSpore's loader does."""
    cls = primitive_class(node)
    attrs = {_RENAMED.get(k, k): v for k, v in node.attrs.items() if k not in _BOOKKEEPING}
    try:
        prim = cls()
    except TypeError:
        try:
            prim = cls(**attrs)
        except TypeError as e:
            raise unsupported(node, f"msxla's Primitive does not take its attributes ({e}).") \
                from None
    prim.add_prim_attrs(attrs)
    return prim(*(tensor(a) for a in args if not isinstance(a, Monad)))


for _name in ("Conv2D", "Conv3D", "MaxPool", "MaxPool3D", "AvgPool3D", "Conv2DBackpropInput",
              "Conv2DTranspose", "Conv3DTranspose", "Pad", "ResizeBilinear", "ResizeBilinearV2",
              "DepthwiseConv2dNative", "LRN", "MaxPoolWithArgmax"):
    if _name not in LOADERS and not optable.is_primitive_function(_name):
        LOADERS[_name] = _old_style
