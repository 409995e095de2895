"""numpy ufuncs applied to Tensors: ``ndarray == Tensor``, ``ndarray + Tensor``,
``np.add(arr, t)``, ``np.sin(t)``.

MindSpore's Tensor neither sets ``__array_priority__`` nor handles ufuncs, so
numpy computes these on the Tensor's value (``__array__``) and returns numpy
results: ``np.all(t.asnumpy() == expected_tensor)`` compares element-wise.
Eagerly msxla does the same. A Tensor without a value (a graph being captured,
or a gradient being traced) cannot be handed to numpy; there the binary
operators numpy reaches from ``ndarray op Tensor`` run as the Tensor's own
operators (as MindSpore's graph compiler turns them into ops), with numpy
operands taken as Tensors. Other ufuncs on such Tensors raise as ``__array__``
does.
"""
from __future__ import annotations

import operator

import numpy as np
from jax.core import Tracer

_OPERATORS = {
    np.add: operator.add, np.subtract: operator.sub, np.multiply: operator.mul,
    np.true_divide: operator.truediv, np.floor_divide: operator.floordiv,
    np.remainder: operator.mod, np.power: operator.pow, np.matmul: operator.matmul,
    np.equal: operator.eq, np.not_equal: operator.ne, np.less: operator.lt,
    np.less_equal: operator.le, np.greater: operator.gt, np.greater_equal: operator.ge,
    np.bitwise_and: operator.and_, np.bitwise_or: operator.or_, np.bitwise_xor: operator.xor,
}


def array_ufunc(ufunc, method, inputs, kwargs):
    """``Tensor.__array_ufunc__``: the result numpy gives, or a Tensor while traced."""
    from msxla.common.tensor import Tensor
    operands = inputs + tuple(kwargs.get("out", ()) or ())
    if any(isinstance(x, Tensor) and isinstance(x._data, Tracer) for x in operands):
        fn = _OPERATORS.get(ufunc)
        if fn is not None and method == "__call__" and len(inputs) == 2 and not kwargs:
            a, b = (Tensor(x) if isinstance(x, (np.ndarray, np.generic)) else x for x in inputs)
            return fn(a, b)
    if any(isinstance(x, Tensor) for x in kwargs.get("out", ()) or ()):
        return NotImplemented  # numpy cannot write into a Tensor: TypeError, as for any object
    args = tuple(np.asarray(x) if isinstance(x, Tensor) else x for x in inputs)
    return getattr(ufunc, method)(*args, **kwargs)
