"""Real models for ``real_models.py``, written against the MindSpore API (msxla here).

- ``lenet``: LeNet-5 on 1x32x32 images (the model-zoo network).
- ``resnet18`` / ``resnet50``: ResNet as mindcv defines it (a 7x7 stride-2 stem,
  3x3 stride-2 'same' max pooling, BasicBlock or Bottleneck stages [2,2,2,2] /
  [3,4,6,3] with the Bottleneck's stride on its 3x3 convolution, a 1x1
  convolution + BatchNorm down-sampling shortcut, global average pooling and
  a Dense classifier; every convolution without bias).
- ``mobilenet_v2``: MobileNetV2 (width 1.0) as mindcv defines it: a 3x3 stride-2
  stem, inverted residual blocks (1x1 expansion, 3x3 depthwise, 1x1 linear
  projection, each followed by BatchNorm, ReLU6 after the first two), a 1x1
  convolution to 1280 channels, global average pooling and a Dense classifier.
  mindcv puts Dropout(0.2) before the classifier; here it is left out so that
  every framework computes the same numbers.
- ``bert``: a BERT-base-like encoder stack: token and position embeddings,
  LayerNorm, ``layers`` post-norm Transformer layers (hidden 768, 12 heads,
  feed-forward 3072 with exact GELU), a tanh pooler on the first token and a
  2-class classifier (no dropout, for the same reason).

Every model ends in class logits; the train step is MindSpore's usual
``value_and_grad`` of SoftmaxCrossEntropyWithLogits(sparse) + ``nn.Momentum``.
The parameter names are what the jax and torch peers read.
"""
from __future__ import annotations

import math

import numpy as np

from msxla import Tensor, nn, ops


def conv(cin, cout, k, stride=1, padding=0, group=1):
    return nn.Conv2d(cin, cout, k, stride=stride, pad_mode="pad", padding=padding, group=group,
                     has_bias=False)


class LeNet5(nn.Cell):
    def __init__(self, num_classes=10):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 6, 5, pad_mode="valid")
        self.conv2 = nn.Conv2d(6, 16, 5, pad_mode="valid")
        self.fc1 = nn.Dense(400, 120)
        self.fc2 = nn.Dense(120, 84)
        self.fc3 = nn.Dense(84, num_classes)
        self.relu = nn.ReLU()
        self.pool = nn.MaxPool2d(2, 2)
        self.flatten = nn.Flatten()

    def construct(self, x):
        x = self.pool(self.relu(self.conv1(x)))
        x = self.pool(self.relu(self.conv2(x)))
        x = self.flatten(x)
        return self.fc3(self.relu(self.fc2(self.relu(self.fc1(x)))))


class BasicBlock(nn.Cell):
    expansion = 1

    def __init__(self, cin, channels, stride=1, down_sample=None):
        super().__init__()
        self.conv1 = conv(cin, channels, 3, stride, 1)
        self.bn1 = nn.BatchNorm2d(channels)
        self.conv2 = conv(channels, channels, 3, 1, 1)
        self.bn2 = nn.BatchNorm2d(channels)
        self.relu = nn.ReLU()
        self.down_sample = down_sample

    def construct(self, x):
        identity = x
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        if self.down_sample is not None:
            identity = self.down_sample(x)
        return self.relu(out + identity)


class Bottleneck(nn.Cell):
    expansion = 4

    def __init__(self, cin, channels, stride=1, down_sample=None):
        super().__init__()
        self.conv1 = conv(cin, channels, 1)
        self.bn1 = nn.BatchNorm2d(channels)
        self.conv2 = conv(channels, channels, 3, stride, 1)
        self.bn2 = nn.BatchNorm2d(channels)
        self.conv3 = conv(channels, channels * 4, 1)
        self.bn3 = nn.BatchNorm2d(channels * 4)
        self.relu = nn.ReLU()
        self.down_sample = down_sample

    def construct(self, x):
        identity = x
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.relu(self.bn2(self.conv2(out)))
        out = self.bn3(self.conv3(out))
        if self.down_sample is not None:
            identity = self.down_sample(x)
        return self.relu(out + identity)


class ResNet(nn.Cell):
    def __init__(self, block, layers, num_classes=1000):
        super().__init__()
        self.cin = 64
        self.conv1 = conv(3, 64, 7, 2, 3)
        self.bn1 = nn.BatchNorm2d(64)
        self.relu = nn.ReLU()
        self.max_pool = nn.MaxPool2d(kernel_size=3, stride=2, pad_mode="same")
        self.layer1 = self._stage(block, 64, layers[0], 1)
        self.layer2 = self._stage(block, 128, layers[1], 2)
        self.layer3 = self._stage(block, 256, layers[2], 2)
        self.layer4 = self._stage(block, 512, layers[3], 2)
        self.classifier = nn.Dense(512 * block.expansion, num_classes)

    def _stage(self, block, channels, count, stride):
        down = None
        if stride != 1 or self.cin != channels * block.expansion:
            down = nn.SequentialCell([conv(self.cin, channels * block.expansion, 1, stride),
                                      nn.BatchNorm2d(channels * block.expansion)])
        blocks = [block(self.cin, channels, stride, down)]
        self.cin = channels * block.expansion
        blocks += [block(self.cin, channels) for _ in range(1, count)]
        return nn.SequentialCell(blocks)

    def construct(self, x):
        x = self.max_pool(self.relu(self.bn1(self.conv1(x))))
        x = self.layer4(self.layer3(self.layer2(self.layer1(x))))
        return self.classifier(x.mean((2, 3)))


class InvertedResidual(nn.Cell):
    def __init__(self, cin, cout, stride, expand):
        super().__init__()
        hidden = round(cin * expand)
        self.use_res_connect = stride == 1 and cin == cout
        layers = []
        if expand != 1:
            layers += [conv(cin, hidden, 1), nn.BatchNorm2d(hidden), nn.ReLU6()]
        layers += [conv(hidden, hidden, 3, stride, 1, group=hidden), nn.BatchNorm2d(hidden),
                   nn.ReLU6(), conv(hidden, cout, 1), nn.BatchNorm2d(cout)]
        self.layers = nn.SequentialCell(layers)

    def construct(self, x):
        if self.use_res_connect:
            return x + self.layers(x)
        return self.layers(x)


MOBILENET_V2_SETTING = [(1, 16, 1, 1), (6, 24, 2, 2), (6, 32, 3, 2), (6, 64, 4, 2),
                        (6, 96, 3, 1), (6, 160, 3, 2), (6, 320, 1, 1)]  # t, c, n, s


class MobileNetV2(nn.Cell):
    def __init__(self, num_classes=1000, blocks=None):
        super().__init__()
        cin = 32
        features = [conv(3, cin, 3, 2, 1), nn.BatchNorm2d(cin), nn.ReLU6()]
        setting = [(t, c, n if blocks is None else blocks[i], s)
                   for i, (t, c, n, s) in enumerate(MOBILENET_V2_SETTING)]
        for t, c, n, s in setting:
            for i in range(n):
                features.append(InvertedResidual(cin, c, s if i == 0 else 1, t))
                cin = c
        features += [conv(cin, 1280, 1), nn.BatchNorm2d(1280), nn.ReLU6()]
        self.features = nn.SequentialCell(features)
        self.classifier = nn.Dense(1280, num_classes)

    def construct(self, x):
        return self.classifier(self.features(x).mean((2, 3)))


class BertLayer(nn.Cell):
    def __init__(self, hidden, heads, ffn):
        super().__init__()
        self.heads = heads
        self.head_dim = hidden // heads
        self.scale = 1.0 / math.sqrt(self.head_dim)
        self.query = nn.Dense(hidden, hidden)
        self.key = nn.Dense(hidden, hidden)
        self.value = nn.Dense(hidden, hidden)
        self.attn_out = nn.Dense(hidden, hidden)
        self.attn_norm = nn.LayerNorm((hidden,), epsilon=1e-12)
        self.intermediate = nn.Dense(hidden, ffn)
        self.gelu = nn.GELU(approximate=False)
        self.output = nn.Dense(ffn, hidden)
        self.out_norm = nn.LayerNorm((hidden,), epsilon=1e-12)

    def split(self, x, batch, seq):
        return x.reshape(batch, seq, self.heads, self.head_dim).transpose(0, 2, 1, 3)

    def construct(self, x):
        batch, seq, hidden = x.shape
        q = self.split(self.query(x), batch, seq)
        k = self.split(self.key(x), batch, seq)
        v = self.split(self.value(x), batch, seq)
        probs = ops.softmax(ops.matmul(q, k.transpose(0, 1, 3, 2)) * self.scale, axis=-1)
        ctx = ops.matmul(probs, v).transpose(0, 2, 1, 3).reshape(batch, seq, hidden)
        x = self.attn_norm(x + self.attn_out(ctx))
        return self.out_norm(x + self.output(self.gelu(self.intermediate(x))))


class BertClassifier(nn.Cell):
    def __init__(self, layers=12, hidden=768, heads=12, ffn=3072, vocab=30522, max_pos=512,
                 num_classes=2):
        super().__init__()
        self.word_embeddings = nn.Embedding(vocab, hidden)
        self.position_embeddings = nn.Embedding(max_pos, hidden)
        self.embed_norm = nn.LayerNorm((hidden,), epsilon=1e-12)
        self.layers = nn.CellList([BertLayer(hidden, heads, ffn) for _ in range(layers)])
        self.pooler = nn.Dense(hidden, hidden, activation="tanh")
        self.classifier = nn.Dense(hidden, num_classes)
        self.positions = Tensor(np.arange(max_pos, dtype=np.int32))

    def construct(self, ids):
        seq = ids.shape[1]
        x = self.word_embeddings(ids) + self.position_embeddings(self.positions[:seq])
        x = self.embed_norm(x)
        for layer in self.layers:
            x = layer(x)
        return self.classifier(self.pooler(x[:, 0]))


def make_model(name, blocks=None, layers=None):
    """The msxla network called ``name`` (one of ``MODELS``). ``blocks`` changes the number
    of blocks per stage of the ResNets and MobileNetV2 (tests run shallow copies);
    ``layers`` is the BERT model's number of Transformer layers (default 12)."""
    if name == "lenet":
        return LeNet5()
    if name == "resnet18":
        return ResNet(BasicBlock, blocks or [2, 2, 2, 2])
    if name == "resnet50":
        return ResNet(Bottleneck, blocks or [3, 4, 6, 3])
    if name == "mobilenet_v2":
        return MobileNetV2(blocks=blocks)
    if name == "bert":
        return BertClassifier(**({} if layers is None else {"layers": layers}))
    raise ValueError(f"unknown model {name!r}: use one of {MODELS}")


MODELS = ("lenet", "resnet18", "resnet50", "mobilenet_v2", "bert")
