"""Op rows: convolutions (conv1d/2d/3d, conv_transpose2d, conv3d_transpose) and the
Conv2D / Conv3D / Conv2DBackpropInput / Conv2DTranspose / Conv3DTranspose primitives.

Layout is channels-first (NCW, NCHW, NCDHW; weights OIW, OIHW, OIDHW). Every
convolution is one ``jax.lax.conv_general_dilated``; a transposed convolution
is the linear transpose of the forward convolution it undoes, so its output
size, padding and grouping follow from that convolution exactly.

Padding: ``pad_mode`` is 'valid' (none), 'same' (output = ceil(input / stride),
the odd pixel on the high side) or 'pad' (explicit ``padding``: an int, one int
per spatial dim, or a (low, high) pair per spatial dim).
"""
from __future__ import annotations

import jax
from jax import lax

from msxla.ops._nn_util import tuple_n
from msxla.ops.opdef import op
from msxla.ops.primitive import PrimDef
from msxla.ops.surface import exports


_DN = {1: ("NCH", "OIH", "NCH"), 2: ("NCHW", "OIHW", "NCHW"), 3: ("NCDHW", "OIDHW", "NCDHW")}
_PAD_MODES = ("valid", "same", "pad")


def _check_pad_mode(name, pad_mode, padding):
    if not isinstance(pad_mode, str) or pad_mode.lower() not in _PAD_MODES:
        raise ValueError(f"For '{name}', the 'pad_mode' must be str and must be in "
                         f"'{list(_PAD_MODES)}', but got '{pad_mode}'.")
    pad_mode = pad_mode.lower()
    if pad_mode != "pad" and padding not in (0, (0,), None) and any(
            p != 0 for p in (padding if isinstance(padding, tuple) else (padding,))):
        raise ValueError(f"For '{name}', the 'pad' must be zero when 'pad_mode' is not 'pad', "
                         f"but got 'pad': {padding} and 'pad_mode': {pad_mode}.")
    return pad_mode


def _pairs(name, padding, nd):
    """``padding`` (int, nd ints, or 2*nd ints low/high) as nd (low, high) pairs."""
    if isinstance(padding, int):
        return ((padding, padding),) * nd
    padding = tuple(int(p) for p in padding)
    if len(padding) == 1:
        return ((padding[0], padding[0]),) * nd
    if len(padding) == nd:
        return tuple((p, p) for p in padding)
    if len(padding) == 2 * nd:
        return tuple((padding[2 * i], padding[2 * i + 1]) for i in range(nd))
    raise ValueError(f"For '{name}', 'padding' must be a tuple or list of {nd} integers, "
                     f"but got {padding}.")


def _same_pads(in_sizes, kernel, stride, dilation):
    pads = []
    for n, k, s, d in zip(in_sizes, kernel, stride, dilation):
        out = -(-n // s)
        total = max((out - 1) * s + d * (k - 1) + 1 - n, 0)
        pads.append((total // 2, total - total // 2))
    return tuple(pads)


def _spatial(name, value, nd, arg):
    """stride/dilation: an int, nd ints, or MindSpore's (1, 1, ...) full-rank form."""
    if not isinstance(value, int) and len(value) == nd + 2:
        value = tuple(value)[2:]
    return tuple_n(value, nd, name, arg)


def _forward(x, w, stride, pads, dilation, groups):
    return lax.conv_general_dilated(x, w, stride, pads, rhs_dilation=dilation,
                                    feature_group_count=groups,
                                    dimension_numbers=_DN[x.ndim - 2])


def _conv(name, input, weight, bias, stride, pad_mode, padding, dilation, groups):
    nd = input.ndim - 2
    prim = f"Conv{nd}D"
    pad_mode = _check_pad_mode(prim, pad_mode, padding)
    stride = _spatial(name, stride, nd, "stride")
    dilation = _spatial(name, dilation, nd, "dilation")
    if input.shape[1] != weight.shape[1] * groups:
        raise ValueError(f"For '{prim}', 'C_in' of input 'x' shape divide by parameter 'group' "
                         f"must be equal to 'C_in' of input 'weight' shape: {weight.shape[1]}, "
                         f"but got 'C_in' of input 'x' shape: {input.shape[1]}, and 'group': "
                         f"{groups}.")
    if pad_mode == "same":
        pads = _same_pads(input.shape[2:], weight.shape[2:], stride, dilation)
    elif pad_mode == "pad":
        pads = _pairs(name, padding, nd)
    else:
        pads = ((0, 0),) * nd
    out = _forward(input, weight, stride, pads, dilation, groups)
    if bias is not None:
        out = out + bias.reshape((1, -1) + (1,) * nd)
    return out


# ---------------------------------------------------------------- primitives
def _check_format(prim):
    fmt = prim.attrs.get("data_format", "NCHW")
    if fmt not in ("NCHW", "NCDHW"):
        raise ValueError(f"For '{prim.name}', the 'data_format' only supports channels-first "
                         f"('NCHW' / 'NCDHW'), but got '{fmt}'.")


def _conv_prim(nd):
    """``Conv{nd}D(out_channel, kernel_size, ...)(x, weight)``: the row ``conv{nd}d``."""
    def call(prim, x, weight):
        a = prim.attrs
        _check_format(prim)
        conv = conv2d if nd == 2 else conv3d
        return conv(x, weight, None, stride=a["stride"], pad_mode=a["pad_mode"], padding=a["pad"],
                    dilation=a["dilation"], groups=a["group"])
    return call


_CONV_INIT = (("out_channel", None), ("kernel_size", None), ("mode", 1), ("pad_mode", "valid"),
              ("pad", 0), ("stride", 1), ("dilation", 1), ("group", 1))


def _conv_primitive(nd):
    if nd == 1:
        return None
    fmt = "NCHW" if nd == 2 else "NCDHW"
    return PrimDef(init=_CONV_INIT + (("data_format", fmt),), call=_conv_prim(nd))


def _conv_row(nd):
    name = f"conv{nd}d"

    def impl(input, weight, bias=None, stride=1, pad_mode="valid", padding=0, dilation=1,
             groups=1):
        if input.ndim != nd + 2:
            raise ValueError(f"For '{name}', the dimension of 'input' must be {nd + 2}, but got "
                             f"{input.ndim}.")
        return _conv(name, input, weight, bias, stride, pad_mode, padding, dilation, groups)

    impl.__name__ = name
    impl.__doc__ = (f"{nd}-D convolution of ``input`` (N, C_in, spatial...) with ``weight`` "
                    f"(C_out, C_in / groups, kernel...), plus ``bias`` (C_out,).")
    return op(name, dtype="promote", prim=f"Conv{nd}D",
              static=("stride", "pad_mode", "padding", "dilation", "groups"),
              primitive=_conv_primitive(nd))(impl)


conv1d = _conv_row(1)
conv2d = _conv_row(2)
conv3d = _conv_row(3)


def _transpose(x, w, stride, pads, output_padding, dilation, groups):
    """The transpose of the forward convolution mapping (N, C_out, out...) to ``x``'s shape."""
    nd = x.ndim - 2
    kernel = w.shape[2:]
    out_sp = tuple((x.shape[2 + i] - 1) * stride[i] - pads[i][0] - pads[i][1]
                   + dilation[i] * (kernel[i] - 1) + 1 + output_padding[i] for i in range(nd))
    spec = jax.ShapeDtypeStruct((x.shape[0], w.shape[1] * groups) + out_sp, x.dtype)
    fwd = jax.linear_transpose(lambda z: _forward(z, w, stride, pads, dilation, groups), spec)
    return fwd(x)[0]


def _backprop_input(prim, dout, weight, input_size):
    a = prim.attrs
    name = prim.name
    _check_format(prim)
    input_size = tuple(int(s) for s in (input_size.asnumpy().tolist()
                                        if hasattr(input_size, "asnumpy") else input_size))
    stride = _spatial(name, a["stride"], 2, "stride")
    dilation = _spatial(name, a["dilation"], 2, "dilation")
    kernel = tuple(weight.shape[2:])
    pad_mode = _check_pad_mode(name, a["pad_mode"], a["pad"])
    if a.get("pad_list") and any(a["pad_list"]):
        pads = _pairs(name, tuple(a["pad_list"]), 2)
    elif pad_mode == "same":
        pads = _same_pads(input_size[2:], kernel, stride, dilation)
    elif pad_mode == "pad":
        pads = _pairs(name, a["pad"], 2)
    else:
        pads = ((0, 0),) * 2
    out_pad = tuple(input_size[2 + i] - ((dout.shape[2 + i] - 1) * stride[i] - sum(pads[i])
                                         + dilation[i] * (kernel[i] - 1) + 1) for i in range(2))
    flat = tuple(p for pair in pads for p in pair)
    return conv_transpose2d(dout, weight, None, stride, flat, out_pad, a["group"], dilation)


_BACKPROP_INIT = (("out_channel", None), ("kernel_size", None), ("pad_mode", "valid"),
                  ("pad", 0), ("pad_list", None), ("mode", 1), ("stride", 1), ("dilation", 1),
                  ("group", 1), ("data_format", "NCHW"))


@op(dtype="promote", prim="ConvTranspose2D",
    static=("stride", "padding", "output_padding", "groups", "dilation"),
    primitive=(PrimDef("Conv2DBackpropInput", init=_BACKPROP_INIT, call=_backprop_input),
               PrimDef("Conv2DTranspose", init=_BACKPROP_INIT, call=_backprop_input)))
def conv_transpose2d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1,
                     dilation=1):
    """2-D transposed convolution: ``input`` (N, C_in, H, W), ``weight`` (C_in, C_out / groups,
    kH, kW); output size
    ``(H - 1) * stride - 2 * padding + dilation * (k - 1) + output_padding + 1``."""
    name = "conv_transpose2d"
    stride = tuple_n(stride, 2, name, "stride")
    dilation = tuple_n(dilation, 2, name, "dilation")
    output_padding = tuple_n(output_padding, 2, name, "output_padding")
    out = _transpose(input, weight, stride, _pairs(name, padding, 2), output_padding, dilation,
                     groups)
    if bias is not None:
        out = out + bias.reshape(1, -1, 1, 1)
    return out


def _conv3d_transpose_call(prim, dout, weight, bias=None):
    a = prim.attrs
    out = conv3d_transpose(dout, weight, a["pad_mode"], a["pad"], a["stride"], a["dilation"],
                           a["group"], a["output_padding"])
    return out if bias is None else out + bias.reshape(1, -1, 1, 1, 1)


@op(dtype="promote", prim="Conv3DTranspose",
    static=("pad_mode", "padding", "stride", "dilation", "group", "output_padding"),
    primitive=PrimDef(init=(("in_channel", None), ("out_channel", None), ("kernel_size", None),
                            ("mode", 1), ("pad_mode", "valid"), ("pad", 0), ("stride", 1),
                            ("dilation", 1), ("group", 1), ("output_padding", 0),
                            ("data_format", "NCDHW")), call=_conv3d_transpose_call))
def conv3d_transpose(inputs, weight, pad_mode="valid", padding=0, stride=1, dilation=1, group=1,
                     output_padding=0):
    """3-D transposed convolution: ``inputs`` (N, C_in, D, H, W), ``weight``
    (C_in, C_out / group, kD, kH, kW)."""
    name = "conv3d_transpose"
    pad_mode = _check_pad_mode(name, pad_mode, padding)
    stride = _spatial(name, stride, 3, "stride")
    dilation = _spatial(name, dilation, 3, "dilation")
    output_padding = _spatial(name, output_padding, 3, "output_padding")
    if pad_mode == "same":
        sizes = tuple(n * s for n, s in zip(inputs.shape[2:], stride))
        pads = _same_pads(sizes, weight.shape[2:], stride, dilation)
    elif pad_mode == "pad":
        pads = _pairs(name, padding, 3)
    else:
        pads = ((0, 0),) * 3
    return _transpose(inputs, weight, stride, pads, output_padding, dilation, group)


__all__ = exports(__name__)
