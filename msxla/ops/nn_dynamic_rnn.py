"""Op rows: the fused recurrent Primitives ``ops.DynamicRNN`` (an LSTM) and
``ops.DynamicGRUV2`` (a GRU), each one ``lax.scan`` over time.

``DynamicRNN``: ``w`` is ``(input_size + hidden, 4 * hidden)`` applied to
``concat(x_t, h)``, gates packed ``i, j, f, o`` (``j`` the cell candidate);
``c = sigmoid(f + forget_bias) * c + sigmoid(i) * tanh(j)``, clipped to
``cell_clip`` when it is positive, ``h = sigmoid(o) * tanh(c)``. It returns
every step's y, h, c, gates and tanh(c). ``DynamicGRUV2``: gates packed ``rzh``
(or ``zrh``), the reset gate applied after the hidden matmul
(``reset_after``) or before it. MindSpore runs both on Ascend in float16 only;
here float16 and float32 run, computed in float32. Sequence lengths,
projections and peepholes (which MindSpore supports on no backend either) are
refused.
"""
from __future__ import annotations

import jax
import jax.numpy as jnp

from msxla.ops.opdef import op
from msxla.ops.primitive import PrimDef
from msxla.ops.surface import exports

_F32 = jnp.float32


def _unsupported(name, prim, seq_length, checks):
    if seq_length is not None:
        raise ValueError(f"For '{name}', only 'seq_length' None is supported.")
    for attr, default in checks:
        if prim.attrs[attr] != default:
            raise ValueError(f"For '{name}', only {attr}={default!r} is supported, but got "
                             f"{prim.attrs[attr]!r}.")


def _rnn_prim(prim, x, w, b, seq_length=None, init_h=None, init_c=None):
    _unsupported("DynamicRNN", prim, seq_length,
                 (("cell_type", "LSTM"), ("direction", "UNIDIRECTIONAL"), ("use_peephole", False),
                  ("num_proj", 0), ("time_major", True), ("activation", "tanh")))
    return _dynamic_rnn_row(x, w, b, init_h, init_c, float(prim.attrs["forget_bias"]),
                            float(prim.attrs["cell_clip"]))


@op(static=("forget_bias", "cell_clip"), dtype_args=("x",), prim="DynamicRNN", public=False,
    primitive=PrimDef(init=(("cell_type", "LSTM"), ("direction", "UNIDIRECTIONAL"),
                            ("cell_depth", 1), ("use_peephole", False), ("keep_prob", 1.0),
                            ("cell_clip", -1.0), ("num_proj", 0), ("time_major", True),
                            ("activation", "tanh"), ("forget_bias", 0.0),
                            ("is_training", True)), call=_rnn_prim))
def _dynamic_rnn(x, w, b, init_h, init_c, forget_bias=0.0, cell_clip=-1.0):
    """LSTM over [T, N, I] ``x``: (y, h, c, i, j, f, o, tanh(c)), each [T, N, H]."""
    hidden = w.shape[1] // 4
    n = x.shape[1]
    h0 = jnp.zeros((n, hidden), _F32) if init_h is None else init_h.reshape(n, hidden).astype(_F32)
    c0 = jnp.zeros((n, hidden), _F32) if init_c is None else init_c.reshape(n, hidden).astype(_F32)
    wf, bf = w.astype(_F32), b.astype(_F32)

    def step(carry, xt):
        h, c = carry
        gates = jnp.concatenate([xt.astype(_F32), h], axis=-1) @ wf + bf
        i, j, f, o = jnp.split(gates, 4, axis=-1)
        i, j, f, o = jax.nn.sigmoid(i), jnp.tanh(j), jax.nn.sigmoid(f + forget_bias), \
            jax.nn.sigmoid(o)
        c = f * c + i * j
        if cell_clip > 0:
            c = jnp.clip(c, -cell_clip, cell_clip)
        tc = jnp.tanh(c)
        h = o * tc
        return (h, c), (h, c, i, j, f, o, tc)

    _, (hs, cs, i, j, f, o, tc) = jax.lax.scan(step, (h0, c0), x)
    out = b.dtype
    return tuple(v.astype(out) for v in (hs, hs, cs, i, j, f, o, tc))


_dynamic_rnn_row = _dynamic_rnn


def _gru_prim(prim, x, weight_input, weight_hidden, bias_input=None, bias_hidden=None,
              seq_length=None, init_h=None):
    _unsupported("DynamicGRUV2", prim, seq_length,
                 (("direction", "UNIDIRECTIONAL"), ("num_proj", 0), ("time_major", True),
                  ("activation", "tanh")))
    if prim.attrs["gate_order"] not in ("rzh", "zrh"):
        raise ValueError("For 'DynamicGRUV2', 'gate_order' must be 'rzh' or 'zrh', but got "
                         f"{prim.attrs['gate_order']!r}.")
    return _dynamic_gru_row(x, weight_input, weight_hidden, bias_input, bias_hidden, init_h,
                            prim.attrs["gate_order"], bool(prim.attrs["reset_after"]))


@op(static=("gate_order", "reset_after"), dtype_args=("x",), prim="DynamicGRUV2", public=False,
    primitive=PrimDef(init=(("direction", "UNIDIRECTIONAL"), ("cell_depth", 1),
                            ("keep_prob", 1.0), ("cell_clip", -1.0), ("num_proj", 0),
                            ("time_major", True), ("activation", "tanh"), ("gate_order", "rzh"),
                            ("reset_after", True), ("is_training", True)), call=_gru_prim))
def _dynamic_gru(x, weight_input, weight_hidden, bias_input, bias_hidden, init_h,
                 gate_order="rzh", reset_after=True):
    """GRU over [T, N, I] ``x``: (y, h, update, reset, new, hidden_new), each [T, N, H]."""
    hidden = weight_hidden.shape[0]
    out = (bias_input if bias_input is not None else
           bias_hidden if bias_hidden is not None else init_h).dtype
    zeros = jnp.zeros((3 * hidden,), _F32)
    bi = zeros if bias_input is None else bias_input.astype(_F32)
    bh = zeros if bias_hidden is None else bias_hidden.astype(_F32)
    wi, wh = weight_input.astype(_F32), weight_hidden.astype(_F32)

    def split(v):
        a, b_, n = jnp.split(v, 3, axis=-1)
        return (a, b_, n) if gate_order == "rzh" else (b_, a, n)

    def step(h, xt):
        xr, xz, xn = split(xt.astype(_F32) @ wi + bi)
        if reset_after:
            hr, hz, hn = split(h @ wh + bh)
            r, z = jax.nn.sigmoid(xr + hr), jax.nn.sigmoid(xz + hz)
            n = jnp.tanh(xn + r * hn)
        else:
            wr, wz, wn = split(wh)
            br, bz, bn = split(bh)
            r = jax.nn.sigmoid(xr + h @ wr + br)
            z = jax.nn.sigmoid(xz + h @ wz + bz)
            hn = (r * h) @ wn + bn
            n = jnp.tanh(xn + hn)
        h = (1 - z) * n + z * h
        return h, (h, z, r, n, hn)

    _, (hs, z, r, n, hn) = jax.lax.scan(step, init_h.astype(_F32), x)
    return tuple(v.astype(out) for v in (hs, hs, z, r, n, hn))


_dynamic_gru_row = _dynamic_gru

__all__ = exports(__name__)
