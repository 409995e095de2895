"""Runtime values of converted code: undefined variables and conditions.

``Undefined(name)`` stands for a variable that has no value yet (converted
code binds every control-flow variable up front, see ``convert_scope.py``);
using it raises ``UnboundLocalError`` as Python would. ``condition(value)``
turns an ``if`` / ``while`` test into either a Python bool (decided at
capture time) or a scalar boolean jax tracer (decided when the graph runs).
"""
from __future__ import annotations

import jax.numpy as jnp
from jax.core import Tracer

from msxla.common.tensor import Tensor


class Undefined:
    """A variable that is not bound (yet) in converted code."""

    __slots__ = ("name",)

    def __init__(self, name):
        object.__setattr__(self, "name", name)

    def __repr__(self):
        return f"<undefined '{self.name}'>"

    def _fail(self, *args, **kwargs):
        raise UnboundLocalError(f"cannot access local variable '{self.name}' where it is not "
                                "associated with a value")

    def __getattr__(self, attr):
        if attr.startswith("__") and attr.endswith("__"):
            raise AttributeError(attr)
        self._fail()

    __bool__ = __call__ = __iter__ = __len__ = __getitem__ = __setitem__ = _fail
    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = __truediv__ = _fail
    __rtruediv__ = __floordiv__ = __mod__ = __pow__ = __matmul__ = __neg__ = _fail
    __lt__ = __le__ = __gt__ = __ge__ = __index__ = __int__ = __float__ = _fail


def undefined(name):
    return Undefined(name)


def is_undefined(value) -> bool:
    return type(value) is Undefined


def traced_tensor(value) -> bool:
    """A Tensor whose value only exists in the graph being captured."""
    return isinstance(value, Tensor) and isinstance(value._data, Tracer)


def is_traced(pred) -> bool:
    return isinstance(pred, Tracer)


def condition(value):
    """A Python bool, or a scalar bool tracer when ``value`` is a graph Tensor."""
    if isinstance(value, Tensor):
        data = value._data
        if isinstance(data, Tracer):
            if data.size != 1:
                raise ValueError("The truth value of a Tensor with more than one element is "
                                 "ambiguous. Use .any() or .all().")
            data = data.reshape(())
            return data if data.dtype == jnp.bool_ else data != 0
    if isinstance(value, Tracer):
        return value if value.dtype == jnp.bool_ else value != 0
    if is_undefined(value):
        value._fail()
    return bool(value)


def scalar_value(data, pytype):
    """A 0-d graph value that stands for a Python scalar (MindSpore's variable
    scalar): it promotes like ``pytype`` and is returned as ``pytype``."""
    from msxla.common.tensor import variable_scalar
    return variable_scalar(data, pytype)
