"""Automatic mixed precision against MindSpore 2.10 (``tests/golden/make_amp.py``).

The input's 2**-11 parts survive float32 and vanish in float16 and every op's
exact result is an integer there, so comparing values tightly says which ops
ran in float16 at each level, not only which dtype came out.

msxla casts at Cell boundaries in PyNative and GRAPH_MODE alike, which is what
MindSpore's GRAPH_MODE does; both are checked against its GRAPH_MODE goldens.
(MindSpore's PyNative casts inside each op instead, so at O2 its float32
BatchNorm sees the network's original input rather than the float16 one.)
"""
import json
import os
import sys

import numpy as np
import pytest

import msxla as ms

GOLDEN = os.path.join(os.path.dirname(__file__), "..", "golden")
sys.path.insert(0, GOLDEN)

import make_amp  # noqa: E402

with open(os.path.join(GOLDEN, "amp.json")) as fh:
    DATA = json.load(fh)

# MindSpore's O1 rewrite also casts functional calls in a construct (ops.relu(x)); msxla
# casts Cells and Primitive attributes only, so that output stays float32 (a documented
# difference).
KNOWN = {("O1", "relu_functional"): "O0"}


def _compare(got, want, level, dtype):
    assert got.keys() == want.keys()
    for name, w in want.items():
        if (level, name) in KNOWN:
            w = DATA[f"{KNOWN[level, name]}_{dtype}_graph"]["outputs"][name]
        assert got[name]["dtype"] == w["dtype"], name
        np.testing.assert_allclose(got[name]["value"], w["value"], rtol=1e-5, err_msg=name)


@pytest.fixture(autouse=True)
def _pynative_after():
    yield
    ms.set_context(mode=ms.PYNATIVE_MODE)


@pytest.mark.parametrize("graph", [False, pytest.param(True, marks=pytest.mark.slow)],
                         ids=["pynative", "graph"])
@pytest.mark.parametrize("case", sorted(k[:-len("_graph")] for k in DATA if k.endswith("graph")))
def test_amp_level_matches_mindspore(case, graph):
    level, dtype = case.split("_")
    got = make_amp.run(ms, level, dtype, graph)
    want = DATA[f"{case}_graph"]
    _compare(got["outputs"], want["outputs"], level, dtype)
    if "inner" in want:
        _compare(got["inner"], want["inner"], level, dtype)


@pytest.mark.parametrize("level", ["O1", "O2", "O3", "auto"])
def test_bfloat16_casts_where_float16_does(level):
    """MindSpore's CPU build has no bfloat16 MatMul: msxla's bfloat16 level runs in the
    low precision exactly the ops float16 does (their values are bfloat16 numbers), and
    the others in float32 (their values keep the 2**-11 parts)."""
    import ml_dtypes
    got = make_amp.run(ms, level, "bfloat16")
    want = DATA[f"{level}_float16_graph"]
    fp32 = DATA["O0_float16_graph"]["outputs"]
    for part in ("outputs", "inner"):
        if part not in want:
            continue
        for name, w in want[part].items():
            if (level, name) in KNOWN:
                continue
            g = got[part][name]
            assert g["dtype"] == w["dtype"].replace("Float16", "BFloat16"), name
            value = np.asarray(g["value"], np.float32)
            if np.allclose(w["value"], fp32[name]["value"], rtol=1e-5):
                np.testing.assert_allclose(value, fp32[name]["value"], rtol=1e-5, err_msg=name)
            else:
                low = value.astype(ml_dtypes.bfloat16).astype(np.float32)
                np.testing.assert_array_equal(value, low, err_msg=name)
                np.testing.assert_allclose(value, w["value"], rtol=2e-2, atol=1e-2,
                                           err_msg=name)


def test_build_train_network_levels():
    net = make_amp.make_net(ms)
    loss = ms.nn.MSELoss()
    opt = ms.nn.Momentum(net.trainable_params(), 0.1, 0.9)
    o2 = ms.amp.build_train_network(net, opt, loss, level="O2")
    assert type(o2).__name__ == "TrainOneStepWithLossScaleCell"
    assert float(o2.scale_sense.asnumpy()) == 2 ** 24
    assert type(net.bn).__name__ == "_OutputTo16" and net.dense._mixed_precision_type == \
        ms.float16
    net = make_amp.make_net(ms)
    opt = ms.nn.Momentum(net.trainable_params(), 0.1, 0.9)
    o3 = ms.amp.build_train_network(net, opt, loss, level="O3")
    assert type(o3).__name__ == "TrainOneStepCell" and net.bn._mixed_precision_type == \
        ms.float16
    with pytest.raises(ValueError, match="Unsupported arg 'foo'"):
        ms.amp.build_train_network(net, opt, loss, level="O3", foo=1)
    with pytest.raises(ValueError):
        ms.amp.build_train_network(net, opt, loss, level="O4")
    assert ms.amp.get_white_list() == ms.train.amp.AMP_WHITE_LIST
    assert ms.nn.Dense in ms.amp.get_white_list() and ms.ops.MatMul in ms.amp.get_white_list()
    assert ms.amp.get_black_list() == [ms.nn.BatchNorm1d, ms.nn.BatchNorm2d, ms.nn.BatchNorm3d,
                                       ms.nn.LayerNorm]


def test_custom_mixed_precision_lists():
    net = ms.amp.custom_mixed_precision(make_amp.make_net(ms), white_list=[ms.nn.Dense])
    out = net(ms.Tensor(make_amp.make_input()))
    want = DATA["O1_float16_graph"]["outputs"]
    np.testing.assert_allclose(out[0].asnumpy(), want["dense"]["value"])  # dense in float16
    np.testing.assert_allclose(out[1].asnumpy(), DATA["O0_float16_graph"]["outputs"]["relu_prim"][
        "value"])  # ReLU not listed: float32
    with pytest.raises(ValueError, match="one of white_list and black_list"):
        ms.amp.custom_mixed_precision(net)
    with pytest.raises(TypeError, match="should be a class"):
        ms.amp.custom_mixed_precision(make_amp.make_net(ms), white_list=["Dense"])
