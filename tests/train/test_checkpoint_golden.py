"""A checkpoint written by MindSpore 2.10 loads in msxla; msxla writes the same bytes.

``tests/golden/mindspore_net.ckpt`` and ``checkpoint.json`` come from
``tests/golden/make_checkpoint.py`` (dtypes float32/float16/bfloat16/float64,
int32/int64/uint8, bool, 0-d tensors, an append_dict with a string, CRC).
"""
import json
import os
import shutil
import sys

import numpy as np
import pytest

import msxla as ms

GOLDEN = os.path.join(os.path.dirname(__file__), "..", "golden")
sys.path.insert(0, GOLDEN)

import make_checkpoint as mc  # noqa: E402

with open(os.path.join(GOLDEN, "checkpoint.json")) as fh:
    DATA = json.load(fh)


def test_loads_every_entry_with_mindspore_dtype_shape_and_values():
    loaded = ms.load_checkpoint(mc.CKPT, crc_check=True)
    assert list(loaded) == DATA["order"]
    for name, want in DATA["entries"].items():
        got = mc.describe(loaded[name])
        assert got == want, name
        if not isinstance(loaded[name], str):
            assert isinstance(loaded[name], ms.Parameter) and loaded[name].name == name


def test_loaded_network_reproduces_mindspore_output():
    values = {k: np.zeros_like(v) for k, v in mc.make_values().items()}
    net = mc.make_net(ms, values)
    param_not_load, ckpt_not_load = ms.load_param_into_net(net, ms.load_checkpoint(mc.CKPT))
    assert param_not_load == []
    assert ckpt_not_load == ["epoch_num", "lr", "converged", "note"]
    out = net(ms.Tensor(np.asarray(DATA["input"], np.float32)))
    np.testing.assert_allclose(out.asnumpy(), np.asarray(DATA["output"]), rtol=1e-6, atol=1e-6)


def test_msxla_writes_byte_identical_file(tmp_path):
    net = mc.make_net(ms, mc.make_values())
    path = str(tmp_path / "net.ckpt")
    ms.save_checkpoint(net, path, append_dict=dict(mc.APPEND), crc_check=True)
    with open(path, "rb") as a, open(mc.CKPT, "rb") as b:
        assert a.read() == b.read()


def test_load_checkpoint_into_net_argument(tmp_path):
    net = mc.make_net(ms, {k: np.zeros_like(v) for k, v in mc.make_values().items()})
    path = str(tmp_path / "copy.ckpt")
    shutil.copyfile(mc.CKPT, path)
    ms.load_checkpoint(path, net=net, choice_func=lambda name: name.startswith("dense"))
    np.testing.assert_array_equal(net.entries[0].asnumpy(), mc.make_values()["dense.weight"])
    np.testing.assert_array_equal(net.entries[2].asnumpy(), 0)  # not chosen: unchanged


@pytest.mark.parametrize("kwargs,names", [
    ({"specify_prefix": "dense"}, ["dense.weight", "dense.bias"]),
    ({"filter_prefix": ["dense", "half", "bf16", "ids", "mask", "bytes", "temperature",
                        "epoch_num", "lr", "converged"]}, ["count", "note"]),
    ({"choice_func": lambda n: n in ("lr", "note")}, ["lr", "note"]),
])
def test_prefix_and_choice_filters(kwargs, names):
    assert list(ms.load_checkpoint(mc.CKPT, **kwargs)) == names
