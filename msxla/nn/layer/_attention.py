"""Multi-head attention on Tensors, as MindSpore's ``multi_head_attention_forward``.

Inputs are sequence-first, (L, N, E) for queries and (S, N, E) for keys and
values, or unbatched (L, E). Masks follow MindSpore: a bool ``attn_mask`` or
``key_padding_mask`` marks positions to leave out (True -> -inf), a float one
is added to the scores; ``attn_mask`` is (L, S) or (N * heads, L, S). Queries
and keys are each divided by ``head_dim ** 0.25`` before their product.
"""
from __future__ import annotations

import math

from msxla import ops
from msxla.common import dtype as mstype
from msxla.common.tensor import Tensor

__all__ = ["multi_head_attention_forward"]


def _linear(x, w, b):
    return ops.dense(x, w, b)


def _in_projection_packed(q, k, v, w, b):
    w_q, w_k, w_v = w.tensor_split(3)
    b_q, b_k, b_v = (None,) * 3 if b is None else b.tensor_split(3)
    return _linear(q, w_q, b_q), _linear(k, w_k, b_k), _linear(v, w_v, b_v)


def _check_shapes(query, key, value, key_padding_mask, attn_mask, num_heads):
    if query.ndim == 3:
        if key.ndim != 3 or value.ndim != 3:
            raise ValueError(f"For batched `query`, the `key` and `value` must be 3D tensor, but "
                             f"got `key` with {key.ndim}D and `value` with {value.ndim}D.")
        if key_padding_mask is not None and key_padding_mask.ndim != 2:
            raise ValueError(f"For batched `query`, the `key_padding_mask` must be `None` or "
                             f"2D, but got `key_padding_mask` with {key_padding_mask.ndim}D.")
    elif query.ndim == 2:
        if key.ndim != 2 or value.ndim != 2:
            raise ValueError(f"For unbatched `query`, the `key` and `value` must be 2D tensor, "
                             f"but got `key` with {key.ndim}D and `value` with {value.ndim}D.")
        if key_padding_mask is not None and key_padding_mask.ndim != 1:
            raise ValueError(f"For unbatched `query`, the `key_padding_mask` must be `None` or "
                             f"1D, but got `key_padding_mask` with {key_padding_mask.ndim}D.")
        if attn_mask is not None and attn_mask.ndim == 3:
            expected = (num_heads, query.shape[0], key.shape[0])
            if tuple(attn_mask.shape) != expected:
                raise ValueError(f"The shape of `attn_mask` must to be {expected}, but got "
                                 f"{tuple(attn_mask.shape)}.")
    else:
        raise ValueError(f"The `query` should be unbatched 2D or batched 3D tensor, but got "
                         f"`query` with {query.ndim}D.")
    if attn_mask is not None and attn_mask.ndim not in (2, 3):
        raise ValueError(f"The ndim of `attn_mask` only support 2 or 3, but got "
                         f"{attn_mask.ndim}.")
    return query.ndim == 3


def _pad_last(x):
    return ops.pad(x, (0, 1))


def _as_float_mask(mask, dtype):
    if mask.dtype == mstype.bool_:
        zeros = ops.zeros_like(mask, dtype=dtype)
        return zeros.masked_fill(mask, Tensor(float("-inf"), dtype))
    return mask


def multi_head_attention_forward(query, key, value, embed_dim, num_heads, in_proj_weight,
                                 in_proj_bias, bias_k, bias_v, add_zero_attn, dropout_p,
                                 out_proj_weight, out_proj_bias, training=True,
                                 key_padding_mask=None, attn_mask=None,
                                 use_separate_proj_weight=False, q_proj_weight=None,
                                 k_proj_weight=None, v_proj_weight=None,
                                 average_attn_weights=True):
    """``(attn_output, attn_weights)``; see the module docstring for shapes and masks."""
    is_batched = _check_shapes(query, key, value, key_padding_mask, attn_mask, num_heads)
    if not is_batched:
        query, key, value = query.expand_dims(1), key.expand_dims(1), value.expand_dims(1)
        if key_padding_mask is not None:
            key_padding_mask = key_padding_mask.expand_dims(0)
    tgt_len, bsz, e = query.shape
    src_len = key.shape[0]
    if key_padding_mask is not None and key_padding_mask.dtype != mstype.bool_ \
            and not mstype.is_float(key_padding_mask.dtype):
        raise ValueError("The `key_padding_mask` only supports bool and floating dtypes.")
    if e != embed_dim:
        raise ValueError(f"The `embed_dim` should be {embed_dim}, but got {e}.")
    head_dim = embed_dim // num_heads
    if use_separate_proj_weight:
        if tuple(key.shape[:2]) != tuple(value.shape[:2]):
            raise ValueError(f"The sequence length and batch dims of `key`: {key.shape[:2]} do "
                             f"not match `value`: {value.shape[:2]}.")
        b_q, b_k, b_v = (None,) * 3 if in_proj_bias is None else in_proj_bias.tensor_split(3)
        q = _linear(query, q_proj_weight, b_q)
        k = _linear(key, k_proj_weight, b_k)
        v = _linear(value, v_proj_weight, b_v)
    else:
        if tuple(key.shape) != tuple(value.shape):
            raise ValueError(f"The shape of `key` {tuple(key.shape)} does not match `value` "
                             f"{tuple(value.shape)}.")
        q, k, v = _in_projection_packed(query, key, value, in_proj_weight, in_proj_bias)
    if attn_mask is not None:
        if attn_mask.dtype == mstype.uint8:
            attn_mask = attn_mask.astype(mstype.bool_)
        elif not mstype.is_float(attn_mask.dtype) and attn_mask.dtype != mstype.bool_:
            raise ValueError(f"`attn_mask` only support float, byte, and bool types, but got not "
                             f"{attn_mask.dtype}.")
        want = (tgt_len, src_len) if attn_mask.ndim == 2 else (bsz * num_heads, tgt_len, src_len)
        if tuple(attn_mask.shape) != want:
            raise ValueError(f"The shape of the `attn_mask` should be {want}, but got "
                             f"{tuple(attn_mask.shape)}.")
        if attn_mask.ndim == 2:
            attn_mask = attn_mask.expand_dims(0)
    if (bias_k is None) != (bias_v is None):
        raise ValueError("The bias_k and bias_v should be ``None``at the same time.")
    if bias_k is not None:
        k = ops.cat([k, bias_k.tile((1, bsz, 1))])
        v = ops.cat([v, bias_v.tile((1, bsz, 1))])
        attn_mask = None if attn_mask is None else _pad_last(attn_mask)
        key_padding_mask = None if key_padding_mask is None else _pad_last(key_padding_mask)
    q = q.view((tgt_len, bsz * num_heads, head_dim)).swapaxes(0, 1)
    k = k.view((k.shape[0], bsz * num_heads, head_dim)).swapaxes(0, 1)
    v = v.view((v.shape[0], bsz * num_heads, head_dim)).swapaxes(0, 1)
    if add_zero_attn:
        zeros = ops.zeros((bsz * num_heads, 1, head_dim), dtype=k.dtype)
        k = ops.cat([k, zeros], axis=1)
        v = ops.cat([v, zeros], axis=1)
        attn_mask = None if attn_mask is None else _pad_last(attn_mask)
        key_padding_mask = None if key_padding_mask is None else _pad_last(key_padding_mask)
    src_len = k.shape[1]
    if key_padding_mask is not None:
        if tuple(key_padding_mask.shape) != (bsz, src_len):
            raise ValueError(f"The shape of `key_padding_mask` should be {(bsz, src_len)}, but "
                             f"got {tuple(key_padding_mask.shape)}.")
        key_padding_mask = key_padding_mask.view((bsz, 1, 1, src_len)).tile(
            (1, num_heads, 1, 1)).reshape((bsz * num_heads, 1, src_len))
        if attn_mask is None:
            attn_mask = key_padding_mask
        elif attn_mask.dtype == mstype.bool_:
            attn_mask = attn_mask.logical_or(key_padding_mask)
        else:
            attn_mask = attn_mask + key_padding_mask
    if attn_mask is not None:
        attn_mask = _as_float_mask(attn_mask, q.dtype)
        if attn_mask.shape[0] == 1:
            attn_mask = attn_mask.expand_dims(0)
        else:
            attn_mask = attn_mask.view((bsz, num_heads, -1, src_len))
    q = q.view((bsz, num_heads, tgt_len, head_dim))
    k = k.view((bsz, num_heads, src_len, head_dim))
    v = v.view((bsz, num_heads, src_len, head_dim))
    scale = Tensor(math.sqrt(math.sqrt(head_dim)), q.dtype)
    attn = ops.matmul(q / scale, k.swapaxes(-2, -1) / scale)
    if attn_mask is not None:
        attn = attn + attn_mask
    attn = ops.softmax(attn, -1)
    if 0.0 < dropout_p <= 1.0 and training:
        attn = ops.dropout(attn, p=dropout_p)
    out = ops.matmul(attn, v)
    out = out.transpose(2, 0, 1, 3).view((bsz * tgt_len, embed_dim))
    out = _linear(out, out_proj_weight, out_proj_bias).view((tgt_len, bsz, -1))
    weights = attn.view((bsz, num_heads, tgt_len, src_len))
    if average_attn_weights:
        weights = weights.sum(axis=1) / num_heads
    if not is_batched:
        out, weights = out.squeeze(1), weights.squeeze(0)
    return out, weights
