"""The rows of ``real_models.py``: one runner per variant, all on the same weights.

- ``Workload``: an msxla model (``zoo_models.py``) with fixed-seed weights and
  data, its forward function and its train step (MindSpore's usual
  ``value_and_grad`` of the loss over the optimizer's Parameters, then
  ``nn.Momentum``), and a snapshot of every Parameter (network and optimizer)
  so each variant's agreement check starts from the same state.
- Runners have ``prepare()`` (the first call, timed), ``check()`` (reset to the
  snapshot, one call: the arrays to compare) and ``block(n)`` (wall and
  process CPU seconds of ``n`` calls, until the last call's output and the
  updated weights are ready: ``block_until_ready``, so on a GPU the time
  includes the device's work, not only its dispatch):
  ``MsxlaRunner`` (PyNative and every jit capture mode x level, sharing the
  workload's network), ``JaxRunner`` (raw ``jax.jit`` of ``zoo_jax.py``, its
  state donated and carried from call to call, as a jax user writes a train
  loop) and ``TorchRunner`` (a proxy to ``zoo_torch.py`` running in a torch
  Python, see there).

The arrays compared are the logits (forward) or the loss, the gradients (the
Momentum buffers after one step from zero, which equal the gradients) and
BatchNorm's new moving statistics (train).
"""
from __future__ import annotations

import dataclasses
import gc
import json
import os
import subprocess
import tempfile
import time

import jax
import jax.numpy as jnp
import numpy as np

import msxla as ms
import zoo_jax
import zoo_models

FORWARD, TRAIN = "forward", "train"


@dataclasses.dataclass(frozen=True)
class Variant:
    name: str
    kind: str                 # "msxla" | "jax.jit" | "torch eager" | "torch.compile"
    capture_mode: str = "-"
    jit_level: str = "-"

    @property
    def enable_jit(self):
        return self.kind == "msxla" and self.capture_mode != "-"


def _variants():
    rows = [Variant("PyNative", "msxla")]
    for mode in ("ast", "bytecode", "trace"):
        for level in ("O0", "O1"):
            rows.append(Variant(f"{mode} {level}", "msxla", mode, level))
    rows += [Variant("raw jax.jit", "jax.jit"), Variant("torch eager", "torch eager"),
             Variant("torch.compile", "torch.compile")]
    return rows


VARIANTS = _variants()
REFERENCE = "raw jax.jit"


class Workload:
    """One model at one batch: network, data, optimizer, forward and train step."""

    def __init__(self, model, config, seed=0):
        self.model, self.config = model, dict(config)
        ms.set_seed(seed)
        self.net = zoo_models.make_model(model, config.get("blocks"), config.get("layers"))
        rng = np.random.default_rng(seed)
        batch = config["batch"]
        if model == "bert":
            self.x = rng.integers(0, 30522, (batch, config["seq"])).astype(np.int32)
        else:
            self.x = rng.standard_normal((batch,) + tuple(config["shape"])).astype(np.float32)
        self.y = rng.integers(0, config["classes"], batch).astype(np.int32)
        self.inputs = (ms.Tensor(self.x), ms.Tensor(self.y))
        loss_fn = ms.nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
        self.opt = ms.nn.Momentum(self.net.trainable_params(), zoo_jax.LR, zoo_jax.MOMENTUM)
        net, opt = self.net, self.opt

        def forward_fn(x, y):
            return loss_fn(net(x), y)
        grad_fn = ms.value_and_grad(forward_fn, None, opt.parameters)

        def train_step(x, y):
            loss, grads = grad_fn(x, y)
            opt(grads)
            return loss

        def forward(x, y):
            return net(x)
        self.functions = {FORWARD: forward, TRAIN: train_step}
        seen, self.parameters = set(), []
        for p in list(self.net.get_parameters()) + list(self.opt.get_parameters()):
            if id(p) not in seen:
                seen.add(id(p))
                self.parameters.append(p)
        self.snapshot = [np.array(p.asnumpy()) for p in self.parameters]

    def reset(self):
        for p, value in zip(self.parameters, self.snapshot):
            p.set_data(ms.Tensor(value.copy()))

    def weights(self):
        """{msxla name: array} of the network's Parameters, at the snapshot."""
        net_ids = {id(p) for p in self.net.get_parameters()}
        return {p.name: v for p, v in zip(self.parameters, self.snapshot) if id(p) in net_ids}

    def trainable_names(self):
        return [p.name for p in self.net.trainable_params()]

    def set_direction(self, direction):
        self.net.set_train(direction == TRAIN)


def _sync(out):
    leaves = jax.tree_util.tree_leaves(out, is_leaf=lambda a: hasattr(a, "_data"))
    jax.block_until_ready([getattr(a, "_data", a) for a in leaves])
    return out


def _timed(call, n=1, updated=lambda: ()):
    """Wall and CPU seconds of ``n`` calls, until the last output and ``updated()`` (the
    arrays the calls update) are ready."""
    gc.collect()
    gc.disable()
    try:
        start, cpu = time.perf_counter(), time.process_time()
        for _ in range(n):
            out = call()
        _sync((out, updated()))
        return time.perf_counter() - start, time.process_time() - cpu
    finally:
        gc.enable()


class MsxlaRunner:
    def __init__(self, variant, workload, direction):
        self.variant, self.workload, self.direction = variant, workload, direction
        fn = workload.functions[direction]
        self.fn = (ms.jit(fn, capture_mode=variant.capture_mode, jit_level=variant.jit_level)
                   if variant.enable_jit else fn)

    def call(self):
        return self.fn(*self.workload.inputs)

    def updated(self):
        return self.workload.parameters if self.direction == TRAIN else ()

    def prepare(self):
        return _timed(self.call, 1, self.updated)

    def block(self, n):
        return _timed(self.call, n, self.updated)

    def check(self):
        w = self.workload
        w.reset()
        out = _sync(self.call())
        arrays = {"out": np.asarray(out.asnumpy())}
        if self.direction == TRAIN:
            for m in w.opt.moments:
                arrays["grad:" + m.name[len("moments."):]] = m.asnumpy()
            for p in w.net.get_parameters():
                if not p.requires_grad:
                    arrays["state:" + p.name] = p.asnumpy()
        return arrays

    def counters(self):
        if not self.variant.enable_jit:
            return None
        return self.fn.stats.as_dict()


class JaxRunner:
    def __init__(self, variant, workload, direction):
        self.variant, self.workload, self.direction = variant, workload, direction
        weights, trainable = workload.weights(), set(workload.trainable_names())
        self.params0 = {k: v for k, v in weights.items() if k in trainable}
        self.state0 = {k: v for k, v in weights.items() if k not in trainable}
        self.x, self.y = jnp.asarray(workload.x), jnp.asarray(workload.y)
        if direction == FORWARD:
            self.fn = jax.jit(zoo_jax.forward_fn(workload.model))
        else:
            self.fn = jax.jit(zoo_jax.train_step(workload.model), donate_argnums=(0, 1, 2))
        self._fresh()

    def _fresh(self):
        self.params = {k: jnp.array(v) for k, v in self.params0.items()}
        self.state = {k: jnp.array(v) for k, v in self.state0.items()}
        self.moments = {k: jnp.zeros_like(v) for k, v in self.params.items()}

    def call(self):
        if self.direction == FORWARD:
            return self.fn(self.params, self.state, self.x)
        loss, self.params, self.state, self.moments = self.fn(
            self.params, self.state, self.moments, self.x, self.y)
        return loss

    def updated(self):
        return (self.params, self.state, self.moments) if self.direction == TRAIN else ()

    def prepare(self):
        return _timed(self.call, 1, self.updated)

    def block(self, n):
        return _timed(self.call, n, self.updated)

    def check(self):
        self._fresh()
        arrays = {"out": np.asarray(_sync(self.call()))}
        if self.direction == TRAIN:
            arrays.update({"grad:" + k: np.asarray(v) for k, v in self.moments.items()})
            arrays.update({"state:" + k: np.asarray(v) for k, v in self.state.items()})
        return arrays

    def counters(self):
        return {"compiles": self.fn._cache_size()}


class TorchWorker:
    """One ``zoo_torch.py`` process; its runners live there."""

    def __init__(self, python, tmpdir, device="cpu"):
        here = os.path.dirname(os.path.abspath(__file__))
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        # a cache of its own: Inductor's on-disk cache would make a later compile warm
        env["TORCHINDUCTOR_CACHE_DIR"] = tempfile.mkdtemp(prefix="inductor-", dir=tmpdir)
        # OpenMP threads that spin while waiting for a peer thread the OS has descheduled
        # cost torch 2-5x on a shared machine; passive waiting is what it gets alone
        env.setdefault("OMP_WAIT_POLICY", "PASSIVE")
        self.proc = subprocess.Popen([python, os.path.join(here, "zoo_torch.py")],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                     env=env)
        self.tmpdir, self.device = tmpdir, device
        self.ids = 0

    def ask(self, **cmd):
        self.proc.stdin.write(json.dumps(cmd) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the torch worker died (command {cmd['cmd']})")
        return json.loads(line)

    def close(self):
        self.proc.stdin.close()
        self.proc.wait(timeout=60)


class TorchRunner:
    def __init__(self, variant, workload, direction, worker):
        self.variant, self.worker = variant, worker
        worker.ids += 1
        self.id = worker.ids
        base = os.path.join(worker.tmpdir, f"{workload.model}-{direction}")
        if not os.path.exists(base + ".weights.npz"):
            np.savez(base + ".weights.npz", **workload.weights())
            np.savez(base + ".inputs.npz", x=workload.x, y=workload.y)
        worker.ask(cmd="build", id=self.id, model=workload.model, direction=direction,
                   compile=variant.kind == "torch.compile", weights=base + ".weights.npz",
                   inputs=base + ".inputs.npz", device=worker.device,
                   layers=workload.config.get("layers"),
                   blocks=workload.config.get("blocks"))
        self.out = f"{base}.{self.id}.out.npz"

    def prepare(self):
        answer = self.worker.ask(cmd="prepare", id=self.id)
        return answer["wall"], answer["cpu"]

    def block(self, n):
        answer = self.worker.ask(cmd="block", id=self.id, n=n)
        return answer["wall"], answer["cpu"]

    def check(self):
        self.worker.ask(cmd="check", id=self.id, out=self.out)
        return dict(np.load(self.out))

    def counters(self):
        return None


def build(variant, workload, direction, worker=None):
    if variant.kind == "msxla":
        return MsxlaRunner(variant, workload, direction)
    if variant.kind == "jax.jit":
        return JaxRunner(variant, workload, direction)
    return TorchRunner(variant, workload, direction, worker)


def max_relative_error(arrays, reference, floor=1e-3):
    """max over the reference's arrays of max|a - r| / scale (inf if one is missing).

    An array's scale is its largest magnitude, but at least ``floor`` times the largest
    of its kind (``out``, ``grad:``, ``state:``): some gradients and statistics are zero
    but for rounding (a BatchNorm's beta feeding another BatchNorm, an attention key's
    bias), and their rounding noise says nothing."""
    def kind(key):
        return key.split(":")[0]
    largest = {}
    for key, r in reference.items():
        largest[kind(key)] = max(largest.get(kind(key), 0.0), float(np.max(np.abs(r))))
    worst = 0.0
    for key, r in reference.items():
        a = arrays.get(key)
        if a is None or a.shape != r.shape:
            return float("inf")
        scale = max(float(np.max(np.abs(r))), floor * largest[kind(key)], 1e-30)
        worst = max(worst, float(np.max(np.abs(a.astype(np.float64) - r))) / scale)
    return worst
