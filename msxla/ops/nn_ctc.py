"""Op rows: CTC loss (``ops.ctc_loss``, the ``CTCLossV2``-style row, and the older
``ops.CTCLoss`` Primitive on logits with sparse labels).

The forward variables (log alpha) run over time in one ``lax.scan`` on the
blank-extended label sequence ``l'`` (blank, l1, blank, l2, ..., blank):
``alpha_t(s) = logsumexp(alpha_{t-1}(s), alpha_{t-1}(s-1), alpha_{t-1}(s-2) when l'_s
is not blank and differs from l'_{s-2}) + log p_t(l'_s)``; after a sample's
input length its alphas stay as they are, so the last step holds each sample's
end. Impossible paths carry a large negative finite number rather than -inf
so that gradients (jax's, through the scan) stay finite; they are reported as
-inf. The loss is ``-logsumexp`` of the last two states. ``ctc_loss``'s gradient
is MindSpore's kernel's (PyTorch's): the gradient for ``log_probs`` taken as the
log-softmax of logits, zero past each input length, NaN for an impossible
target (zero with ``zero_infinity``).
"""
from __future__ import annotations

import functools

import jax
import jax.numpy as jnp

from msxla.ops._nn_util import check_reduction
from msxla.ops.opdef import op
from msxla.ops.primitive import PrimDef
from msxla.ops.surface import exports

_NEG = -1e30


def _ctc_alpha(log_probs, targets, input_lengths, target_lengths, blank):
    """(negative log-likelihood [N], log alpha [N, T, 2S+1]) for [T, N, C] log_probs."""
    t_max, n, _ = log_probs.shape
    s_max = targets.shape[1]
    width = 2 * s_max + 1
    lp = jnp.maximum(log_probs, _NEG)
    ext = jnp.full((n, width), blank, jnp.int32).at[:, 1::2].set(targets.astype(jnp.int32))
    prev2 = jnp.concatenate([jnp.full((n, 2), blank, jnp.int32), ext[:, :-2]], axis=1)
    skip = (ext != blank) & (ext != prev2) & (jnp.arange(width) >= 2)
    emit = jnp.take_along_axis(lp, jnp.broadcast_to(ext[None], (t_max, n, width)), axis=2)
    s_idx = jnp.arange(width)
    alpha0 = jnp.where(s_idx < 2, emit[0], _NEG)
    alpha0 = jnp.where((s_idx == 1) & (target_lengths[:, None] == 0), _NEG, alpha0)

    def step(alpha, xs):
        e, t = xs
        a1 = jnp.concatenate([jnp.full((n, 1), _NEG, alpha.dtype), alpha[:, :-1]], axis=1)
        a2 = jnp.concatenate([jnp.full((n, 2), _NEG, alpha.dtype), alpha[:, :-2]], axis=1)
        a2 = jnp.where(skip, a2, _NEG)
        new = jnp.logaddexp(jnp.logaddexp(alpha, a1), a2) + e
        new = jnp.maximum(new, _NEG)
        new = jnp.where((t < input_lengths)[:, None], new, alpha)
        return new, new

    times = jnp.arange(1, t_max)
    last, rest = jax.lax.scan(step, alpha0, (emit[1:], times))
    alphas = jnp.concatenate([alpha0[None], rest], axis=0)  # [T, N, W]
    end = 2 * target_lengths.astype(jnp.int32)
    a_end = jnp.take_along_axis(last, end[:, None], axis=1)[:, 0]
    a_before = jnp.take_along_axis(last, jnp.maximum(end - 1, 0)[:, None], axis=1)[:, 0]
    a_before = jnp.where(end > 0, a_before, _NEG)
    ll = jnp.logaddexp(a_end, a_before)
    nll = jnp.where(ll <= _NEG / 2, jnp.inf, -ll)
    live = (jnp.arange(t_max)[:, None] < input_lengths[None, :])[..., None]
    in_label = (s_idx[None, :] <= end[:, None])[None]  # states of the sample's own labels
    log_alpha = jnp.where((alphas <= _NEG / 2) | ~live | ~in_label, -jnp.inf, alphas)
    return nll, jnp.transpose(log_alpha, (1, 0, 2))


@functools.partial(jax.custom_vjp, nondiff_argnums=(4, 5))
def _ctc_nll(log_probs, targets, input_lengths, target_lengths, blank, zero_infinity):
    nll, log_alpha = _ctc_alpha(log_probs, targets, input_lengths, target_lengths, blank)
    if zero_infinity:
        nll = jnp.where(jnp.isinf(nll), 0.0, nll)
    return nll, log_alpha


def _ctc_nll_fwd(log_probs, targets, input_lengths, target_lengths, blank, zero_infinity):
    nll, log_alpha = _ctc_alpha(log_probs, targets, input_lengths, target_lengths, blank)
    impossible = jnp.isinf(nll)
    if zero_infinity:
        nll = jnp.where(impossible, 0.0, nll)
    return (nll, log_alpha), (log_probs, targets, input_lengths, target_lengths, impossible)


@functools.partial(jax.jit, static_argnums=(4,))
def _ctc_alpha_grad(log_probs, targets, input_lengths, target_lengths, blank, g):
    _, vjp = jax.vjp(lambda lp: _ctc_alpha(lp, targets, input_lengths, target_lengths,
                                           blank)[0], log_probs)
    return vjp(g)[0]


def _ctc_nll_bwd(blank, zero_infinity, res, cotangents):
    log_probs, targets, input_lengths, target_lengths, impossible = res
    g = cotangents[0]
    grad = _ctc_alpha_grad(log_probs, targets, input_lengths, target_lengths, blank, g)
    # MindSpore's (and PyTorch's) kernel returns the gradient for log_probs taken as
    # log_softmax of logits: exp(log_probs) is added inside each input length
    live = (jnp.arange(log_probs.shape[0])[:, None] < input_lengths[None, :])[..., None]
    grad = grad + jnp.exp(log_probs) * g[None, :, None]
    grad = jnp.where(impossible[None, :, None], 0.0 if zero_infinity else jnp.nan, grad)
    grad = jnp.where(live, grad, 0.0)
    return grad, None, None, None


_ctc_nll.defvjp(_ctc_nll_fwd, _ctc_nll_bwd)


def _up(x):
    return x.astype(jnp.float32) if x.dtype in (jnp.float16, jnp.bfloat16) else x


@op(static=("blank", "reduction", "zero_infinity"), dtype_args=("log_probs",),
    prim="CTCLossV2", primitive=PrimDef(init=(("blank", 0), ("reduction", "none"),
                                              ("zero_infinity", False)),
                                        call=lambda prim, lp, t, il, tl: _ctc_row(
                                            lp, t, il, tl, prim.attrs["blank"],
                                            prim.attrs["reduction"],
                                            prim.attrs["zero_infinity"])))
def ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, reduction="mean",
             zero_infinity=False):
    """CTC loss of [T, N, C] log-probabilities against padded [N, S] targets; returns
    (loss, log_alpha [N, T, 2S+1])."""
    check_reduction("ctc_loss", reduction)
    lp = _up(log_probs)
    input_lengths = jnp.asarray(input_lengths).astype(jnp.int32).reshape(-1)
    target_lengths = jnp.asarray(target_lengths).astype(jnp.int32).reshape(-1)
    nll, log_alpha = _ctc_nll(lp, targets, input_lengths, target_lengths, blank, zero_infinity)
    if reduction == "mean":
        loss = jnp.mean(nll / jnp.maximum(target_lengths, 1).astype(nll.dtype))
    elif reduction == "sum":
        loss = jnp.sum(nll)
    else:
        loss = nll
    return loss.astype(log_probs.dtype), log_alpha.astype(log_probs.dtype)


_ctc_row = ctc_loss


def _dense_labels(indices, values, batch):
    """Sparse (indices [K, 2], values [K]) -> padded targets [N, K] and lengths [N]."""
    k = values.shape[0]
    b, pos = indices[:, 0].astype(jnp.int32), indices[:, 1].astype(jnp.int32)
    targets = jnp.zeros((batch, max(k, 1)), jnp.int32).at[b, pos].set(values.astype(jnp.int32))
    lengths = jnp.zeros((batch,), jnp.int32).at[b].max(pos + 1)
    return targets, lengths


def _collapse(targets, lengths):
    """Remove repeats of each sample's labels (``preprocess_collapse_repeated``)."""
    width = targets.shape[1]
    keep = jnp.concatenate([jnp.ones_like(targets[:, :1], bool),
                            targets[:, 1:] != targets[:, :-1]], axis=1)
    keep = keep & (jnp.arange(width)[None] < lengths[:, None])
    pos = jnp.cumsum(keep, axis=1) - 1
    out = jnp.zeros_like(targets)
    rows = jnp.broadcast_to(jnp.arange(targets.shape[0])[:, None], targets.shape)
    out = out.at[rows, jnp.where(keep, pos, width)].set(targets, mode="drop")
    return out, keep.sum(axis=1).astype(jnp.int32)


def _ctc_prim(prim, x, labels_indices, labels_values, sequence_length):
    if not prim.attrs["ctc_merge_repeated"]:
        raise NotImplementedError("For 'CTCLoss', ctc_merge_repeated=False is not supported "
                                  "by msxla; use the default (True).")
    return _ctc_logits_row(x, labels_indices, labels_values, sequence_length,
                           prim.attrs["preprocess_collapse_repeated"],
                           prim.attrs["ignore_longer_outputs_than_inputs"])


@op(static=("preprocess_collapse_repeated", "ignore_longer_outputs_than_inputs"),
    dtype_args=("x",), prim="CTCLoss", public=False,
    primitive=PrimDef(init=(("preprocess_collapse_repeated", False),
                            ("ctc_merge_repeated", True),
                            ("ignore_longer_outputs_than_inputs", False)), call=_ctc_prim))
def _ctc_logits(x, labels_indices, labels_values, sequence_length,
                preprocess_collapse_repeated=False, ignore_longer_outputs_than_inputs=False):
    """CTC loss per sample of [T, N, C] logits (blank is class C-1) with sparse labels,
    and its gradient with respect to the logits: (loss [N], gradient [T, N, C])."""
    xs = _up(x)
    targets, lengths = _dense_labels(labels_indices, labels_values, x.shape[1])
    if preprocess_collapse_repeated:
        targets, lengths = _collapse(targets, lengths)
    seq = sequence_length.astype(jnp.int32)

    def losses(logits):
        nll, _ = _ctc_alpha(jax.nn.log_softmax(logits, axis=-1), targets, seq, lengths,
                            x.shape[2] - 1)
        if ignore_longer_outputs_than_inputs:
            nll = jnp.where(lengths > seq, 0.0, nll)
        return nll

    nll, vjp = jax.vjp(losses, xs)
    (grad,) = vjp(jnp.ones_like(nll))
    return nll.astype(x.dtype), grad.astype(x.dtype)


_ctc_logits_row = _ctc_logits

__all__ = exports(__name__)
