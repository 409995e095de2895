"""Optimizer Primitives older training code calls directly: ``AdamWeightDecay``,
``Adam``, ``ApplyMomentum``, ``FusedWeightScaleApplyMomentum``.

Each writes its Parameters in place (``var``, and the moments / accumulation),
through ``ops.assign``, so the same call updates state eagerly and inside a
captured step, and returns the updated values. The formulas are MindSpore's
documented ones (``ApplyMomentum(use_nesterov=True)`` applies the Nesterov step,
which MindSpore 2.10's CPU kernel leaves out).
"""
from __future__ import annotations

from msxla.common.tensor import Tensor
from msxla.ops import state_ops
from msxla.ops.primitive import PrimDef
from msxla.ops.surface import composite, exports


def _sqrt(x):
    return x.sqrt() if isinstance(x, Tensor) else x ** 0.5


def _adam_weight_decay(prim, var, m, v, lr, beta1, beta2, epsilon, decay, gradient):
    g = gradient.astype(var.dtype)
    m_new = m * beta1 + g * (1 - beta1)
    v_new = v * beta2 + g * g * (1 - beta2)
    update = m_new / (v_new.sqrt() + epsilon) + var * decay
    state_ops.assign(m, m_new)
    state_ops.assign(v, v_new)
    return state_ops.assign(var, var - update * lr), m_new, v_new


def _adam(prim, var, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon, gradient):
    g = gradient.astype(var.dtype)
    lr_t = lr * _sqrt(1 - beta2_power) / (1 - beta1_power)
    m_new = m * beta1 + g * (1 - beta1)
    v_new = v * beta2 + g * g * (1 - beta2)
    step = (m_new * beta1 + g * (1 - beta1)) if prim.use_nesterov else m_new
    state_ops.assign(m, m_new)
    state_ops.assign(v, v_new)
    return state_ops.assign(var, var - step * lr_t / (v_new.sqrt() + epsilon)), m_new, v_new


def _apply_momentum(prim, variable, accumulation, learning_rate, gradient, momentum):
    g = gradient.astype(variable.dtype) * prim.gradient_scale
    acc = accumulation * momentum + g
    state_ops.assign(accumulation, acc)
    step = g + acc * momentum if prim.use_nesterov else acc
    return state_ops.assign(variable, variable - step * learning_rate)


def _fused_momentum(prim, weight_decay, loss_scale, variable, accumulation, learning_rate,
                    gradient, momentum):
    g = gradient.astype(variable.dtype) * loss_scale + variable * weight_decay
    acc = accumulation * momentum + g
    state_ops.assign(accumulation, acc)
    return state_ops.assign(variable, variable - acc * learning_rate)


@composite(public=False, primitive=PrimDef("AdamWeightDecay", init=(("use_locking", False),),
                                           call=_adam_weight_decay))
def _adam_weight_decay_op(*args):
    """AdamW step: ``var -= lr * (m / (sqrt(v) + eps) + decay * var)``; updates var, m, v."""


@composite(public=False, primitive=PrimDef("Adam", init=(("use_locking", False),
                                                         ("use_nesterov", False)), call=_adam))
def _adam_op(*args):
    """Adam step with bias correction from ``beta1_power`` / ``beta2_power``."""


@composite(public=False, primitive=PrimDef("ApplyMomentum", init=(
    ("use_nesterov", False), ("use_locking", False), ("gradient_scale", 1.0)),
    call=_apply_momentum))
def _apply_momentum_op(*args):
    """``accum = accum * momentum + grad; var -= lr * accum`` (or the Nesterov step)."""


@composite(public=False, primitive=PrimDef("FusedWeightScaleApplyMomentum",
                                           call=_fused_momentum))
def _fused_weight_scale_apply_momentum_op(*args):
    """Momentum on ``grad * loss_scale + var * weight_decay``."""


__all__ = exports(__name__)
