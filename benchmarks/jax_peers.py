"""The benchmark workloads written directly in jax: the peers msxla is compared with.

Each peer computes what the msxla workload in ``workloads.py`` computes, with
the very same weights (read from the msxla Parameters) and inputs:

- ``forward(trainable, state, *inputs)`` -> output (``forward(*inputs)`` for
  the simple function);
- ``loss(trainable, state, *inputs)`` -> (mean of the output, new BatchNorm
  moving statistics), so ``jax.value_and_grad(loss, has_aux=True)`` does the
  work of msxla's ``value_and_grad(loss, None, net.trainable_params())`` with
  the network in training mode (batch statistics, moving averages updated).

``make_peer(workload)`` returns the peer with its parameters; the benchmark
checks once, at start-up, that msxla and the peer agree numerically.
"""
from __future__ import annotations

import jax
import jax.numpy as jnp

BN_EPS = 1e-5
BN_MOMENTUM = 0.9  # MindSpore's: the weight of the old moving statistics


def simple_function(a, b, c):
    return a * b + c


def _conv3x3(x, w):
    return jax.lax.conv_general_dilated(x, w, (1, 1), ((1, 1), (1, 1)),
                                        dimension_numbers=("NCHW", "OIHW", "NCHW"))


def _bn_eval(x, p, s, name):
    shape = (1, -1, 1, 1)
    y = (x - s[f"{name}.moving_mean"].reshape(shape)) / jnp.sqrt(
        s[f"{name}.moving_variance"].reshape(shape) + BN_EPS)
    return y * p[f"{name}.gamma"].reshape(shape) + p[f"{name}.beta"].reshape(shape)


def _bn_train(x, p, s, name, new_state):
    shape = (1, -1, 1, 1)
    mean = jnp.mean(x, axis=(0, 2, 3))
    var = jnp.mean(jnp.square(x - mean.reshape(shape)), axis=(0, 2, 3))
    n = x.size // x.shape[1]
    new_state[f"{name}.moving_mean"] = (BN_MOMENTUM * s[f"{name}.moving_mean"]
                                        + (1 - BN_MOMENTUM) * mean)
    new_state[f"{name}.moving_variance"] = (BN_MOMENTUM * s[f"{name}.moving_variance"]
                                            + (1 - BN_MOMENTUM) * var * (n / (n - 1)))
    y = (x - mean.reshape(shape)) * jax.lax.rsqrt(var.reshape(shape) + BN_EPS)
    return y * p[f"{name}.gamma"].reshape(shape) + p[f"{name}.beta"].reshape(shape)


def basic_block(p, s, x, training=False):
    """Returns (output, new moving statistics)."""
    new_state = dict(s)

    def bn(y, name):
        if training:
            return _bn_train(y, p, s, name, new_state)
        return _bn_eval(y, p, s, name)

    out = jax.nn.relu(bn(_conv3x3(x, p["conv1.weight"]), "bn1"))
    out = bn(_conv3x3(out, p["conv2.weight"]), "bn2")
    return jax.nn.relu(out + x), new_state


def _rotate_half(x):
    half = x.shape[-1] // 2
    return jnp.concatenate([-x[..., half:], x[..., :half]], axis=-1)


def attention(p, consts, x, num_heads=8):
    batch, seq_len, hidden = x.shape
    head_dim = hidden // num_heads

    def heads(name):
        y = x @ p[f"{name}.weight"].T
        return y.reshape(batch, seq_len, num_heads, head_dim).transpose(0, 2, 1, 3)

    q, k, v = heads("q_proj"), heads("k_proj"), heads("v_proj")
    cos, sin = consts["cos"][:seq_len], consts["sin"][:seq_len]
    q = q * cos + _rotate_half(q) * sin
    k = k * cos + _rotate_half(k) * sin
    scores = (q @ k.transpose(0, 1, 3, 2)) * (1.0 / head_dim ** 0.5)
    scores = scores + consts["mask"][:seq_len, :seq_len]
    probs = jax.nn.softmax(scores, axis=-1)
    out = (probs @ v).transpose(0, 2, 1, 3).reshape(batch, seq_len, hidden)
    return out @ p["o_proj.weight"].T


class Peer:
    """A workload in jax: ``forward(*forward_args)`` and ``loss(*train_args)`` are pure
    functions; ``trainable`` and ``state`` are dicts of jax arrays named like the msxla
    Parameters, ``inputs`` the input arrays."""

    def __init__(self, forward, loss, trainable, state, inputs, with_weights=True):
        self.forward = forward
        self.loss = loss
        self.trainable = trainable
        self.state = state
        self.inputs = inputs
        self.forward_args = ((trainable, state, *inputs) if with_weights else tuple(inputs))
        self.train_args = (trainable, state, *inputs)


def make_peer(workload):
    """The jax peer of a ``workloads.Workload``, sharing its weights and inputs."""
    inputs = [t._data for t in workload.inputs]
    if workload.net is None:
        return Peer(simple_function, lambda p, s, *xs: (jnp.mean(simple_function(*xs)), s),
                    {}, {}, inputs, with_weights=False)
    trainable_ids = {id(q) for q in workload.weights()}
    trainable = {q.name: q._data for q in workload.net.get_parameters()
                 if id(q) in trainable_ids}
    state = {q.name: q._data for q in workload.net.get_parameters()
             if id(q) not in trainable_ids}
    if workload.name == "basic_block":
        def forward(p, s, x):
            return basic_block(p, s, x)[0]

        def loss(p, s, x):
            out, new_state = basic_block(p, s, x, training=True)
            return jnp.mean(out), new_state
        return Peer(forward, loss, trainable, state, inputs)
    net = workload.net
    consts = {"cos": net.cos._data, "sin": net.sin._data, "mask": net.mask._data}

    def forward(p, s, x):
        return attention(p, consts, x, net.num_heads)

    def loss(p, s, x):
        return jnp.mean(forward(p, s, x)), s
    return Peer(forward, loss, trainable, state, inputs)
