"""Write tests/golden/summary.json: what MindSpore 2.10's SummaryRecord and
SummaryCollector write, event by event.

    cd /tmp/some_dir && GLOG_v=3 ~/ms-oracle/bin/python /path/to/tests/golden/make_summary.py

Two runs, both with fixed inputs and weights stored in the JSON:
``collector``: ``Model.train`` (2 epochs of 4 steps, non-sink) with
``SummaryCollector(collect_freq=2)`` on a Dense network whose construct calls
ScalarSummary, HistogramSummary, TensorSummary and ImageSummary;
``record``: a SummaryRecord fed by ``add_value`` and by summary ops in
PyNative, recorded at steps 1..3, the third in eval mode.
Each event is listed as its step and values: (tag, kind, content) where
content is the scalar value, the tensor's shape and values, a histogram's
count/min/max/sum, or an image's height and width. The version event and the
lineage file (MindInsight's) are left out. File names are recorded as patterns.
"""
import glob
import json
import os
import re
import shutil
import struct

import numpy as np
import mindspore as ms
import mindspore.dataset as ds
from mindspore import Tensor, nn, ops
from mindspore.train import Model, SummaryCollector
from mindspore.train.summary import SummaryRecord
from mindspore.train.summary_pb2 import Event

rng = np.random.RandomState(0)
X = rng.randn(12, 4).astype(np.float32)
Y = rng.randn(12, 2).astype(np.float32)
W = rng.randn(2, 4).astype(np.float32)
B = rng.randn(2).astype(np.float32)
IMG = rng.rand(2, 3, 4, 5).astype(np.float32)


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(4, 2)
        self.fc.weight.set_data(Tensor(W))
        self.fc.bias.set_data(Tensor(B))
        self.scalar, self.hist = ops.ScalarSummary(), ops.HistogramSummary()
        self.tensor, self.image = ops.TensorSummary(), ops.ImageSummary()

    def construct(self, x):
        y = self.fc(x)
        self.scalar("ymean", y.mean())
        self.hist("y", y)
        self.tensor("y0", y[0])
        self.image("img", x.reshape(1, 1, 3, 4))
        return y


def events(path):
    out, data, pos = [], open(path, "rb").read(), 0
    while pos < len(data):
        (n,) = struct.unpack("<Q", data[pos:pos + 8])
        e = Event()
        e.ParseFromString(data[pos + 12:pos + 12 + n])
        pos += n + 16
        if e.WhichOneof("what") != "summary":
            continue
        values = []
        for v in e.summary.value:
            kind = v.WhichOneof("value")
            if kind == "scalar_value":
                values.append([v.tag, "scalar", float(v.scalar_value)])
            elif kind == "tensor":
                values.append([v.tag, "tensor", [list(v.tensor.dims),
                                                 [float(f) for f in v.tensor.float_data]]])
            elif kind == "histogram":
                h = v.histogram
                values.append([v.tag, "histogram", [h.count, h.min, h.max, h.sum]])
            elif kind == "image":
                values.append([v.tag, "image", [v.image.height, v.image.width]])
        out.append({"step": e.step, "values": values})
    return out


def summary_files(d):
    files = sorted(f for f in glob.glob(os.path.join(d, "*")) if os.path.isfile(f))
    return [f for f in files if f.endswith("_MS")], [
        re.sub(r"\.\d+\.\d+\.[^.]+(_MS|_lineage)$", r".<seconds>.<device>.<host>\1",
               os.path.basename(f)) for f in files]


def collector_run():
    d = "./summary_collector"
    shutil.rmtree(d, ignore_errors=True)
    data = ds.NumpySlicesDataset({"x": X, "y": Y}, shuffle=False).batch(3)
    net = Net()
    model = Model(net, nn.MSELoss(), nn.Momentum(net.trainable_params(), 0.1, 0.9))
    model.train(2, data, callbacks=[SummaryCollector(d, collect_freq=2)],
                dataset_sink_mode=False)
    ms_files, names = summary_files(d)
    return {"files": names, "events": events(ms_files[0])}


def record_run():
    d = "./summary_record"
    shutil.rmtree(d, ignore_errors=True)
    with SummaryRecord(d) as rec:
        rec.add_value("scalar", "lr", Tensor(np.float32(0.5)))
        rec.add_value("histogram", "w", Tensor(W))
        rec.add_value("tensor", "b", Tensor(B))
        rec.add_value("image", "pic", Tensor(IMG))
        rec.record(1)
        ops.ScalarSummary()("s", Tensor(np.float32(3.0)))
        ops.TensorSummary()("t", Tensor(B))
        rec.add_value("scalar", "lr", Tensor(np.float32(0.25)))
        rec.record(2)
        rec.set_mode("eval")
        ops.ScalarSummary()("s", Tensor(np.float32(4.0)))
        rec.add_value("scalar", "lr", Tensor(np.float32(0.125)))
        rec.record(3)
        log_dir = rec.log_dir
    errors = []
    for plugin, name, value in [("scalar", "x", Tensor(W)), ("image", "x", Tensor(W)),
                                ("histogram", "x", Tensor(np.float32(1))), ("foo", "x", Tensor(W)),
                                ("scalar", "", Tensor(W)), ("scalar", "x", 1.0)]:
        with SummaryRecord(d) as rec:
            try:
                rec.add_value(plugin, name, value)
                errors.append(None)
            except Exception as e:  # noqa: BLE001 - recorded
                errors.append([type(e).__name__, str(e)])
    ms_files, names = summary_files(d)
    return {"log_dir_name": os.path.basename(log_dir) == os.path.basename(ms_files[0]),
            "events": events(ms_files[0]), "add_value_errors": errors}


def main():
    out = {"inputs": {"x": X.tolist(), "y": Y.tolist(), "w": W.tolist(), "b": B.tolist(),
                      "img": IMG.tolist()},
           "collector": collector_run(), "record": record_run()}
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "summary.json")
    with open(path, "w") as f:
        json.dump(out, f)


if __name__ == "__main__":
    main()
