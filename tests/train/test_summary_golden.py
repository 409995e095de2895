"""SummaryRecord, SummaryCollector and the summary ops against MindSpore 2.10
(tests/golden/make_summary.py): the same events (steps, tags, kinds, values)
in a file TensorBoard reads, named as MindSpore names it."""
import glob
import json
import os
import re

import numpy as np
import pytest

import msxla.dataset as ds
from msxla import Tensor, nn, ops
from msxla.train import Model, SummaryCollector
from msxla.train.summary import SummaryRecord
from msxla.train.summary._event_file import read_events
from modes import make

GOLDEN = json.load(open(os.path.join(os.path.dirname(__file__), "..", "golden", "summary.json")))
INPUTS = {k: np.array(v, np.float32) for k, v in GOLDEN["inputs"].items()}


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(4, 2)
        self.fc.weight.set_data(Tensor(INPUTS["w"]))
        self.fc.bias.set_data(Tensor(INPUTS["b"]))
        self.scalar, self.hist = ops.ScalarSummary(), ops.HistogramSummary()
        self.tensor, self.image = ops.TensorSummary(), ops.ImageSummary()

    def construct(self, x):
        y = self.fc(x)
        self.scalar("ymean", y.mean())
        self.hist("y", y)
        self.tensor("y0", y[0])
        self.image("img", x.reshape(1, 1, 3, 4))
        return y


def _events(path):
    out = []
    for e in read_events(path):
        if not e.HasField("summary"):
            assert e.file_version == "brain.Event:2"
            continue
        values = []
        for v in e.summary.value:
            kind = v.WhichOneof("value")
            if kind == "simple_value":
                values.append([v.tag, "scalar", v.simple_value])
            elif kind == "tensor":
                array = np.frombuffer(v.tensor.tensor_content, np.float32)
                values.append([v.tag, "tensor", [[d.size for d in v.tensor.tensor_shape.dim],
                                                 array.tolist()]])
            elif kind == "histo":
                h = v.histo
                values.append([v.tag, "histogram", [h.num, h.min, h.max, h.sum]])
                assert sum(h.bucket) == h.num
            elif kind == "image":
                values.append([v.tag, "image", [v.image.height, v.image.width]])
        out.append({"step": e.step, "values": values})
    return out


def _same(got, want):
    assert [e["step"] for e in got] == [e["step"] for e in want]
    for g, w in zip(got, want):
        assert [v[:2] for v in g["values"]] == [v[:2] for v in w["values"]], g["step"]
        for gv, wv in zip(g["values"], w["values"]):
            if gv[1] == "tensor":
                assert gv[2][0] == wv[2][0]
                np.testing.assert_allclose(gv[2][1], wv[2][1], rtol=1e-5, atol=1e-6)
            else:
                np.testing.assert_allclose(np.array(gv[2], float), np.array(wv[2], float),
                                           rtol=1e-4, atol=1e-5, err_msg=f"{g['step']} {gv[0]}")


def _names(d):
    return sorted(re.sub(r"\.\d+\.\d+\.[^.]+(_MS|_lineage)$", r".<seconds>.<device>.<host>\1",
                         os.path.basename(f)) for f in glob.glob(os.path.join(d, "*"))
                  if os.path.isfile(f))


def test_collector_writes_what_mindspore_writes(tmp_path):
    want = GOLDEN["collector"]
    data = ds.NumpySlicesDataset({"x": INPUTS["x"], "y": INPUTS["y"]}, shuffle=False).batch(3)
    net = Net()
    model = Model(net, nn.MSELoss(), nn.Momentum(net.trainable_params(), 0.1, 0.9))
    d = str(tmp_path / "collector")
    model.train(2, data, callbacks=[SummaryCollector(d, collect_freq=2)],
                dataset_sink_mode=False)
    names = _names(d)
    assert names == [n for n in want["files"] if n.endswith("_MS")]  # no lineage file here
    _same(_events(glob.glob(os.path.join(d, "*_MS"))[0]), want["events"])


def test_record_add_value_and_ops(tmp_path):
    want = GOLDEN["record"]
    d = str(tmp_path / "record")
    with SummaryRecord(d) as rec:
        rec.add_value("scalar", "lr", Tensor(np.float32(0.5)))
        rec.add_value("histogram", "w", Tensor(INPUTS["w"]))
        rec.add_value("tensor", "b", Tensor(INPUTS["b"]))
        rec.add_value("image", "pic", Tensor(INPUTS["img"]))
        assert rec.record(1) is True
        ops.ScalarSummary()("s", Tensor(np.float32(3.0)))
        ops.TensorSummary()("t", Tensor(INPUTS["b"]))
        rec.add_value("scalar", "lr", Tensor(np.float32(0.25)))
        rec.record(2)
        rec.set_mode("eval")
        ops.ScalarSummary()("s", Tensor(np.float32(4.0)))
        rec.add_value("scalar", "lr", Tensor(np.float32(0.125)))
        rec.record(3)
        log_dir = rec.log_dir
    assert os.path.dirname(log_dir) == os.path.realpath(d)
    assert rec.record(4) is False  # closed
    _same(_events(log_dir), want["events"])


def test_add_value_errors(tmp_path):
    cases = [("scalar", "x", Tensor(INPUTS["w"])), ("image", "x", Tensor(INPUTS["w"])),
             ("histogram", "x", Tensor(np.float32(1))), ("foo", "x", Tensor(INPUTS["w"])),
             ("scalar", "", Tensor(INPUTS["w"])), ("scalar", "x", 1.0)]
    with SummaryRecord(str(tmp_path)) as rec:
        for (plugin, name, value), want in zip(cases, GOLDEN["record"]["add_value_errors"]):
            with pytest.raises({"ValueError": ValueError, "TypeError": TypeError}[want[0]]) as err:
                rec.add_value(plugin, name, value)
            assert str(err.value) == want[1]


def test_one_record_at_a_time(tmp_path):
    with SummaryRecord(str(tmp_path)):
        with pytest.raises(RuntimeError, match="only one instance"):
            SummaryRecord(str(tmp_path))
    SummaryRecord(str(tmp_path)).close()


def _step(x):
    ops.ScalarSummary()("total", x.sum())
    ops.HistogramSummary()("x", x * 2)
    return x + 1


def test_summary_ops_in_jit_deliver_each_call(tmp_path, jit_mode):
    fn = make(_step, jit_mode)
    with SummaryRecord(str(tmp_path)) as rec:
        for i in range(3):
            fn(Tensor(np.full(3, i, np.float32)))
            rec.record(i + 1)
        path = rec.log_dir
    events = _events(path)
    assert [e["step"] for e in events] == [1, 2, 3]
    for i, e in enumerate(events):
        assert e["values"][0] == ["total", "scalar", pytest.approx(3.0 * i)]
        assert e["values"][1][:2] == ["x", "histogram"]
        assert e["values"][1][2][1:3] == [2.0 * i, 2.0 * i]


def test_summary_op_checks():
    with pytest.raises(TypeError, match="the name must be valid string"):
        ops.ScalarSummary()("", Tensor(np.float32(1)))
    with pytest.raises(ValueError, match="not to hold a valid image"):
        ops.ImageSummary()("i", Tensor(np.ones((2, 2), np.float32)))
