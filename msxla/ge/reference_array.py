"""Reference kernels: GE array operators (shape, slicing, gather/scatter, padding).

Shape-like inputs (``shape``, ``perm``, ``offsets``, ``axes``) are tensors in
GE, read here as integer vectors. GE leaves out-of-range indices undefined;
these kernels refuse them (``GeExecutionError``), so a converter that forgets
StableHLO's clamping shows up in tests.
"""
from __future__ import annotations

import numpy as np

from msxla.ge.reference import GeExecutionError, contiguous, kernel


def _ints(t):
    return [int(v) for v in np.asarray(t).reshape(-1)]


@kernel("Reshape")
def _reshape(call, x, shape):
    return x.reshape(_ints(shape))


@kernel("Transpose")
def _transpose(call, x, perm):
    return np.transpose(x, _ints(perm))


@kernel("BroadcastTo")
def _broadcast_to(call, x, shape):
    return contiguous(np.broadcast_to(x, _ints(shape)))


@kernel("ConcatV2")
def _concat(call, *args):
    *xs, axis = args
    return np.concatenate(xs, axis=int(axis))


@kernel("Pack")
def _pack(call, *xs):
    return np.stack(xs, axis=call.attr("axis"))


@kernel("IdentityN")
def _identity_n(call, *xs):
    return list(xs)


@kernel("Slice")
def _slice(call, x, offsets, size):
    offsets, size = _ints(offsets), _ints(size)
    index = []
    for o, s, d in zip(offsets, size, x.shape):
        s = d - o if s == -1 else s
        if o < 0 or o + s > d:
            raise GeExecutionError(f"Slice '{call.node.name}': [{o}, {o + s}) outside [0, {d})")
        index.append(slice(o, o + s))
    return contiguous(x[tuple(index)])


@kernel("StridedSlice")
def _strided_slice(call, x, begin, end, strides):
    if any(call.attr(m) for m in ("begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask",
                                  "shrink_axis_mask")):
        raise GeExecutionError("StridedSlice masks are not used by msxla")
    index = tuple(slice(b, e, s) for b, e, s in zip(_ints(begin), _ints(end), _ints(strides)))
    return contiguous(x[index])


def _check_range(call, idx, n):
    if idx.size and (idx.min() < 0 or idx.max() >= n):
        raise GeExecutionError(f"{call.node.type} '{call.node.name}': index out of range "
                               f"[0, {n})")


@kernel("GatherV2")
def _gather_v2(call, x, indices, axis):
    axis = int(axis)
    if call.attr("batch_dims"):
        raise GeExecutionError("GatherV2 batch_dims is not used by msxla")
    _check_range(call, indices, x.shape[axis])
    return np.take(x, indices, axis=axis)


@kernel("GatherElements")
def _gather_elements(call, x, index):
    dim = call.attr("dim")
    _check_range(call, index, x.shape[dim])
    return np.take_along_axis(x, index.astype(np.int64), axis=dim)


_SCATTER = {"TensorScatterUpdate": None, "TensorScatterAdd": np.add,
            "TensorScatterMax": np.maximum, "TensorScatterMin": np.minimum,
            "ScatterMul": np.multiply}


@kernel(*_SCATTER)
def _tensor_scatter(call, x, indices, updates):
    """``x[indices[i]] op= updates[i]``, in index order (later writes win)."""
    depth = indices.shape[-1]
    out = x.copy()
    idx = indices.reshape(-1, depth).astype(np.int64)
    for d in range(depth):
        _check_range(call, idx[:, d], x.shape[d])
    upd = updates.reshape((idx.shape[0],) + x.shape[depth:])
    where = tuple(idx[:, d] for d in range(depth))
    ufunc = _SCATTER[call.node.type]
    if ufunc is None:
        out[where] = upd  # repeated indices: the last update wins
        return out
    if x.dtype == np.bool_:
        ufunc = np.logical_and if ufunc in (np.minimum, np.multiply) else np.logical_or
    ufunc.at(out, where, upd)
    return out


@kernel("PadV3")
def _pad_v3(call, x, paddings, value=None):
    if call.attr("mode") != "constant":
        raise GeExecutionError("PadV3 modes other than 'constant' are not used by msxla")
    pads = np.asarray(paddings).reshape(-1, 2)
    if not call.attr("paddings_contiguous"):
        pads = np.asarray(paddings).reshape(2, -1).T
    fill = np.zeros((), x.dtype) if value is None else np.asarray(value).reshape(())
    return np.pad(x, [(int(a), int(b)) for a, b in pads], constant_values=fill)


@kernel("ReverseV2")
def _reverse(call, x, axis):
    return contiguous(np.flip(x, axis=tuple(_ints(axis))))


@kernel("Range")
def _range(call, start, limit, delta):
    dtype = call.out[0][0]
    return np.arange(start.item(), limit.item(), delta.item()).astype(dtype)


@kernel("Dilation")
def _dilation(call, x, *_):
    """Insert ``dilations[d] - 1`` copies of ``padding_value`` between elements."""
    dil = call.attr("dilations")
    if call.attr("pads"):
        raise GeExecutionError("Dilation pads are not used by msxla")
    shape = [(n - 1) * d + 1 if n else 0 for n, d in zip(x.shape, dil)]
    out = np.full(shape, call.attr("padding_value"), dtype=x.dtype)
    out[tuple(slice(None, None, d) for d in dil)] = x
    return out
