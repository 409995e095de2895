"""The models of ``zoo_models.py`` written directly in jax: the raw ``jax.jit`` peer.

The depth (blocks per stage, Transformer layers) is read off the parameter names.
Each model is a pure function ``model(name)(params, state, x, training)`` ->
``(logits, new_state)`` over dicts of arrays named like the msxla Parameters
(``params``: the trainable ones; ``state``: BatchNorm's moving statistics),
written as a jax user would write it (``lax.conv_general_dilated`` in NCHW,
``lax.reduce_window`` max pooling, batch statistics in training mode).
``train_step(model)`` is one step of what the msxla benchmark runs: softmax
cross entropy (mean), its gradients and MindSpore's Momentum update
(``v = momentum * v + g``, ``w -= lr * v``).
"""
from __future__ import annotations

import math

import jax
import jax.numpy as jnp
import numpy as np

BN_EPS = 1e-5
BN_MOMENTUM = 0.9   # MindSpore's: the weight of the old moving statistics
LN_EPS = 1e-12
LR = 0.01
MOMENTUM = 0.9


class Ctx:
    """The arrays one call reads, and the moving statistics it writes."""

    def __init__(self, params, state, training):
        self.p, self.s, self.training = params, state, training
        self.new_state = dict(state)

    def conv(self, name, x, stride=1, padding=0, groups=1):
        pad = ((padding, padding), (padding, padding))
        return jax.lax.conv_general_dilated(x, self.p[f"{name}.weight"], (stride, stride), pad,
                                            feature_group_count=groups,
                                            dimension_numbers=("NCHW", "OIHW", "NCHW"))

    def bn(self, name, x):
        shape = (1, -1, 1, 1)
        gamma, beta = self.p[f"{name}.gamma"].reshape(shape), self.p[f"{name}.beta"].reshape(shape)
        if not self.training:
            mean = self.s[f"{name}.moving_mean"].reshape(shape)
            var = self.s[f"{name}.moving_variance"].reshape(shape)
            return (x - mean) / jnp.sqrt(var + BN_EPS) * gamma + beta
        mean = jnp.mean(x, axis=(0, 2, 3))
        var = jnp.mean(jnp.square(x - mean.reshape(shape)), axis=(0, 2, 3))
        n = x.size // x.shape[1]
        for stat, batch in (("moving_mean", mean), ("moving_variance", var * (n / (n - 1)))):
            key = f"{name}.{stat}"
            self.new_state[key] = BN_MOMENTUM * self.s[key] + (1 - BN_MOMENTUM) * batch
        y = (x - mean.reshape(shape)) * jax.lax.rsqrt(var.reshape(shape) + BN_EPS)
        return y * gamma + beta

    def dense(self, name, x):
        return x @ self.p[f"{name}.weight"].T + self.p[f"{name}.bias"]

    def layer_norm(self, name, x):
        mean = jnp.mean(x, axis=-1, keepdims=True)
        var = jnp.mean(jnp.square(x - mean), axis=-1, keepdims=True)
        return (x - mean) / jnp.sqrt(var + LN_EPS) * self.p[f"{name}.gamma"] + self.p[
            f"{name}.beta"]


def max_pool(x, k, s, padding="VALID"):
    return jax.lax.reduce_window(x, -jnp.inf, jax.lax.max, (1, 1, k, k), (1, 1, s, s), padding)


def lenet(c, x):
    relu = jax.nn.relu
    x = max_pool(relu(c.conv("conv1", x)), 2, 2)
    x = max_pool(relu(c.conv("conv2", x)), 2, 2)
    x = x.reshape(x.shape[0], -1)
    return c.dense("fc3", relu(c.dense("fc2", relu(c.dense("fc1", x)))))


def _resnet_block(c, name, x, stride, bottleneck):
    relu = jax.nn.relu
    if bottleneck:
        out = relu(c.bn(f"{name}.bn1", c.conv(f"{name}.conv1", x)))
        out = relu(c.bn(f"{name}.bn2", c.conv(f"{name}.conv2", out, stride, 1)))
        out = c.bn(f"{name}.bn3", c.conv(f"{name}.conv3", out))
    else:
        out = relu(c.bn(f"{name}.bn1", c.conv(f"{name}.conv1", x, stride, 1)))
        out = c.bn(f"{name}.bn2", c.conv(f"{name}.conv2", out, 1, 1))
    if f"{name}.down_sample.0.weight" in c.p:
        x = c.bn(f"{name}.down_sample.1", c.conv(f"{name}.down_sample.0", x, stride))
    return relu(out + x)


def resnet(bottleneck):
    def forward(c, x):
        x = jax.nn.relu(c.bn("bn1", c.conv("conv1", x, 2, 3)))
        x = max_pool(x, 3, 2, "SAME")
        for stage in range(4):
            i = 0
            while f"layer{stage + 1}.{i}.conv1.weight" in c.p:
                stride = 2 if stage > 0 and i == 0 else 1
                x = _resnet_block(c, f"layer{stage + 1}.{i}", x, stride, bottleneck)
                i += 1
        return c.dense("classifier", jnp.mean(x, axis=(2, 3)))
    return forward


MOBILENET_V2_SETTING = [(1, 16, 1, 1), (6, 24, 2, 2), (6, 32, 3, 2), (6, 64, 4, 2),
                        (6, 96, 3, 1), (6, 160, 3, 2), (6, 320, 1, 1)]


def mobilenet_v2(c, x):
    relu6 = jax.nn.relu6
    x = relu6(c.bn("features.1", c.conv("features.0", x, 2, 1)))
    cin, index = 32, 3
    for t, cout, _, s in MOBILENET_V2_SETTING:
        i, proj = 0, 3 if t == 1 else 6   # the block's 1x1 projection: cout channels out
        while c.p.get(f"features.{index}.layers.{proj}.weight", np.empty(0)).shape[:1] == (
                cout,):
            stride = s if i == 0 else 1
            name, hidden, j = f"features.{index}.layers", cin * t, 0
            y = x
            if t != 1:
                y = relu6(c.bn(f"{name}.1", c.conv(f"{name}.0", y)))
                j = 3
            y = relu6(c.bn(f"{name}.{j + 1}", c.conv(f"{name}.{j}", y, stride, 1, hidden)))
            y = c.bn(f"{name}.{j + 4}", c.conv(f"{name}.{j + 3}", y))
            x = x + y if stride == 1 and cin == cout else y
            cin, index, i = cout, index + 1, i + 1
    x = relu6(c.bn(f"features.{index + 1}", c.conv(f"features.{index}", x)))
    return c.dense("classifier", jnp.mean(x, axis=(2, 3)))


def bert(heads=12):
    def layer(c, name, x):
        batch, seq, hidden = x.shape
        hd = hidden // heads

        def split(y):
            return y.reshape(batch, seq, heads, hd).transpose(0, 2, 1, 3)

        q, k, v = (split(c.dense(f"{name}.{w}", x)) for w in ("query", "key", "value"))
        probs = jax.nn.softmax((q @ k.transpose(0, 1, 3, 2)) * (1.0 / math.sqrt(hd)), axis=-1)
        ctx = (probs @ v).transpose(0, 2, 1, 3).reshape(batch, seq, hidden)
        x = c.layer_norm(f"{name}.attn_norm", x + c.dense(f"{name}.attn_out", ctx))
        ffn = c.dense(f"{name}.output", jax.nn.gelu(c.dense(f"{name}.intermediate", x),
                                                      approximate=False))
        return c.layer_norm(f"{name}.out_norm", x + ffn)

    def forward(c, ids):
        seq = ids.shape[1]
        x = (c.p["word_embeddings.embedding_table"][ids]
             + c.p["position_embeddings.embedding_table"][:seq])
        x = c.layer_norm("embed_norm", x)
        i = 0
        while f"layers.{i}.query.weight" in c.p:
            x = layer(c, f"layers.{i}", x)
            i += 1
        return c.dense("classifier", jnp.tanh(c.dense("pooler", x[:, 0])))
    return forward


_FORWARDS = {"lenet": lenet, "resnet18": resnet(False), "resnet50": resnet(True),
             "mobilenet_v2": mobilenet_v2,
             "bert": bert()}


def model(name):
    """``(params, state, x, training) -> (logits, new_state)`` for model ``name``."""
    body = _FORWARDS[name]

    def apply(params, state, x, training=False):
        c = Ctx(params, state, training)
        return body(c, x), c.new_state
    return apply


def cross_entropy(logits, labels):
    logp = jax.nn.log_softmax(logits, axis=-1)
    return -jnp.mean(jnp.take_along_axis(logp, labels[:, None].astype(jnp.int32), axis=1))


def forward_fn(name):
    apply = model(name)

    def forward(params, state, x):
        return apply(params, state, x, False)[0]
    return forward


def train_step(name, lr=LR, momentum=MOMENTUM):
    """``(params, state, moments, x, y) -> (loss, params, state, moments)``."""
    apply = model(name)

    def loss_fn(params, state, x, y):
        logits, new_state = apply(params, state, x, True)
        return cross_entropy(logits, y), new_state

    def step(params, state, moments, x, y):
        (loss, new_state), grads = jax.value_and_grad(loss_fn, has_aux=True)(params, state, x, y)
        moments = {k: momentum * moments[k] + grads[k] for k in grads}
        params = {k: params[k] - lr * moments[k] for k in params}
        return loss, params, new_state, moments
    return step
