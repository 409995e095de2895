"""``mindspore.ops.jet`` and ``mindspore.ops.derivative``: higher-order derivatives of a
function along a curve through its inputs (Taylor mode).

``jet(fn, primals, series)``: each input moves along ``x(t) = x + sum_k s_k t^k / k!``
where ``s_k = series[k - 1]`` (a Tensor whose first axis is the order, one per input);
it returns ``(fn(primals), out_series)`` with ``out_series[k - 1]`` the k-th derivative
of ``fn(x(t))`` at ``t = 0``, one Tensor of shape ``(order, *output_shape)`` per output
(several outputs come as lists, as in MindSpore).
``derivative(fn, primals, order)`` is the ``order``-th derivative along ``x(t) = x + t``
for every input: ``(fn(primals), d^order fn(x + t) / dt^order at 0)``.

The derivatives are nested forward-mode products in the curve's scalar parameter, so
every op jax can differentiate works (``jax.experimental.jet`` lacks rules for some).
"""
from __future__ import annotations

import math

import jax
import jax.numpy as jnp

from msxla.autodiff._args import check_callable
from msxla.autodiff._functionalize import CallPlan
from msxla.common.tensor import Tensor
from msxla.errors import user_error

__all__ = ["jet", "derivative"]


def _as_tuple(api, what, value):
    if isinstance(value, Tensor):
        return (value,), True
    if isinstance(value, (tuple, list)) and value and all(isinstance(v, Tensor) for v in value):
        return tuple(value), False
    raise user_error(TypeError, f"For '{api}', the {what} must be a Tensor or a tuple of "
                     f"Tensors, but got {type(value).__name__}.")


def _taylor(api, fn, primals, series_arrays, order):
    """``(output, [series of each output leaf])`` for inputs moving along their series."""
    plan = CallPlan(fn, primals, {}, tuple(range(len(primals))), (), False, api)
    f = plan.function()
    x0 = list(plan.primals)
    dtype = jnp.result_type(*[x.dtype for x in x0])

    def along(t):
        xs = [x + sum(s[k] * (t ** (k + 1) / math.factorial(k + 1)) for k in range(order))
              for x, s in zip(x0, series_arrays)]
        return f(*[x.astype(ref.dtype) for x, ref in zip(xs, x0)])[0]

    derivs, fk = [], along
    for _ in range(order):
        fk = (lambda g: lambda t: jax.jvp(g, (t,), (jnp.ones((), dtype),))[1])(fk)
        derivs.append(fk(jnp.zeros((), dtype)))
    diff, aux = f(*x0)
    plan.write_back(aux)
    out = plan.output(diff, aux)
    zeros = [jnp.zeros((order,) + a.shape, a.dtype) for a in aux[0]]
    stacked = [jnp.stack([d[i] for d in derivs]) for i in range(len(diff))]
    series = plan.output(stacked, (zeros, None))
    if isinstance(out, tuple):  # several outputs: lists, as MindSpore returns them
        return list(out), list(series)
    return out, series


def jet(fn, primals, series):
    """``(fn(primals), out_series)``: the derivatives of ``fn`` along the inputs' series."""
    check_callable("jet", fn)
    ins, _ = _as_tuple("jet", "primals", primals)
    sers, _ = _as_tuple("jet", "series", series)
    if len(sers) != len(ins):
        raise user_error(ValueError, f"For 'jet', the number of series ({len(sers)}) must equal "
                         f"the number of primals ({len(ins)}).")
    arrays = []
    for i, (x, s) in enumerate(zip(ins, sers)):
        if tuple(s.shape[1:]) != tuple(x.shape):
            raise user_error(ValueError, f"For 'jet', series[{i}] must have the shape "
                             f"(order, *{tuple(x.shape)}), but got {tuple(s.shape)}.")
        arrays.append(s._data)
    orders = {a.shape[0] for a in arrays}
    if len(orders) != 1:
        raise user_error(ValueError, "For 'jet', every series must have the same order "
                         f"(first axis), but got {sorted(orders)}.")
    return _taylor("jet", fn, ins, arrays, orders.pop())


def derivative(fn, primals, order):
    """``(fn(primals), the order-th derivative of fn(primals + t) at t = 0)``."""
    check_callable("derivative", fn)
    if isinstance(order, bool) or not isinstance(order, int) or order < 1:
        raise user_error(ValueError, f"For 'derivative', the order must be a positive int, "
                         f"but got {order!r}.")
    ins, _ = _as_tuple("derivative", "primals", primals)
    arrays = [jnp.concatenate([jnp.ones((1,) + tuple(x.shape), x._data.dtype),
                               jnp.zeros((order - 1,) + tuple(x.shape), x._data.dtype)])
              for x in ins]
    out, series = _taylor("derivative", fn, ins, arrays, order)
    last = jax.tree_util.tree_map(lambda t: t[order - 1], series,
                                  is_leaf=lambda v: isinstance(v, Tensor))
    return out, last
