"""MindIR files MindSpore 2.10 exported, loaded and run by msxla.

The files (tests/mindir/data) and MindSpore's outputs on fixed inputs
(golden/mindir_load.json) come from tests/golden/make_mindir_load.py: an
MLP, LeNet5, ResNet BasicBlocks (Conv2d + BatchNorm in eval + ReLU, with and
without a downsampling shortcut), a mix of element-wise / reduction / shape /
matmul / softmax ops with a Parameter, several inputs and outputs,
AvgPool + LayerNorm + GELU, an Embedding classifier, and the single-op
cases of mindir_nets.OP_CASES (``op_*``).
"""
import json
import os

import numpy as np
import pytest

import msxla as ms
from msxla import nn

HERE = os.path.dirname(__file__)
DATA = os.path.join(HERE, "data")
GOLDEN = json.load(open(os.path.join(HERE, "..", "golden", "mindir_load.json")))["nets"]


def _inputs(case):
    return [ms.Tensor(np.asarray(i["value"], i["dtype"])) for i in case["inputs"]]


def _check(out, case):
    outs = list(out) if isinstance(out, tuple) else [out]
    assert isinstance(out, tuple) == case["tuple"]
    assert len(outs) == len(case["outputs"])
    for got, want in zip(outs, case["outputs"]):
        assert got.shape == tuple(want["shape"])
        assert str(got.asnumpy().dtype) == want["dtype"]
        want = np.asarray(want["value"], want["dtype"])
        # float32 rounding of a sum grows with the sum's terms, not with its
        # result: an output near 0 among outputs near 300 differs by ~1e-4
        scale = max(1.0, float(np.max(np.abs(want)))) if want.size else 1.0
        np.testing.assert_allclose(got.asnumpy(), want, rtol=2e-5, atol=2e-5 * scale)


def _load_and_run(name):
    case = GOLDEN[name]
    graph = ms.load(os.path.join(DATA, f"{name}.mindir"))
    net = nn.GraphCell(graph)
    _check(net(*_inputs(case)), case)


@pytest.mark.parametrize("name", sorted(n for n in GOLDEN if not n.startswith("op_")))
def test_loads_mindspore_network(name):
    _load_and_run(name)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(n for n in GOLDEN if n.startswith("op_")))
def test_loads_mindspore_ops(name):
    _load_and_run(name)


def test_graph_cell_parameters_and_params_init():
    graph = ms.load(os.path.join(DATA, "mlp.mindir"))
    net = nn.GraphCell(graph)
    names = sorted(net.parameters_dict())
    assert names == ["fc1.bias", "fc1.weight", "fc2.bias", "fc2.weight"]
    case = GOLDEN["mlp"]
    x = _inputs(case)[0]
    zero = ms.Tensor(np.zeros((10, 32), np.float32))
    out = nn.GraphCell(graph, params_init={"fc2.weight": zero, "unknown": zero})(x)
    # softmax(0 @ h + b2): the fc2 bias alone decides the output
    bias = net.parameters_dict()["fc2.bias"].asnumpy()
    want = np.exp(bias - bias.max()) / np.exp(bias - bias.max()).sum()
    np.testing.assert_allclose(out.asnumpy(), np.broadcast_to(want, (4, 10)), rtol=1e-5)


def test_graph_cell_inside_jit(mode):
    """A GraphCell called from a function run in PyNative or jitted (every capture mode)."""
    from modes import make
    case = GOLDEN["multi_io"]
    net = nn.GraphCell(ms.load(os.path.join(DATA, "multi_io.mindir")))

    def f(x, y, scale):
        h, s, positive = net(x, y, scale)
        return h * 2.0, s + positive.sum()

    h, s = make(f, mode)(*_inputs(case))
    want = [np.asarray(o["value"], np.float32) for o in case["outputs"]]
    np.testing.assert_allclose(h.asnumpy(), 2 * want[0], rtol=2e-5, atol=2e-5)
    np.testing.assert_allclose(s.asnumpy(), want[1] + want[2].sum(), rtol=2e-5, atol=2e-5)


def test_graph_cell_gradient():
    """grad through a loaded LeNet5 against central differences."""
    net = nn.GraphCell(ms.load(os.path.join(DATA, "lenet.mindir")))
    x = _inputs(GOLDEN["lenet"])[0]
    grad = ms.grad(lambda x: net(x).sum())(x)
    eps = 1e-2
    e = np.zeros(x.shape, np.float32)
    e[0, 0, 10, 10] = eps
    plus = net(ms.Tensor(x.asnumpy() + e)).asnumpy().sum()
    minus = net(ms.Tensor(x.asnumpy() - e)).asnumpy().sum()
    np.testing.assert_allclose(grad.asnumpy()[0, 0, 10, 10], (plus - minus) / (2 * eps),
                               rtol=2e-2, atol=2e-3)


def test_load_errors(tmp_path):
    with pytest.raises(ValueError, match="must be string"):
        ms.load(3)
    with pytest.raises(ValueError, match="should end with '.mindir'"):
        ms.load("net.ckpt")
    with pytest.raises(ValueError, match="does not exist"):
        ms.load(str(tmp_path / "missing.mindir"))
    with pytest.raises(TypeError, match="must be a FuncGraph"):
        nn.GraphCell("net.mindir")
    net = nn.GraphCell(ms.load(os.path.join(DATA, "mlp.mindir")))
    with pytest.raises(ValueError, match=r"input 0 must have the shape \(4, 16\)"):
        net(ms.Tensor(np.ones((2, 16), np.float32)))


def test_unknown_operator_is_named(tmp_path):
    model = ms.load_mindir(os.path.join(DATA, "mlp.mindir"))
    for p in model.primitives:
        if p.op_type == "ReLU":
            p.op_type = "NoSuchOp"
    path = str(tmp_path / "bad.mindir")
    with open(path, "wb") as f:
        f.write(model.SerializeToString())
    net = nn.GraphCell(ms.load(path))
    with pytest.raises(RuntimeError, match=r"MindIR operator 'NoSuchOp' \(node .*scope "
                                           r"Default/relu-ReLU/ReLU-op0\): msxla has no "
                                           r"such operator"):
        net(_inputs(GOLDEN["mlp"])[0])


def test_printed_graph():
    text = str(ms.load(os.path.join(DATA, "mlp.mindir")))
    assert "input x: float32[4, 16]" in text
    assert "param fc1.weight: float32[32, 16]" in text
    assert "= MatMul(" in text and "= Softmax(" in text
    assert "UpdateState" not in text  # bookkeeping nothing reads is dropped
