"""save_checkpoint / load_checkpoint / load_param_into_net: round trips and loading rules."""
import logging
import os

import numpy as np
import pytest

import msxla as ms
from msxla import Parameter, Tensor, nn

RNG = np.random.default_rng(0)


class Holder(nn.Cell):
    """A Cell holding the given ``{name: Tensor}`` as Parameters."""

    def __init__(self, values):
        super().__init__()
        for i, (name, value) in enumerate(values.items()):
            self.insert_param_to_cell(f"p{i}", Parameter(value, name=name))


def all_dtypes():
    f = RNG.standard_normal
    return {
        "f32": Tensor(f((3, 4)).astype(np.float32)),
        "f16": Tensor(f((5,)).astype(np.float16)),
        "bf16": Tensor(f((2, 2)).astype(np.float32), ms.bfloat16),
        "f64": Tensor(f((2,))),
        "i8": Tensor(np.array([-128, 0, 127], np.int8)),
        "u8": Tensor(np.array([0, 200, 255], np.uint8)),
        "i16": Tensor(np.array([-3, 4], np.int16)),
        "u16": Tensor(np.array([65535], np.uint16)),
        "i32": Tensor(np.arange(4, dtype=np.int32)),
        "u32": Tensor(np.array([2**32 - 1], np.uint32)),
        "i64": Tensor(np.array([-(2**62), 2**62], np.int64)),
        "u64": Tensor(np.array([2**64 - 1], np.uint64)),
        "bool": Tensor(np.array([[True, False]])),
        "c64": Tensor(np.array([1 + 2j], np.complex64)),
        "scalar": Tensor(np.float32(2.5)),
        "int_scalar": Tensor(np.int64(-7)),
        "empty": Tensor(np.zeros((0, 3), np.float32)),
        "empty1d": Tensor(np.zeros((0,), np.float32)),
    }


def assert_same(got, want):
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(np.asarray(got.asnumpy()), np.asarray(want.asnumpy()))


def test_round_trip_every_dtype_and_rank(tmp_path):
    values = all_dtypes()
    path = str(tmp_path / "all.ckpt")
    ms.save_checkpoint(Holder(values), path)
    loaded = ms.load_checkpoint(path)
    assert list(loaded) == list(values)
    for name, value in values.items():
        assert isinstance(loaded[name], Parameter) and loaded[name].name == name
        assert_same(loaded[name], value)


def test_save_objects_list_dict_and_append_dict(tmp_path):
    a = Parameter(Tensor(np.ones((2,), np.float32)), name="a")
    b = Parameter(Tensor(np.zeros((1,), np.int32)), name="b")
    for i, obj in enumerate([[a, b], [{"name": "a", "data": a}, {"name": "b", "data": b}],
                             {"a": a, "b": np.zeros((1,), np.int32)}]):
        path = str(tmp_path / f"obj{i}.ckpt")
        ms.save_checkpoint(obj, path, append_dict={"epoch": 3, "lr": 0.5, "ok": True,
                                                    "name": "run-1", "t": Tensor([1, 2])})
        loaded = ms.load_checkpoint(path)
        assert list(loaded) == ["a", "b", "epoch", "lr", "ok", "name", "t"]
        assert_same(loaded["a"], a)
        assert loaded["epoch"].dtype == ms.int64 and loaded["epoch"].shape == ()
        assert loaded["lr"].dtype == ms.float32 and float(loaded["lr"].asnumpy()) == 0.5
        assert loaded["ok"].dtype == ms.bool_ and loaded["name"] == "run-1"
        assert_same(loaded["t"], Tensor([1, 2]))


def test_file_name_gets_extension_and_choice_func(tmp_path):
    net = Holder({"keep.w": Tensor(np.ones(2, np.float32)), "drop.w": Tensor(np.ones(2))})
    ms.save_checkpoint(net, str(tmp_path / "model"), choice_func=lambda n: n.startswith("keep"))
    assert os.path.exists(tmp_path / "model.ckpt")
    assert list(ms.load_checkpoint(str(tmp_path / "model.ckpt"))) == ["keep.w"]


def test_overwrite_and_snapshot_at_call_time(tmp_path):
    p = Parameter(Tensor(np.ones(3, np.float32)), name="p")
    path = str(tmp_path / "p.ckpt")
    ms.save_checkpoint([p], path)
    p.set_data(Tensor(np.full(3, 2.0, np.float32)))
    ms.save_checkpoint([p], path, async_save=True)
    p.set_data(Tensor(np.full(3, 3.0, np.float32)))  # after the call: not in the file
    np.testing.assert_array_equal(ms.load_checkpoint(path)["p"].asnumpy(), 2.0)
    fresh = str(tmp_path / "fresh.ckpt")
    ms.save_checkpoint([p], fresh, async_save="thread")
    np.testing.assert_array_equal(ms.load_checkpoint(fresh)["p"].asnumpy(), 3.0)
    assert [f for f in os.listdir(tmp_path) if f.endswith(".tmp")] == []


def test_load_param_into_net_reports_missing_and_extra(tmp_path, caplog):
    net = Holder({"w": Tensor(np.zeros(2, np.float32)), "b": Tensor(np.zeros(2, np.float32))})
    ckpt = {"w": Parameter(Tensor(np.ones(2, np.float32)), name="w"),
            "other": Parameter(Tensor(np.ones(1, np.float32)), name="other")}
    with caplog.at_level(logging.WARNING, logger="msxla"):
        param_not_load, ckpt_not_load = ms.load_param_into_net(net, ckpt)
    assert param_not_load == ["b"] and ckpt_not_load == ["other"]
    assert "['b'] are not loaded" in caplog.text
    np.testing.assert_array_equal(net.p0.asnumpy(), 1.0)


def test_load_param_into_net_shape_mismatch_names_the_parameter():
    net = Holder({"fc.weight": Tensor(np.zeros((2, 3), np.float32))})
    bad = {"fc.weight": Parameter(Tensor(np.ones((3, 2), np.float32)), name="fc.weight")}
    with pytest.raises(RuntimeError, match=r"For 'load_param_into_net', fc.weight in the argument "
                                           r"'net' should have the same shape as fc.weight"):
        ms.load_param_into_net(net, bad)
    squeezable = {"fc.weight": Parameter(Tensor(np.ones((2, 3, 1), np.float32)), name="x")}
    ms.load_param_into_net(net, squeezable)  # trailing size-1 dims are squeezed away
    assert net.p0.shape == (2, 3) and float(net.p0.asnumpy().sum()) == 6.0


def test_load_param_into_net_dtype_rules():
    net = Holder({"w": Tensor(np.zeros(2, np.float32))})
    half = {"w": Parameter(Tensor(np.ones(2, np.float16)), name="w")}
    ms.load_param_into_net(net, half)  # float -> float converts
    assert net.p0.dtype == ms.float32 and float(net.p0.asnumpy().sum()) == 2.0
    with pytest.raises(RuntimeError, match="should have the same type as w"):
        ms.load_param_into_net(net, half, strict_load=True)
    with pytest.raises(RuntimeError, match="should have the same type as w"):
        ms.load_param_into_net(net, {"w": Parameter(Tensor(np.ones(2, np.int32)), name="w")})


def test_load_param_into_net_strips_an_extra_prefix():
    net = Holder({"dense.w": Tensor(np.zeros(2, np.float32))})
    ckpt = {"network.dense.w": Parameter(Tensor(np.ones(2, np.float32)), name="x")}
    assert ms.load_param_into_net(net, ckpt) == ([], ["network.dense.w"])
    np.testing.assert_array_equal(net.p0.asnumpy(), 1.0)
    net2 = Holder({"dense.w": Tensor(np.zeros(2, np.float32))})
    assert ms.load_param_into_net(net2, ckpt, strict_load=True) == (["dense.w"],
                                                                    ["network.dense.w"])


def test_optimizer_state_round_trip_resumes_training(tmp_path):
    def build():
        w = Parameter(Tensor(np.linspace(-1, 1, 6, dtype=np.float32).reshape(2, 3)), name="w")
        return w, nn.Adam([w], learning_rate=0.05)

    grads = [Tensor(RNG.standard_normal((2, 3)).astype(np.float32)) for _ in range(4)]
    w, opt = build()
    for g in grads[:2]:
        opt((g,))
    path = str(tmp_path / "opt.ckpt")
    ms.save_checkpoint(opt, path)
    assert set(ms.load_checkpoint(path)) == {"global_step", "learning_rate", "w", "beta1_power",
                                             "beta2_power", "moment1.w", "moment2.w"}
    w2, opt2 = build()
    assert ms.load_param_into_net(opt2, ms.load_checkpoint(path)) == ([], [])
    for g in grads[2:]:
        opt((g,))
        opt2((g,))
    np.testing.assert_array_equal(w2.asnumpy(), w.asnumpy())
    assert int(opt2.global_step.asnumpy()[0]) == 4


def test_safetensors_round_trip(tmp_path):
    values = {k: v for k, v in all_dtypes().items() if k != "c64"}
    path = str(tmp_path / "all.safetensors")
    ms.save_checkpoint(Holder(values), path, format="safetensors", crc_check=True)
    loaded = ms.load_checkpoint(path, format="safetensors", crc_check=True)
    assert sorted(loaded) == sorted(values)
    for name, value in values.items():
        assert_same(loaded[name], value)
