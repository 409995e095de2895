"""Op row: ``ExtractImagePatches`` (``nn.Unfold``): every ``ksize_row x ksize_col``
window of an NCHW image, with strides and dilation rates, as channels.

The output depth is ordered as MindSpore's (TensorFlow's) kernel orders it:
window row, window column, then input channel. The windows come from XLA's
patch extraction (``conv_general_dilated_patches``, input channel first), reordered.
"""
from __future__ import annotations

import jax
import jax.numpy as jnp

from msxla.ops.opdef import op
from msxla.ops.primitive import PrimDef
from msxla.ops.surface import exports


def _four(name, value):
    if not isinstance(value, (tuple, list)):
        raise TypeError(f"For 'ExtractImagePatches', the '{name}' must be a tuple or list, but "
                        f"got {type(value).__name__}.")
    if len(value) != 4 or value[0] != 1 or value[3] != 1:
        raise ValueError(f"For 'ExtractImagePatches', the shape of '{name}' must be (1, x_row, "
                         f"x_col, 1), but got {tuple(value)}.")
    if value[1] < 1 or value[2] < 1:
        raise ValueError(f"For 'ExtractImagePatches', the second and third element of '{name}' "
                         f"must be at least 1, but got {tuple(value)}.")
    return int(value[1]), int(value[2])


def _patches_prim(prim, input_x):
    a = prim.attrs
    return _patches_row(input_x, tuple(a["ksizes"]), tuple(a["strides"]), tuple(a["rates"]),
                        a["padding"])


@op(static=("ksizes", "strides", "rates", "padding"), prim="ExtractImagePatches",
    public=False, primitive=PrimDef(init=(("ksizes", None), ("strides", None), ("rates", None),
                                          ("padding", "VALID")), call=_patches_prim))
def _extract_image_patches(input_x, ksizes, strides, rates, padding="VALID"):
    """Patches of NCHW ``input_x``: [N, kh * kw * C, out_row, out_col]."""
    kh, kw = _four("ksizes", ksizes)
    sh, sw = _four("strides", strides)
    rh, rw = _four("rates", rates)
    pad = str(padding).upper()
    if pad not in ("SAME", "VALID"):
        raise ValueError("For 'ExtractImagePatches', the 'padding' must be 'SAME' or 'VALID', "
                         f"but got {padding}.")
    n, c = input_x.shape[:2]
    out = jax.lax.conv_general_dilated_patches(
        input_x, (kh, kw), (sh, sw), pad, rhs_dilation=(rh, rw),
        dimension_numbers=("NCHW", "OIHW", "NCHW"), precision=jax.lax.Precision.HIGHEST)
    oh, ow = out.shape[2:]
    out = out.reshape(n, c, kh * kw, oh, ow).transpose(0, 2, 1, 3, 4)
    return out.reshape(n, kh * kw * c, oh, ow).astype(input_x.dtype)


_patches_row = _extract_image_patches

__all__ = exports(__name__)
