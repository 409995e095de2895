"""The models of ``zoo_models.py`` in PyTorch, and a worker that times them for
``real_models.py``.

The worker runs in its own Python (one with torch installed, which msxla's
environment does not need): ``python zoo_torch.py`` reads one JSON command per
line on stdin and answers one JSON line on stdout, so the benchmark interleaves
torch's rounds with its own. Commands:

- ``{"cmd": "build", "id", "model", "direction", "compile", "weights", "inputs",
  "device"}``: the model with the weights of an ``.npz`` file (msxla names), on
  ``device`` ("cpu" or "gpu": CUDA), in eval mode
  (forward: ``torch.no_grad``) or training mode (train: cross entropy,
  backward, ``torch.optim.SGD(lr=0.01, momentum=0.9)``, which is MindSpore's
  Momentum), eager or under ``torch.compile``;
- ``{"cmd": "prepare", "id"}``: the first call, timed;
- ``{"cmd": "check", "id", "out"}``: reset to the weights, one call, results
  written to ``out`` (.npz, msxla names) for the agreement check;
- ``{"cmd": "block", "id", "n"}``: wall and process CPU seconds of ``n`` calls
  (on a GPU, until the device has finished them);
- ``{"cmd": "rss"}``: the process's resident set size, now and at its peak.
"""
from __future__ import annotations

import json
import os
import math
import sys
import time

import numpy as np
import torch
from torch import nn
from torch.nn import functional as F

LR, MOMENTUM = 0.01, 0.9
_RENAMES = (("gamma", "weight"), ("beta", "bias"), ("moving_mean", "running_mean"),
            ("moving_variance", "running_var"), ("embedding_table", "weight"))


def torch_name(ms_name):
    head, _, last = ms_name.rpartition(".")
    return f"{head}.{dict(_RENAMES).get(last, last)}"


def conv(cin, cout, k, stride=1, padding=0, groups=1):
    return nn.Conv2d(cin, cout, k, stride, padding, groups=groups, bias=False)


def bn(c):
    return nn.BatchNorm2d(c, eps=1e-5, momentum=1 - 0.9)


class SamePool(nn.Module):
    """MindSpore's 'same' max pooling: TensorFlow-style padding, the extra row at the end."""

    def __init__(self, k, s):
        super().__init__()
        self.k, self.s = k, s

    def forward(self, x):
        pads = []
        for n in (x.shape[3], x.shape[2]):
            total = max((math.ceil(n / self.s) - 1) * self.s + self.k - n, 0)
            pads += [total // 2, total - total // 2]
        return F.max_pool2d(F.pad(x, pads, value=-math.inf), self.k, self.s)


class LeNet5(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1, self.conv2 = nn.Conv2d(1, 6, 5, bias=False), nn.Conv2d(6, 16, 5, bias=False)
        self.fc1, self.fc2, self.fc3 = nn.Linear(400, 120), nn.Linear(120, 84), nn.Linear(84, 10)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), 2, 2)
        x = F.max_pool2d(F.relu(self.conv2(x)), 2, 2).flatten(1)
        return self.fc3(F.relu(self.fc2(F.relu(self.fc1(x)))))


class Block(nn.Module):
    def __init__(self, cin, channels, stride, bottleneck):
        super().__init__()
        self.bottleneck = bottleneck
        cout = channels * (4 if bottleneck else 1)
        if bottleneck:
            self.conv1, self.bn1 = conv(cin, channels, 1), bn(channels)
            self.conv2, self.bn2 = conv(channels, channels, 3, stride, 1), bn(channels)
            self.conv3, self.bn3 = conv(channels, cout, 1), bn(cout)
        else:
            self.conv1, self.bn1 = conv(cin, channels, 3, stride, 1), bn(channels)
            self.conv2, self.bn2 = conv(channels, channels, 3, 1, 1), bn(channels)
        self.down_sample = None
        if stride != 1 or cin != cout:
            self.down_sample = nn.Sequential(conv(cin, cout, 1, stride), bn(cout))

    def forward(self, x):
        out = F.relu(self.bn1(self.conv1(x)))
        if self.bottleneck:
            out = F.relu(self.bn2(self.conv2(out)))
            out = self.bn3(self.conv3(out))
        else:
            out = self.bn2(self.conv2(out))
        identity = x if self.down_sample is None else self.down_sample(x)
        return F.relu(out + identity)


class ResNet(nn.Module):
    def __init__(self, layers, bottleneck):
        super().__init__()
        self.conv1, self.bn1, self.max_pool = conv(3, 64, 7, 2, 3), bn(64), SamePool(3, 2)
        cin = 64
        for i, (channels, count) in enumerate(zip((64, 128, 256, 512), layers)):
            blocks = []
            for j in range(count):
                blocks.append(Block(cin, channels, 2 if i > 0 and j == 0 else 1, bottleneck))
                cin = channels * (4 if bottleneck else 1)
            setattr(self, f"layer{i + 1}", nn.Sequential(*blocks))
        self.classifier = nn.Linear(cin, 1000)

    def forward(self, x):
        x = self.max_pool(F.relu(self.bn1(self.conv1(x))))
        x = self.layer4(self.layer3(self.layer2(self.layer1(x))))
        return self.classifier(x.mean((2, 3)))


class InvertedResidual(nn.Module):
    def __init__(self, cin, cout, stride, t):
        super().__init__()
        hidden = cin * t
        self.res = stride == 1 and cin == cout
        layers = [conv(cin, hidden, 1), bn(hidden), nn.ReLU6()] if t != 1 else []
        layers += [conv(hidden, hidden, 3, stride, 1, hidden), bn(hidden), nn.ReLU6(),
                   conv(hidden, cout, 1), bn(cout)]
        self.layers = nn.Sequential(*layers)

    def forward(self, x):
        return x + self.layers(x) if self.res else self.layers(x)


class MobileNetV2(nn.Module):
    SETTING = [(1, 16, 1, 1), (6, 24, 2, 2), (6, 32, 3, 2), (6, 64, 4, 2), (6, 96, 3, 1),
               (6, 160, 3, 2), (6, 320, 1, 1)]

    def __init__(self, blocks=None):
        super().__init__()
        cin, features = 32, [conv(3, 32, 3, 2, 1), bn(32), nn.ReLU6()]
        for k, (t, c, n, s) in enumerate(self.SETTING):
            n = n if blocks is None else blocks[k]
            for i in range(n):
                features.append(InvertedResidual(cin, c, s if i == 0 else 1, t))
                cin = c
        features += [conv(cin, 1280, 1), bn(1280), nn.ReLU6()]
        self.features = nn.Sequential(*features)
        self.classifier = nn.Linear(1280, 1000)

    def forward(self, x):
        return self.classifier(self.features(x).mean((2, 3)))


class BertLayer(nn.Module):
    def __init__(self, hidden=768, heads=12, ffn=3072):
        super().__init__()
        self.heads = heads
        self.query, self.key, self.value = (nn.Linear(hidden, hidden) for _ in range(3))
        self.attn_out = nn.Linear(hidden, hidden)
        self.attn_norm = nn.LayerNorm(hidden, eps=1e-12)
        self.intermediate, self.output = nn.Linear(hidden, ffn), nn.Linear(ffn, hidden)
        self.out_norm = nn.LayerNorm(hidden, eps=1e-12)

    def forward(self, x):
        b, s, h = x.shape
        hd = h // self.heads

        def split(y):
            return y.reshape(b, s, self.heads, hd).transpose(1, 2)
        q, k, v = split(self.query(x)), split(self.key(x)), split(self.value(x))
        probs = torch.softmax((q @ k.transpose(2, 3)) * (1.0 / math.sqrt(hd)), dim=-1)
        ctx = (probs @ v).transpose(1, 2).reshape(b, s, h)
        x = self.attn_norm(x + self.attn_out(ctx))
        return self.out_norm(x + self.output(F.gelu(self.intermediate(x))))


class BertClassifier(nn.Module):
    def __init__(self, layers=None, hidden=768, vocab=30522, max_pos=512):
        layers = 12 if layers is None else layers
        super().__init__()
        self.word_embeddings = nn.Embedding(vocab, hidden)
        self.position_embeddings = nn.Embedding(max_pos, hidden)
        self.embed_norm = nn.LayerNorm(hidden, eps=1e-12)
        self.layers = nn.ModuleList(BertLayer(hidden) for _ in range(layers))
        self.pooler, self.classifier = nn.Linear(hidden, hidden), nn.Linear(hidden, 2)

    def forward(self, ids):
        pos = torch.arange(ids.shape[1], device=ids.device)
        x = self.embed_norm(self.word_embeddings(ids) + self.position_embeddings(pos))
        for layer in self.layers:
            x = layer(x)
        return self.classifier(torch.tanh(self.pooler(x[:, 0])))


def make_model(name, layers=None, blocks=None):
    return {"lenet": LeNet5, "resnet18": lambda: ResNet(blocks or [2, 2, 2, 2], False),
            "resnet50": lambda: ResNet(blocks or [3, 4, 6, 3], True),
            "mobilenet_v2": lambda: MobileNetV2(blocks),
            "bert": lambda: BertClassifier(layers)}[name]()


class Runner:
    def __init__(self, cmd):
        self.weights = dict(np.load(cmd["weights"]))
        inputs = np.load(cmd["inputs"])
        self.device = torch.device("cuda" if cmd.get("device") == "gpu" else "cpu")
        # full float32 on a GPU, as every other row computes (cuDNN's default is TF32)
        torch.backends.cudnn.allow_tf32 = torch.backends.cuda.matmul.allow_tf32 = False
        self.x = torch.from_numpy(inputs["x"])
        if self.x.dtype == torch.int32:
            self.x = self.x.long()
        self.x = self.x.to(self.device)
        self.y = torch.from_numpy(inputs["y"]).long().to(self.device)
        self.train = cmd["direction"] == "train"
        self.model = make_model(cmd["model"], cmd.get("layers"), cmd.get("blocks"))
        self.model.to(self.device)
        self.load()
        self.model.train(self.train)
        module = torch.compile(self.model) if cmd["compile"] else self.model
        if self.train:
            opt = self.opt = torch.optim.SGD(self.model.parameters(), lr=LR, momentum=MOMENTUM)

            def step():
                opt.zero_grad(set_to_none=True)
                loss = F.cross_entropy(module(self.x), self.y)
                loss.backward()
                opt.step()
                return loss
            self.call = step
        else:
            def forward():
                with torch.no_grad():
                    return module(self.x)
            self.call = forward

    def load(self):
        state = self.model.state_dict()
        for name, value in self.weights.items():
            state[torch_name(name)].copy_(torch.from_numpy(value))

    def check(self, out):
        self.load()
        if self.train:
            self.opt.state.clear()
        result = self.call().detach().cpu().numpy()
        arrays = {"out": np.asarray(result, np.float32)}
        if self.train:
            params = dict(self.model.named_parameters())
            buffers = dict(self.model.named_buffers())
            for name in self.weights:
                tname = torch_name(name)
                if tname in params:
                    arrays["grad:" + name] = self.opt.state[params[tname]]["momentum_buffer"]
                elif tname in buffers:
                    arrays["state:" + name] = buffers[tname]
            arrays = {k: np.asarray(v.detach().cpu().numpy() if torch.is_tensor(v) else v)
                      for k, v in arrays.items()}
        np.savez(out, **arrays)


def rss_mb(field="VmRSS"):
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    return float("nan")


def sync():
    """Wait for the GPU's queued work (nothing to wait for on a CPU)."""
    if torch.cuda.is_available() and torch.cuda.is_initialized():
        torch.cuda.synchronize()


def serve():
    runners = {}
    for line in sys.stdin:
        cmd = json.loads(line)
        answer = {}
        if cmd["cmd"] == "build":
            runners[cmd["id"]] = Runner(cmd)
        elif cmd["cmd"] == "prepare":
            start, cpu = time.perf_counter(), time.process_time()
            runners[cmd["id"]].call()
            sync()
            answer = {"wall": time.perf_counter() - start, "cpu": time.process_time() - cpu}
        elif cmd["cmd"] == "check":
            runners[cmd["id"]].check(cmd["out"])
        elif cmd["cmd"] == "block":
            call = runners[cmd["id"]].call
            start, cpu = time.perf_counter(), time.process_time()
            for _ in range(cmd["n"]):
                call()
            sync()
            answer = {"wall": time.perf_counter() - start, "cpu": time.process_time() - cpu}
        elif cmd["cmd"] == "rss":
            answer = {"peak_rss_mb": rss_mb("VmHWM"), "rss_mb": rss_mb()}
        elif cmd["cmd"] == "versions":
            answer = {"torch": torch.__version__, "threads": torch.get_num_threads(),
                      "cuda": torch.cuda.get_device_name() if torch.cuda.is_available() else "-",
                      "omp_wait_policy": os.environ.get("OMP_WAIT_POLICY", "-")}
        print(json.dumps(answer), flush=True)


if __name__ == "__main__":
    serve()
