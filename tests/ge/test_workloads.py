"""The seeds' benchmark workloads under backend="GE" equal XLA: a*b+c, a ResNet
BasicBlock and a Llama attention block, forward and forward+backward
(``value_and_grad`` w.r.t. the weights; BatchNorm's running statistics are
updated through Assign). Small shapes by default; the benchmark sizes
((2,64,32,32), (2,128,512)) are ``slow``."""
import os
import sys

import numpy as np
import pytest

import msxla as ms
from msxla import Tensor, ops
from msxla.jit.backend_ge import GeExecutable

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "benchmarks"))
import workloads as W  # noqa: E402


def _run(net, fn, args, backend):
    jitted = ms.jit(fn, backend=backend)
    out = jitted(*args)
    outs = out if isinstance(out, (tuple, list)) else (out,)
    flat = []
    for o in outs:
        flat.extend(o if isinstance(o, (tuple, list)) else [o])
    state = [p.asnumpy() for p in net.get_parameters()] if net is not None else []
    exes = [e.compiled for e in jitted.cache.entries.values()]
    assert isinstance(exes[0], GeExecutable) == (backend == "GE")
    return [o.asnumpy() for o in flat], state


def compare(net, fn, args, rtol=1e-4, atol=1e-5):
    """Run ``fn`` jitted on XLA, restore the Parameters, run it on GE; compare the
    outputs and the Parameters' values afterwards."""
    params = list(net.get_parameters()) if net is not None else []
    saved = [p.asnumpy().copy() for p in params]
    want, want_state = _run(net, fn, args, "")
    for p, v in zip(params, saved):
        p.set_data(Tensor(v))
    got, got_state = _run(net, fn, args, "GE")
    assert len(got) == len(want)
    for g, w in zip(got + got_state, want + want_state):
        assert g.shape == w.shape and g.dtype == w.dtype
        np.testing.assert_allclose(g, w, rtol=rtol, atol=atol)


def _forward_backward(net, x):
    """``value_and_grad`` of a random projection of the output. (A plain mean is
    nearly invariant to weights feeding a training-mode BatchNorm, so its
    gradients would be rounding noise and no comparison could hold.)"""
    shape = net(x).shape
    proj = Tensor(np.random.default_rng(7).standard_normal(shape).astype(np.float32))
    grad_fn = ms.value_and_grad(lambda x: ops.mean(net(x) * proj), None, net.trainable_params())
    return lambda x: grad_fn(x)


def test_simple_function():
    compare(None, W.simple_function, W.simple_inputs())


def _block(channels=8, shape=(2, 8, 8, 8)):
    ms.set_seed(0)
    net = W.BasicBlock(channels)
    net.set_train(True)
    x = Tensor(np.random.default_rng(0).standard_normal(shape).astype(np.float32))
    return net, x


def _attention(hidden=64, heads=4, seq=16):
    ms.set_seed(0)
    net = W.LlamaAttention(hidden, heads, seq)
    x = Tensor(np.random.default_rng(1).standard_normal((2, seq, hidden)).astype(np.float32))
    return net, x


def test_basic_block_forward():
    net, x = _block()
    compare(net, lambda x: net(x), [x])


def test_basic_block_forward_backward():
    net, x = _block()
    compare(net, _forward_backward(net, x), [x])


def test_basic_block_inference():
    net, x = _block()
    net.set_train(False)
    compare(net, lambda x: net(x), [x])


def test_attention_forward():
    net, x = _attention()
    compare(net, lambda x: net(x), [x])


def test_attention_forward_backward():
    net, x = _attention()
    compare(net, _forward_backward(net, x), [x])


@pytest.mark.slow
@pytest.mark.parametrize("name", ["basic_block", "attention"])
def test_benchmark_sizes(name):
    w = W.make_workload(name)
    if name == "basic_block":
        w.net.set_train(True)
    compare(w.net, w.forward, w.inputs, rtol=2e-4, atol=2e-5)
    compare(w.net, _forward_backward(w.net, *w.inputs), w.inputs, rtol=2e-4, atol=2e-5)
