"""Real models give PyNative's results under jit, at O0 and at O1, in every capture mode.

The models are the benchmark's (``benchmarks/zoo_models.py``: LeNet-5, mindcv's
ResNet-18/50 and MobileNetV2, a BERT-like encoder), shallow (one block per
stage, one Transformer layer: every kind of block, at a fraction of the compile
time) and small. Compared: one train step (the loss, every gradient, read off
the Momentum buffers after one step from zero, and BatchNorm's new moving
statistics) from the same weights, and a forward pass in eval mode. The
benchmark's jax peer (``benchmarks/zoo_jax.py``) must compute the same train
step, so that ``real_models.py`` compares like with like (the benchmark checks
every model's peer again before timing it). Values only; speed is measured in
``benchmarks/``.

Every capture mode runs LeNet; the larger models run in ast mode (the capture
modes share everything after capture), their train step compiled at O1 and,
where O0 differs from O1 (on a GPU: op boundaries), at O0; marked slow
(minutes on a 2-core CPU).
"""
import os
import sys

import pytest

from modes import JIT_MODES

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "benchmarks"))

import zoo_runners as zr  # noqa: E402
from msxla.ops import _kernels  # noqa: E402

IMAGE = (3, 96, 96)   # BatchNorm statistics over >= 18 values everywhere: well conditioned
CONFIGS = {
    "lenet": {"batch": 8, "shape": (1, 32, 32), "classes": 10},
    "resnet18": {"batch": 2, "shape": IMAGE, "classes": 1000, "blocks": [1, 1, 1, 1]},
    "resnet50": {"batch": 2, "shape": IMAGE, "classes": 1000, "blocks": [1, 1, 1, 1]},
    "mobilenet_v2": {"batch": 2, "shape": IMAGE, "classes": 1000, "blocks": [1] * 7},
    "bert": {"batch": 2, "seq": 16, "layers": 1, "classes": 2},
}
TOLERANCE = {zr.FORWARD: 1e-4, zr.TRAIN: 1e-3}   # zoo_runners.max_relative_error


def _params():
    out = [pytest.param("lenet", mode, id=f"lenet-{mode}") for mode in JIT_MODES]
    for model in CONFIGS:
        if model != "lenet":
            out += [pytest.param(model, "ast-O1", id=f"{model}-ast-O1", marks=pytest.mark.slow),
                    pytest.param(model, "ast-O0", id=f"{model}-ast-O0", marks=[
                        pytest.mark.slow, pytest.mark.skipif(
                            not _kernels.kernels_kept(),
                            reason="on a CPU, O0 captures and compiles the O1 graph")])]
    return out


_CACHE = {}   # (model, direction) -> (workload, PyNative's arrays), built once per module


@pytest.fixture(scope="module", autouse=True)
def _release_models():
    yield
    _CACHE.clear()


def _workload(model, direction):
    if (model, direction) not in _CACHE:
        workload = zr.Workload(model, CONFIGS[model])
        workload.set_direction(direction)
        pynative = zr.MsxlaRunner(zr.Variant("PyNative", "msxla"), workload, direction)
        _CACHE[model, direction] = workload, pynative.check()
    return _CACHE[model, direction][0]


def _pynative(model, direction):
    _workload(model, direction)
    return _CACHE[model, direction][1]


def _assert_close(arrays, reference, tol, what):
    assert set(arrays) == set(reference), what
    err = zr.max_relative_error(arrays, reference)
    assert err <= tol, f"{what}: differs from PyNative by {err:.2e} (relative)"


@pytest.mark.parametrize("model, mode", _params())
def test_train_step_gives_pynative_results(model, mode):
    _check(model, mode, zr.TRAIN)


@pytest.mark.slow
@pytest.mark.parametrize("model", ["resnet18", "bert"])
def test_forward_gives_pynative_results(model):
    _check(model, "ast-O1", zr.FORWARD)


def _check(model, mode, direction):
    capture_mode, level = mode.split("-")
    variant = zr.Variant(f"{capture_mode} {level}", "msxla", capture_mode, level)
    workload = _workload(model, direction)
    runner = zr.MsxlaRunner(variant, workload, direction)
    _assert_close(runner.check(), _pynative(model, direction), TOLERANCE[direction],
                  f"{model} {direction} at {mode}")
    assert runner.counters()["compiles"] == 1


@pytest.mark.parametrize("model", [   # real_models.py checks all
    "lenet", pytest.param("resnet18", marks=pytest.mark.slow),
    pytest.param("bert", marks=pytest.mark.slow)])
def test_benchmark_jax_peer_computes_the_same_train_step(model):
    workload = _workload(model, zr.TRAIN)
    peer = zr.JaxRunner(zr.Variant("raw jax.jit", "jax.jit"), workload, zr.TRAIN).check()
    _assert_close(peer, _pynative(model, zr.TRAIN), TOLERANCE[zr.TRAIN], f"{model} jax peer")
