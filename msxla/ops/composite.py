"""``mindspore.ops.composite``: MultitypeFuncGraph, HyperMap, Map, partial, add_flags,
the multitype ``ones_like`` and the grad APIs.

``MultitypeFuncGraph`` dispatches on the MindSpore type names of its
arguments (``"Tensor"``, ``"Number"``, ``"Tuple"``, ...), first registered
match first; ``HyperMap`` / ``Map`` apply a function over tuples and lists
elementwise, the way optimizers update every Parameter::

    hyper_map(F.partial(_sgd_opt, lr), grads, params)

The differentiation APIs (``GradOperation``, ``grad``, ``vjp``, ...) live in
``msxla.autodiff`` and are re-exported here, as MindSpore's ops namespace does.
"""
from __future__ import annotations

import functools

import numpy as np

from msxla.autodiff import (GradOperation, get_grad, grad, jacfwd, jacrev, jvp, value_and_grad,
                            vjp, vmap)
from msxla.common import dtype as mstype
from msxla.common.sparse_tensor import COOTensor, CSRTensor, RowTensor
from msxla.common.tensor import Tensor
from msxla.errors import user_error

__all__ = ["MultitypeFuncGraph", "HyperMap", "Map", "partial", "GradOperation", "grad",
           "value_and_grad", "get_grad", "vjp", "jvp", "jacfwd", "jacrev", "vmap", "add_flags"]


def _is_number(v):
    return isinstance(v, (bool, int, float, complex, np.number, np.bool_))


def _is_function(v):
    return callable(v) and not isinstance(v, type)


# MindSpore type name -> predicate on a Python value. Names MindSpore knows but
# no Python value here can have (map tensors, monads) never match.
_TYPE_CHECKS = {
    "Tensor": lambda v: isinstance(v, Tensor),
    "Number": _is_number,
    "Bool": lambda v: isinstance(v, (bool, np.bool_)),
    "Int": lambda v: isinstance(v, (int, np.integer)) and not isinstance(v, bool),
    "UInt": lambda v: isinstance(v, np.unsignedinteger),
    "Float": lambda v: isinstance(v, (float, np.floating)),
    "Complex": lambda v: isinstance(v, (complex, np.complexfloating)),
    "Tuple": lambda v: isinstance(v, tuple),
    "List": lambda v: isinstance(v, list),
    "Dictionary": lambda v: isinstance(v, dict),
    "Function": _is_function,
    "Func": _is_function,
    "String": lambda v: isinstance(v, str),
    "None": lambda v: v is None,
    "Slice": lambda v: isinstance(v, slice),
    "Ellipsis": lambda v: v is Ellipsis,
    "TypeType": lambda v: isinstance(v, (type, mstype.Type)),
}
for _never in ("MapTensor", "UMonad", "IOMonad"):
    _TYPE_CHECKS[_never] = lambda v: False
_TYPE_CHECKS["RowTensor"] = lambda v: isinstance(v, RowTensor)
_TYPE_CHECKS["COOTensor"] = lambda v: isinstance(v, COOTensor)
_TYPE_CHECKS["CSRTensor"] = lambda v: isinstance(v, CSRTensor)
for _t in mstype.number_type + (mstype.bool_,):
    _TYPE_CHECKS[str(_t)] = (lambda t: lambda v: (_is_number(v) and not isinstance(v, Tensor)
                                                  and mstype.get_py_obj_dtype(v) is t))(_t)


def _type_check(type_input):
    if isinstance(type_input, mstype.TensorType):
        return _TYPE_CHECKS["Tensor"]
    if isinstance(type_input, mstype.Type):
        type_input = str(type_input)
    if not isinstance(type_input, str):
        raise user_error(TypeError, "For 'MultitypeFuncGraph', register only supports str or "
                         f"mindspore.dtype types, but got {type_input!r}.")
    if type_input not in _TYPE_CHECKS:
        raise user_error(RuntimeError, f"For 'MultitypeFuncGraph', unsupported type name: "
                         f"{type_input}!")
    return _TYPE_CHECKS[type_input]


class MultitypeFuncGraph:
    """A function overloaded on the MindSpore types of its arguments.

    Args:
        name: the operation's name.
        read_value: kept for compatibility (arguments are always passed by value).
    """

    def __init__(self, name, read_value=False):
        self.name = name
        self.read_value = read_value
        self.entries = []

    def register(self, *type_names):
        """Decorator: call the function when the arguments have ``type_names``."""

        def deco(fn):
            checks = tuple(_type_check(t) for t in type_names)
            self.entries.append((type_names, checks, fn))
            return fn

        return deco

    def __call__(self, *args):
        for arg in args:
            if isinstance(arg, np.ndarray):
                raise user_error(TypeError, f"For 'MultitypeFuncGraph' '{self.name}', the input "
                                 "can not be numpy.ndarray; wrap it in a Tensor.")
        if len(self.entries) == 1:
            return self.entries[0][2](*args)
        for _, checks, fn in self.entries:
            if len(checks) == len(args) and all(c(a) for c, a in zip(checks, args)):
                return fn(*args)
        got = tuple(_type_name(a) for a in args)
        sigs = [names for names, _, _ in self.entries]
        raise user_error(ValueError, f"For 'MultitypeFuncGraph' '{self.name}', cannot find fn "
                         f"match given args. Registered signatures: {sigs}, and the argument "
                         f"types: {got}.")

    def __repr__(self):
        return f"MultitypeFuncGraph({self.name!r})"


def _type_name(v):
    for name in ("Tensor", "Bool", "Int", "Float", "Tuple", "List", "String", "None", "Function"):
        if _TYPE_CHECKS[name](v):
            return name
    return type(v).__name__


class HyperMap:
    """Apply ``ops`` over (nested) tuples and lists, leaf by leaf.

    With ``ops=None`` the first call argument is the function. The result of
    mapping sequences is a tuple; a leaf (anything but a tuple or list as the
    first argument) is passed to the function directly.
    """

    def __init__(self, ops=None, reverse=False):
        self.ops = ops
        self.reverse = reverse

    def __call__(self, *args):
        func, rest = (args[0], args[1:]) if self.ops is None else (self.ops, args)
        return _hyper_map(func, rest)


def _hyper_map(func, args):
    if not isinstance(args[0], (tuple, list)):
        return func(*args)
    return tuple(_hyper_map(func, row) for row in zip(*args))


class Map:
    """Apply ``ops`` to the elements of tuples or lists (one level), returning a tuple."""

    def __init__(self, ops=None, reverse=False):
        self.ops = ops
        self.reverse = reverse

    def __call__(self, *args):
        func, rest = (args[0], args[1:]) if self.ops is None else (self.ops, args)
        return tuple(map(func, *rest))


def partial(func, *args, **kwargs):
    """``func`` with its first arguments bound (``ops.partial`` / ``F.partial``)."""
    return functools.partial(func, *args, **kwargs)


def add_flags(fn=None, **flags):
    """Attach compile flags to ``fn`` (as ``fn._func_graph_flags``) and return it; without
    ``fn``, a decorator doing so. msxla's capture reads no such flags; they are kept so
    code that sets or reads them runs."""
    def deco(f):
        setattr(f, "_func_graph_flags", dict(flags))
        return f
    return deco if fn is None else deco(fn)


def ones_like(x):
    """``ops.composite.ones_like``: ones shaped like ``x`` for a Tensor, ``1`` of the
    same type for a number, and a tuple of those for a tuple or list (not in
    ``__all__``: ``ops.ones_like`` is the Tensor op)."""
    if isinstance(x, Tensor):
        from msxla.ops.creation import ones_like as tensor_ones_like
        return tensor_ones_like(x)
    if isinstance(x, (tuple, list)):
        return tuple(ones_like(v) for v in x)
    if _is_number(x):
        return type(x)(1)
    raise TypeError(f"For 'ones_like', the input must be a Tensor, a number, a tuple or a list, "
                    f"but got {type(x).__name__}.")
