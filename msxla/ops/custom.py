"""``ops.Custom``: a Primitive whose computation is the user's function.

``func_type="pyfunc"``: ``func`` takes and returns numpy arrays. Eagerly it is
called at once; inside a captured graph it becomes a host callback
(``jax.pure_callback``) with the declared outputs, so the compiled graph calls
it on every run. ``out_shape`` and ``out_dtype`` are a shape / dtype, a list
of them (several outputs), or functions of the inputs' shapes / dtypes, as in
MindSpore. A pyfunc has no gradient unless ``bprop`` is given: then
``bprop(*inputs, out, dout)`` (Tensors in, a tuple of input gradients out)
runs in the backward pass. The device-kernel kinds (``aot``, ``akg``,
``hybrid``, ``tbe``, ``aicpu``, ``julia``) compile for MindSpore's backends and
are refused with a TypeError that says so.
"""
from __future__ import annotations

import jax
import numpy as np

from msxla.common import dtype as mstype
from msxla.common.state import is_capturing
from msxla.common.tensor import Tensor, wrap
from msxla.ops.primitive import REQUIRED, PrimDef
from msxla.ops.surface import composite, exports

_KINDS = ("hybrid", "akg", "tbe", "aicpu", "aot", "pyfunc", "julia")


def _as_list(value, n_inputs_values):
    return value(*n_inputs_values) if callable(value) else value


def _out_specs(prim, inputs):
    shapes = _as_list(prim.out_shape, [list(x.shape) for x in inputs])
    dtypes = _as_list(prim.out_dtype, [x.dtype for x in inputs])
    multi = isinstance(shapes, (list, tuple)) and shapes and isinstance(shapes[0], (list, tuple))
    if not multi:
        shapes, dtypes = [shapes], [dtypes]
    elif not isinstance(dtypes, (list, tuple)):
        dtypes = [dtypes] * len(shapes)
    specs = [jax.ShapeDtypeStruct(tuple(int(d) for d in s), mstype.dtype_to_nptype(mstype.to_ms(t)))
             for s, t in zip(shapes, dtypes)]
    return specs, multi


def _host(func, specs):
    def run(*arrays):
        out = func(*[np.asarray(a) for a in arrays])
        outs = out if isinstance(out, (tuple, list)) else (out,)
        if len(outs) != len(specs):
            raise ValueError(f"For 'Custom', the function returned {len(outs)} outputs, but "
                             f"'out_shape' declares {len(specs)}.")
        return tuple(np.asarray(o, s.dtype).reshape(s.shape) for o, s in zip(outs, specs))
    return run


def _custom_call(prim, *inputs):
    if any(not isinstance(x, Tensor) for x in inputs):
        raise TypeError("For 'Custom', the inputs must be Tensors.")
    specs, multi = _out_specs(prim, inputs)
    run = _host(prim.func, specs)
    arrays = [x._data for x in inputs]
    traced = is_capturing() or any(isinstance(a, jax.core.Tracer) for a in arrays)

    def forward(*xs):
        if traced:
            return tuple(jax.pure_callback(run, tuple(specs), *xs))
        return tuple(jax.numpy.asarray(o) for o in run(*xs))

    if prim.bprop is not None:
        fn = jax.custom_vjp(forward)

        def fwd(*xs):
            out = forward(*xs)
            return out, (xs, out)

        def bwd(res, douts):
            xs, out = res
            out_t = tuple(wrap(o) for o in out)
            dout_t = tuple(wrap(d) for d in douts)
            grads = prim.bprop(*(wrap(x) for x in xs), out_t if multi else out_t[0],
                               dout_t if multi else dout_t[0])
            return tuple(g._data if isinstance(g, Tensor) else jax.numpy.asarray(g)
                         for g in grads)

        fn.defvjp(fwd, bwd)
        outs = fn(*arrays)
    else:
        outs = forward(*[jax.lax.stop_gradient(a) for a in arrays])
    outs = tuple(wrap(o) for o in outs)
    return outs if multi else outs[0]


def _check_custom(prim):
    kind = prim.func_type
    if kind not in _KINDS:
        raise ValueError(f"For 'Custom', 'func_type' must be one of {list(_KINDS)}, but got "
                         f"{kind!r}.")
    if kind != "pyfunc":
        raise TypeError(f"For 'Custom', func_type={kind!r} builds a kernel for MindSpore's own "
                        "backends, which msxla does not run; write the function for numpy and "
                        "use func_type='pyfunc'.")
    if not callable(prim.func):
        raise TypeError(f"For 'Custom', 'func' must be callable, but got "
                        f"{type(prim.func).__name__}.")
    for name in ("out_shape", "out_dtype"):
        value = getattr(prim, name)
        if value is None:
            raise TypeError(f"For 'Custom', 'func_type': {kind}, 'func': {prim.func}, '{name}' "
                            "must be one of [tuple, list, function], but got <class 'NoneType'>")


@composite(public=False, primitive=PrimDef("Custom", init=(
    ("func", REQUIRED), ("out_shape", None), ("out_dtype", None), ("func_type", "hybrid"),
    ("bprop", None), ("reg_info", None)), call=_custom_call, check=_check_custom))
def _custom(*inputs):
    """The user's function on ``inputs`` (see the Primitive)."""
    return inputs


__all__ = exports(__name__)
