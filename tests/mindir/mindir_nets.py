"""The networks of the MindIR round trips, written once for MindSpore and msxla.

Each builder takes the ``mindspore`` module (MindSpore 2.10 in the golden
scripts, msxla in the tests) and returns ``(net, inputs)`` with the same
weights and inputs in both: weights are drawn from a fixed seed per
Parameter name (``set_weights``), inputs from a fixed seed per network.
``NETS`` lists them; the golden scripts and the tests walk it.
"""
from __future__ import annotations

import zlib

import numpy as np


def set_weights(ms, net, seed):
    """Deterministic weights by Parameter name (variances positive, as BatchNorm needs)."""
    for name, p in net.parameters_and_names():
        rng = np.random.default_rng(seed + zlib.crc32(name.encode()))
        value = rng.standard_normal(p.shape).astype(np.float32) * 0.5
        if "variance" in name:
            value = np.abs(value) + 0.5
        p.set_data(ms.Tensor(value))
    net.set_train(False)
    return net


def _inputs(ms, seed, *shapes):
    rng = np.random.default_rng(seed)
    return [ms.Tensor(rng.standard_normal(s).astype(np.float32)) for s in shapes]


def mlp(ms):
    nn, ops = ms.nn, ms.ops

    class MLP(nn.Cell):
        def __init__(self):
            super().__init__()
            self.fc1 = nn.Dense(16, 32)
            self.fc2 = nn.Dense(32, 10)
            self.relu = nn.ReLU()

        def construct(self, x):
            return ops.softmax(self.fc2(self.relu(self.fc1(x))), -1)

    return set_weights(ms, MLP(), 1), _inputs(ms, 1, (4, 16))


def lenet(ms):
    nn = ms.nn

    class LeNet5(nn.Cell):
        def __init__(self, num_class=10):
            super().__init__()
            self.conv1 = nn.Conv2d(1, 4, 5, pad_mode="valid")
            self.conv2 = nn.Conv2d(4, 8, 5, pad_mode="valid")
            self.fc1 = nn.Dense(8 * 5 * 5, 32)
            self.fc2 = nn.Dense(32, 16)
            self.fc3 = nn.Dense(16, num_class)
            self.relu = nn.ReLU()
            self.max_pool2d = nn.MaxPool2d(kernel_size=2, stride=2)
            self.flatten = nn.Flatten()

        def construct(self, x):
            x = self.max_pool2d(self.relu(self.conv1(x)))
            x = self.max_pool2d(self.relu(self.conv2(x)))
            x = self.flatten(x)
            x = self.relu(self.fc1(x))
            x = self.relu(self.fc2(x))
            return self.fc3(x)

    return set_weights(ms, LeNet5(), 2), _inputs(ms, 2, (2, 1, 32, 32))


def _basic_block(ms, cin, cout, stride):
    nn = ms.nn

    class BasicBlock(nn.Cell):
        def __init__(self):
            super().__init__()
            self.conv1 = nn.Conv2d(cin, cout, 3, stride=stride, pad_mode="pad", padding=1,
                                   has_bias=False)
            self.bn1 = nn.BatchNorm2d(cout)
            self.conv2 = nn.Conv2d(cout, cout, 3, pad_mode="pad", padding=1, has_bias=False)
            self.bn2 = nn.BatchNorm2d(cout)
            self.relu = nn.ReLU()
            self.down = stride != 1 or cin != cout
            if self.down:
                self.down_sample = nn.SequentialCell(
                    [nn.Conv2d(cin, cout, 1, stride=stride, has_bias=False),
                     nn.BatchNorm2d(cout)])

        def construct(self, x):
            identity = x
            out = self.relu(self.bn1(self.conv1(x)))
            out = self.bn2(self.conv2(out))
            if self.down:
                identity = self.down_sample(x)
            return self.relu(out + identity)

    return BasicBlock()


def basic_block(ms):
    return set_weights(ms, _basic_block(ms, 8, 8, 1), 3), _inputs(ms, 3, (2, 8, 8, 8))


def basic_block_down(ms):
    return set_weights(ms, _basic_block(ms, 4, 8, 2), 4), _inputs(ms, 4, (2, 4, 8, 8))


def ops_mix(ms):
    """Element-wise, reduction, reshape, transpose, concat, matmul and softmax ops."""
    nn, ops = ms.nn, ms.ops

    class OpsMix(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = ms.Parameter(ms.Tensor(np.ones((6, 6), np.float32)), name="w")

        def construct(self, x, y):
            a = ops.exp(x * 0.5) - ops.log(ops.abs(y) + 1.0) * ops.sqrt(ops.abs(x))
            b = ops.maximum(a, y) / (ops.square(y) + 2.0) + ops.minimum(x, 0.5)
            c = ops.matmul(b, self.w) + ops.tanh(x) * ops.sigmoid(y)
            d = ops.softmax(c, -1)
            e = ops.ReduceMean(keep_dims=False)(d, 0) + ops.ReduceMax(keep_dims=False)(d, 1) - \
                ops.ReduceSum(keep_dims=False)(c, 0) * ops.ReduceMin()(c, 0)
            f = ops.transpose(c, (1, 0)).reshape((4, 9))
            g = ops.concat((f, ops.neg(f)), 1)
            h = ops.where(x > 0.0, x, ops.zeros_like(x)) + ops.pow(ops.abs(y), 1.5)
            i = ops.expand_dims(h, 0).squeeze(0) - ops.floor(x) + ops.ceil(y)
            j = ops.bmm(x.reshape(2, 3, 6), y.reshape(2, 6, 3))
            return e, g, i, j, x[1:5:2, ::3]

    return set_weights(ms, OpsMix(), 5), _inputs(ms, 5, (6, 6), (6, 6))


def multi_io(ms):
    """Three inputs, a tuple of three outputs; one input of another dtype."""
    nn, ops = ms.nn, ms.ops

    class MultiIO(nn.Cell):
        def __init__(self):
            super().__init__()
            self.fc = nn.Dense(8, 8)

        def construct(self, x, y, scale):
            h = self.fc(x) + y
            return h, ops.ReduceSum()(h * scale, 1), ops.cast(h > 0.0, ms.float32)

    net = set_weights(ms, MultiIO(), 6)
    x, y = _inputs(ms, 6, (3, 8), (3, 8))
    scale = ms.Tensor(np.linspace(0.5, 2.0, 8).astype(np.float32))
    return net, [x, y, scale]


def pool_norm(ms):
    """AvgPool2d, LayerNorm, GELU and a 1x1 convolution with bias."""
    nn, ops = ms.nn, ms.ops

    class PoolNorm(nn.Cell):
        def __init__(self):
            super().__init__()
            self.conv = nn.Conv2d(3, 4, 1, has_bias=True)
            self.pool = nn.AvgPool2d(kernel_size=2, stride=2)
            self.norm = nn.LayerNorm((16,))
            self.act = nn.GELU(approximate=False)

        def construct(self, x):
            y = self.pool(self.conv(x))
            y = y.reshape(y.shape[0], y.shape[1], -1)
            return self.act(self.norm(y))

    return set_weights(ms, PoolNorm(), 7), _inputs(ms, 7, (2, 3, 8, 8))


def embedding(ms):
    """nn.Embedding (a Gather of the table), a mean over the sequence, a Dense head."""
    nn, ops = ms.nn, ms.ops

    class TextClassifier(nn.Cell):
        def __init__(self):
            super().__init__()
            self.embed = nn.Embedding(20, 8)
            self.head = nn.Dense(8, 3)

        def construct(self, ids):
            return self.head(ops.ReduceMean()(self.embed(ids), 1))

    ids = np.random.default_rng(8).integers(0, 20, (2, 5)).astype(np.int32)
    return set_weights(ms, TextClassifier(), 8), [ms.Tensor(ids)]


NETS = {
    "mlp": mlp,
    "lenet": lenet,
    "basic_block": basic_block,
    "basic_block_down": basic_block_down,
    "ops_mix": ops_mix,
    "multi_io": multi_io,
    "pool_norm": pool_norm,
    "embedding": embedding,
}


# ------------------------------------------------------------ single-op cases
# name -> (function of (ms, *inputs), input shapes, input kind). Kinds: "any" (normal
# values), "pos" (positive). A shape given as ("int32", shape, n) is an int32 input of
# values in [-n, n) (negative ones count from the end).
OP_CASES = {}


def case(shapes, kind="any"):
    def deco(fn):
        OP_CASES[fn.__name__] = (fn, shapes, kind)
        return fn
    return deco


@case([(3, 4), (4,)])
def add_sub_mul(ms, x, y):
    return x + y, x - y, x * y


@case([(3, 4), (3, 4)], "pos")
def div_pow(ms, x, y):
    return x / y, ms.ops.pow(x, y)


@case([(3, 4), (3, 1)])
def max_min(ms, x, y):
    return ms.ops.maximum(x, y), ms.ops.minimum(x, 0.0)


@case([(2, 5)])
def unary(ms, x):
    ops = ms.ops
    return (ops.neg(x), ops.exp(x), ops.tanh(x), ops.sigmoid(x), ops.abs(x), ops.sign(x),
            ops.floor(x), ops.ceil(x), ops.sin(x), ops.cos(x), ops.erf(x), ops.square(x),
            ops.expm1(x), ops.round(x))


@case([(2, 5)], "pos")
def unary_pos(ms, x):
    ops = ms.ops
    return ops.log(x), ops.sqrt(x), ops.rsqrt(x), ops.log1p(x), ops.reciprocal(x)


@case([(3, 6)])
def activations(ms, x):
    ops = ms.ops
    return (ops.relu(x), ops.gelu(x), ops.silu(x), ops.leaky_relu(x, 0.2), ops.elu(x),
            ops.hardtanh(x, -0.5, 0.5), ops.softplus(x), ops.relu6(x * 4))


@case([(3, 6)])
def softmax(ms, x):
    return ms.ops.softmax(x, 1), ms.ops.log_softmax(x, -1), ms.ops.logsumexp(x, 0)


@case([(4, 3), (4, 3)])
def compare_where(ms, x, y):
    ops = ms.ops
    return (ops.where(x >= y, x, y), (x < y).astype(ms.float32),
            ops.where(ops.logical_and(x > 0, y > 0), x, 0.0))


@case([(2, 6)])
def clamp_cast(ms, x):
    return ms.ops.clamp(x, -0.5, 0.7), (x * 3).astype(ms.int32), x.astype(ms.float16)


@case([(2, 3, 4)])
def reductions(ms, x):
    ops = ms.ops
    return (x.sum(), x.sum(1), x.mean((0, 2), keep_dims=True), x.max(2), x.min(0),
            ops.prod(x, 1), ops.argmax(x, 1), ops.argmin(x, -1))


@case([(2, 3, 4)])
def shapes(ms, x):
    ops = ms.ops
    return (x.reshape(6, 4), x.transpose(2, 0, 1), ops.expand_dims(x, 1), x[:, None].squeeze(1),
            ops.tile(x, (1, 2, 1)), ops.broadcast_to(x[:, :1], (2, 3, 4)), ops.flip(x, (1,)))


@case([(3, 4), (3, 4)])
def slice_concat(ms, x, y):
    ops = ms.ops
    return (x[1:, ::2], x[..., 1], ops.concat((x, y), 0), ops.stack((x, y), 1),
            ops.split(x, 2, 1)[1])


@case([(2, 3, 4)])
def pad(ms, x):
    return ms.ops.pad(x, (1, 2, 0, 1), value=0.5)


@case([(3, 4), (4, 5), (2, 3, 4)])
def matmul(ms, x, y, z):
    ops = ms.ops
    return ops.matmul(x, y), ops.matmul(z, y), ops.bmm(z, ops.transpose(z, (0, 2, 1)))


@case([(1, 4, 9, 9), (6, 4, 3, 3), (4, 2, 3, 3)])
def conv_variants(ms, x, w, w2):
    ops = ms.ops
    return (ops.conv2d(x, w, stride=2, padding=1, pad_mode="pad"),
            ops.conv2d(x, w, dilation=2, pad_mode="same"), ops.conv2d(x, w2, groups=2))


@case([(1, 2, 7, 7)])
def pooling(ms, x):
    ops = ms.ops
    return (ops.max_pool2d(x, 3, 2, 1), ops.avg_pool2d(x, 2, 2),
            ops.avg_pool2d(x, 3, 1, 1, count_include_pad=True))


@case([(4, 3), ("int32", (2, 2), 3)])
def gather(ms, x, i):
    return ms.ops.gather(x, i, 1), x[i], ms.ops.gather(x, i, 0) * 2


@case([(3, 4)])
def cumulative(ms, x):
    return ms.ops.cumsum(x, 1), ms.ops.cumprod(x, 0)


@case([(3, 5), (5,), (5,)])
def norms(ms, x, g, b):
    ops = ms.ops
    return (ops.LayerNorm(1, 1, 1e-5)(x, g, b)[0],
            ops.batch_norm(x.reshape(3, 5, 1, 1), ops.zeros(5), ops.ones(5), g, b))


def op_inputs(ms, name):
    _, shapes, kind = OP_CASES[name]
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    out = []
    for s in shapes:
        if s[0] == "int32":
            out.append(ms.Tensor(rng.integers(-s[2], s[2], s[1]).astype(np.int32)))
            continue
        v = rng.standard_normal(s).astype(np.float32)
        if kind == "pos":
            v = np.abs(v) + 0.25
        out.append(ms.Tensor(v))
    return out


def op_case(ms, name):
    """``(Cell, inputs)`` computing OP_CASES[name]."""
    fn = OP_CASES[name][0]

    class OpNet(ms.nn.Cell):
        def construct(self, *xs):
            return fn(ms, *xs)

    return OpNet(), op_inputs(ms, name)
