"""``ops.csr_<op>`` / ``ops.coo_<op>``: an elementwise op on the stored values of a
CSRTensor or COOTensor, the sparsity pattern kept (MindSpore 2.10's
``sparse_unary_func``). Like MindSpore's, they apply the op to the stored values
only: ``csr_cos`` of a CSRTensor keeps its empty positions empty, not 1.

Each is a composite generated from the dense op of the same name (looked up
when called), so the functions run eagerly and inside captured graphs.
"""
from __future__ import annotations

import sys

from msxla.common.sparse_tensor import COOTensor, CSRTensor
from msxla.errors import user_error
from msxla.ops.surface import composite, exports

_OPS = ("abs", "acos", "acosh", "asin", "asinh", "atan", "atanh", "ceil", "cos", "cosh", "exp",
        "expm1", "floor", "inv", "isfinite", "isinf", "isnan", "log", "log1p", "neg", "relu",
        "relu6", "round", "sigmoid", "sin", "sinh", "softsign", "sqrt", "square", "tan", "tanh")


def _dense(name):
    import msxla.ops
    return getattr(msxla.ops, name)


def _make(kind, cls, name):
    fname = f"{kind}_{name}"

    def fn(x):
        if not isinstance(x, cls):
            raise user_error(TypeError, f"For functional operator {fname}, input argument must "
                                        f"be a {cls.__name__}, but got {type(x).__name__}.")
        values = _dense(name)(x.values)
        return cls._from_parts(x.shape, *x._parts()[:-1], values)

    fn.__name__ = fn.__qualname__ = fname
    fn.__doc__ = (f"``{name}`` of the stored values of a {cls.__name__} (the same sparsity "
                  "pattern).")
    return composite(fname, prim=fname)(fn)


_module = sys.modules[__name__]
for _name in _OPS:
    for _kind, _cls in (("csr", CSRTensor), ("coo", COOTensor)):
        setattr(_module, f"{_kind}_{_name}", _make(_kind, _cls, _name))

__all__ = exports(__name__)
