"""The benchmark workloads of the ``mindspore.jit`` practice tutorial, in msxla.

- ``simple_function``: ``a * b + c`` on three (2, 3) float32 Tensors.
- ``BasicBlock``: ResNet's basic block (conv3x3 64->64, BatchNorm, ReLU, conv3x3,
  BatchNorm, identity shortcut, ReLU) on (2, 64, 32, 32).
- ``LlamaAttention``: Llama's attention block (q/k/v/o projections without bias,
  rotary position embedding, causal mask, softmax) with hidden size 512 and 8
  heads on (2, 128, 512).

Each workload is plain MindSpore code (``msxla.nn`` / ``msxla.ops``), so it
runs unchanged under every capture mode; ``make_workload(name)`` builds the
network with fixed-seed weights, its input and its loss function (the mean
of the output) for forward+backward runs.
"""
from __future__ import annotations

import math

import numpy as np

import msxla as ms
from msxla import Tensor, nn, ops

SIMPLE_SHAPE = (2, 3)
BLOCK_SHAPE = (2, 64, 32, 32)
ATTENTION_SHAPE = (2, 128, 512)
ROPE_THETA = 10000.0
MASK_VALUE = -1e9


def simple_function(a, b, c):
    return a * b + c


def simple_inputs(seed=0):
    rng = np.random.default_rng(seed)
    return [Tensor(rng.standard_normal(SIMPLE_SHAPE).astype(np.float32), ms.float32)
            for _ in range(3)]


def conv3x3(in_channels, out_channels, stride=1):
    return nn.Conv2d(in_channels, out_channels, kernel_size=3, stride=stride, pad_mode="pad",
                     padding=1, has_bias=False)


class BasicBlock(nn.Cell):
    """ResNet's basic block with an identity shortcut."""

    def __init__(self, channels=64):
        super().__init__()
        self.conv1 = conv3x3(channels, channels)
        self.bn1 = nn.BatchNorm2d(channels)
        self.relu = nn.ReLU()
        self.conv2 = conv3x3(channels, channels)
        self.bn2 = nn.BatchNorm2d(channels)

    def construct(self, x):
        identity = x
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        return self.relu(out + identity)


def rotary_tables(seq_len, head_dim, theta=ROPE_THETA):
    """Llama's rotary embedding tables: cos and sin of shape (seq_len, head_dim)."""
    inv_freq = 1.0 / theta ** (np.arange(0, head_dim, 2, dtype=np.float64) / head_dim)
    angles = np.outer(np.arange(seq_len, dtype=np.float64), inv_freq)
    angles = np.concatenate([angles, angles], axis=-1)
    return np.cos(angles).astype(np.float32), np.sin(angles).astype(np.float32)


def causal_mask(seq_len):
    """0 on and below the diagonal, a large negative number above it."""
    return np.triu(np.full((seq_len, seq_len), MASK_VALUE, np.float32), k=1)


def rotate_half(x):
    half = x.shape[-1] // 2
    return ops.cat((-x[..., half:], x[..., :half]), axis=-1)


class LlamaAttention(nn.Cell):
    """Multi-head self-attention as in Llama: rotary q/k, causal softmax(q k^T / sqrt(d)) v."""

    def __init__(self, hidden_size=512, num_heads=8, max_seq_len=128):
        super().__init__()
        self.hidden_size = hidden_size
        self.num_heads = num_heads
        self.head_dim = hidden_size // num_heads
        self.scale = 1.0 / math.sqrt(self.head_dim)
        self.q_proj = nn.Dense(hidden_size, hidden_size, has_bias=False)
        self.k_proj = nn.Dense(hidden_size, hidden_size, has_bias=False)
        self.v_proj = nn.Dense(hidden_size, hidden_size, has_bias=False)
        self.o_proj = nn.Dense(hidden_size, hidden_size, has_bias=False)
        cos, sin = rotary_tables(max_seq_len, self.head_dim)
        self.cos = Tensor(cos)
        self.sin = Tensor(sin)
        self.mask = Tensor(causal_mask(max_seq_len))

    def split_heads(self, x, batch, seq_len):
        return x.reshape(batch, seq_len, self.num_heads, self.head_dim).transpose(0, 2, 1, 3)

    def construct(self, x):
        batch, seq_len, _ = x.shape
        q = self.split_heads(self.q_proj(x), batch, seq_len)
        k = self.split_heads(self.k_proj(x), batch, seq_len)
        v = self.split_heads(self.v_proj(x), batch, seq_len)
        cos = self.cos[:seq_len]
        sin = self.sin[:seq_len]
        q = q * cos + rotate_half(q) * sin
        k = k * cos + rotate_half(k) * sin
        scores = ops.matmul(q, k.transpose(0, 1, 3, 2)) * self.scale
        scores = scores + self.mask[:seq_len, :seq_len]
        probs = ops.softmax(scores, axis=-1)
        out = ops.matmul(probs, v).transpose(0, 2, 1, 3).reshape(batch, seq_len,
                                                                 self.hidden_size)
        return self.o_proj(out)


class Workload:
    """One benchmark workload: ``net`` (None for the simple function), ``forward``
    (a plain function of ``inputs``) and ``loss`` (the mean of the output)."""

    def __init__(self, name, net, forward, inputs):
        self.name = name
        self.net = net
        self.forward = forward
        self.inputs = inputs

    def loss(self, *inputs):
        return ops.mean(self.forward(*inputs))

    def weights(self):
        return self.net.trainable_params() if self.net is not None else []


def make_workload(name, seed=0):
    """``"simple"``, ``"basic_block"`` or ``"attention"`` with fixed-seed weights and input."""
    ms.set_seed(seed)
    rng = np.random.default_rng(seed)
    if name == "simple":
        return Workload(name, None, simple_function, simple_inputs(seed))
    if name == "basic_block":
        net = BasicBlock()
        shape = BLOCK_SHAPE
    elif name == "attention":
        net = LlamaAttention()
        shape = ATTENTION_SHAPE
    else:
        raise ValueError(f"unknown workload {name!r}: use simple, basic_block or attention")
    x = Tensor(rng.standard_normal(shape).astype(np.float32))

    def forward(x):
        return net(x)

    return Workload(name, net, forward, [x])
