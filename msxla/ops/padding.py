"""Op rows: padding (``ops.pad`` with constant/reflect/replicate/circular modes) and
the ``Pad`` primitive.

``padding`` lists (before, after) pairs starting from the *last* dimension, as
``torch.nn.functional.pad`` does; negative constant padding crops.
"""
from __future__ import annotations

import numbers

import jax
import jax.numpy as jnp
import numpy as np

from msxla.common import dtype as mstype
from msxla.common.tensor import Tensor
from msxla.ops.opdef import op
from msxla.ops.primitive import PrimDef
from msxla.ops.surface import composite, exports


_MODES = {"constant": "constant", "reflect": "reflect", "replicate": "edge", "edge": "edge",
          "circular": "wrap"}


def _pairs(padding, ndim):
    pads = tuple(padding)
    for p in pads:
        if isinstance(p, bool) or not isinstance(p, numbers.Integral):
            raise TypeError(f"For 'pad', each element of 'padding' must be an int, but got "
                            f"{type(p).__name__}.")
    if len(pads) % 2:
        raise ValueError(f"For 'pad', the size of padding must be divisible by 2, but got "
                         f"{len(pads)}")
    if len(pads) // 2 > ndim:
        raise ValueError(f"For 'pad', 'padding' pads {len(pads) // 2} dimensions but the input "
                         f"has only {ndim}.")
    out = [(0, 0)] * ndim
    for i in range(len(pads) // 2):
        out[ndim - 1 - i] = (int(pads[2 * i]), int(pads[2 * i + 1]))
    return out


def pad_array(x, pairs, mode, value):
    """``x`` padded by per-dimension ``(before, after)`` ``pairs`` (jax arrays in and out)."""
    if mode not in _MODES:
        raise ValueError(f"For 'pad', the 'mode' must be 'constant', 'reflect', 'replicate' or "
                         f"'circular', but got {mode!r}.")
    if mode == "constant":
        fill = jnp.asarray(0 if value is None else value).astype(x.dtype)
        return jax.lax.pad(x, fill, [(lo, hi, 0) for lo, hi in pairs])
    for d, (lo, hi) in enumerate(pairs):
        if lo < 0 or hi < 0:
            raise ValueError(f"For 'pad', negative padding is only supported in 'constant' mode, "
                             f"but got {(lo, hi)} for dimension {d} in {mode!r} mode.")
        if mode == "reflect" and (lo >= x.shape[d] or hi >= x.shape[d]) and (lo or hi):
            raise ValueError(f"For 'pad' reflect mode, padding size must be less than the "
                             f"corresponding input dimension, but got padding {(lo, hi)} at "
                             f"dimension {d} of input shape {x.shape}.")
        if mode == "circular" and (lo > x.shape[d] or hi > x.shape[d]):
            raise ValueError(f"For 'pad' circular mode, padding {(lo, hi)} at dimension {d} "
                             f"must not exceed the input size {x.shape[d]}.")
    return jnp.pad(x, pairs, mode=_MODES[mode])


def _pad_call(prim, x):
    if len(prim.paddings) != x.ndim:
        raise ValueError(f"For 'Pad', the 'paddings' must have one pair per input dimension "
                         f"({x.ndim}), but got {len(prim.paddings)}.")
    flat = []
    for lo, hi in reversed(tuple(prim.paddings)):
        flat += [lo, hi]
    return pad(x, tuple(flat))


@op(static=("padding", "mode"), prim="PadV3", dtypes=tuple(mstype.all_types),
    primitive=PrimDef("Pad", init=(("paddings", ()),), call=_pad_call,
                      doc="``Pad(paddings)(x)``: constant zero padding, one (before, after) "
                          "pair per dimension from the first."))
def pad(input_x, padding, mode="constant", value=None):
    """``input_x`` padded by ``padding`` = (left, right, top, bottom, ...) from the last
    dimension backwards; ``value`` fills in constant mode (default 0)."""
    return pad_array(input_x, _pairs(padding, input_x.ndim), mode, value)


_V3_MODES = {"constant": "constant", "reflect": "reflect", "edge": "replicate",
             "circular": "circular"}


def _padv3_call(prim, x, paddings, constant_value=None):
    mode = prim.mode
    if mode not in _V3_MODES:
        raise ValueError(f"For 'PadV3', the 'mode' must be one of {list(_V3_MODES)}, but got "
                         f"{mode!r}.")
    flat = [int(p) for p in np.asarray(paddings.asnumpy() if isinstance(paddings, Tensor)
                                       else paddings).reshape(-1)]
    if len(flat) % 2:
        raise ValueError(f"For 'PadV3', the number of 'paddings' must be even, but got "
                         f"{len(flat)}.")
    if not prim.paddings_contiguous:
        half = len(flat) // 2
        flat = [v for pair in zip(flat[:half], flat[half:]) for v in pair]
    if mode != "constant" and len(flat) in (2, 4, 6) and x.ndim != len(flat) // 2 + 2 and \
            len(flat) != 2:
        raise ValueError(f"For primitive[PadV3], the input dims when padding's size equal "
                         f"{len(flat)} must be equal to {len(flat) // 2 + 2}, but got {x.ndim}.")
    value = None if constant_value is None else (
        constant_value.item() if isinstance(constant_value, Tensor) else constant_value)
    return pad(x, tuple(flat), _V3_MODES[mode], value if mode == "constant" else None)


@composite(public=False, primitive=PrimDef("PadV3", init=(("mode", "constant"),
                                                          ("paddings_contiguous", True)),
                                           call=_padv3_call))
def _padv3(x, paddings, constant_value=None):
    """``PadV3(mode, paddings_contiguous)(x, paddings, constant_value)``: ``ops.pad`` with
    the paddings as a Tensor (pairs from the last dimension backwards, or all begins then
    all ends when not contiguous); ``edge`` is ``replicate``."""


__all__ = exports(__name__)
