"""msxla.export (mindspore.export): AIR through GE, STABLEHLO text, MindSpore's
argument checks; an exported AIR file runs on the reference executor and
matches the network."""
import os
import stat

import numpy as np
import pytest

import msxla as ms
from msxla import Tensor, ge, nn, ops
from msxla.ge.schema import pb


class Small(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3, has_bias=True, weight_init="normal")
        self.bn = nn.BatchNorm2d(4)
        self.dense = nn.Dense(4, 2)

    def construct(self, x):
        y = ops.relu(self.bn(self.conv(x)))
        return self.dense(ops.mean(y, axis=(2, 3)))


def test_export_air_runs_like_the_network(tmp_path):
    ms.set_seed(0)
    net = Small()
    net.set_train(False)
    x = Tensor(np.random.default_rng(0).standard_normal((2, 3, 6, 6)).astype(np.float32))
    path = ms.export(net, x, file_name=str(tmp_path / "small"), file_format="AIR")
    assert path == str(tmp_path / "small.air") and os.path.exists(path)
    assert not os.stat(path).st_mode & stat.S_IWUSR  # left read-only, as MindSpore does
    with open(path, "rb") as f:
        msg = pb.ModelDef.FromString(f.read())
    types = [o.type for o in msg.graph[0].op]
    assert types.count("Data") == 1 and "Variable" not in types and "Conv2D" in types
    model = ge.load_air(path)
    (out,), _ = model.run(x.asnumpy())
    np.testing.assert_allclose(out, net(x).asnumpy(), rtol=1e-5, atol=1e-5)
    # exporting again overwrites the read-only file
    ms.export(net, x, file_name=path, file_format="AIR")


def test_export_function_and_stablehlo(tmp_path):
    def f(a, b):
        return a * b + 1

    x = Tensor(np.ones((2, 3), np.float32))
    path = ms.export(f, x, x, file_name=str(tmp_path / "f"), file_format="STABLEHLO")
    assert path.endswith("f.mlir")
    text = open(path).read()
    assert "stablehlo.multiply" in text and "func.func public @main" in text
    air = ms.export(f, x, x, file_name=str(tmp_path / "f.air"), file_format="AIR")
    assert [n.type for n in ge.load_air(air).main.nodes].count("Data") == 2


def test_export_argument_errors(tmp_path):
    x = Tensor(np.ones((2, 3), np.float32))
    net = nn.Dense(3, 2)
    with pytest.raises(ValueError, match=r"For 'export', 'file_format' must be one of "
                       r"\['AIR', 'ONNX', 'MINDIR', 'STABLEHLO'\], but got air\."):
        ms.export(net, x, file_name="n", file_format="air")
    with pytest.raises(NotImplementedError, match="cannot write ONNX"):
        ms.export(net, x, file_name=str(tmp_path / "n"), file_format="ONNX")
    with pytest.raises(TypeError, match="The '3' must be string"):
        ms.export(net, x, file_name=3, file_format="AIR")
    with pytest.raises(TypeError, match="file_name"):
        ms.export(net, x, file_format="AIR")
