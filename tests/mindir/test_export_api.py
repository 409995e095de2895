"""``export(..., file_format="MINDIR")``, ``load_mindir`` / ``save_mindir`` and their errors."""
import os

import numpy as np
import pytest

import msxla as ms
from msxla import nn, ops, Tensor
from msxla.mindir import MindIRExportError

HERE = os.path.dirname(__file__)


class Scale(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = ms.Parameter(Tensor(np.array([1.0, 2.0, 3.0], np.float32)), name="w")

    def construct(self, x):
        return x * self.w


def test_file_name_suffix_parameters_and_single_output(tmp_path):
    x = Tensor(np.ones((2, 3), np.float32))
    path = ms.export(Scale(), x, file_name=str(tmp_path / "scale"), file_format="MINDIR")
    assert path == str(tmp_path / "scale.mindir")
    again = ms.export(Scale(), x, file_name=path, file_format="MINDIR")  # overwrites
    assert again == path
    model = ms.load_mindir(path)
    assert [p.ref_key for p in model.graph.parameter] == ["w"]
    assert model.producer_name == "MindSpore" and model.model_version == "2.10.0"
    out = nn.GraphCell(ms.load(path))(x)
    assert isinstance(out, Tensor)  # one output, not a tuple
    np.testing.assert_array_equal(out.asnumpy(), np.tile([1.0, 2.0, 3.0], (2, 1)))


def test_export_a_function_and_shared_parameter_names(tmp_path):
    a = ms.Parameter(Tensor(np.full((2,), 2.0, np.float32)), name="p")
    b = ms.Parameter(Tensor(np.full((2,), 5.0, np.float32)), name="p")

    def f(x):
        return (x * a + b,)

    x = Tensor(np.array([1.0, -1.0], np.float32))
    path = ms.export(f, x, file_name=str(tmp_path / "f"), file_format="MINDIR")
    graph = ms.load(path)
    assert sorted(key for key, _ in graph.parameters.values()) == ["p", "p_1"]
    out = nn.GraphCell(graph)(x)
    assert isinstance(out, tuple) and len(out) == 1
    np.testing.assert_array_equal(out[0].asnumpy(), [7.0, 3.0])


def test_reexport_a_loaded_mindspore_file(tmp_path):
    """MindSpore's file -> msxla GraphCell -> msxla's MindIR -> msxla: the same outputs."""
    graph = ms.load(os.path.join(HERE, "data", "basic_block.mindir"))
    x = Tensor(np.random.default_rng(0).standard_normal((2, 8, 8, 8)).astype(np.float32))
    want = nn.GraphCell(graph)(x).asnumpy()
    path = ms.export(nn.GraphCell(graph), x, file_name=str(tmp_path / "again"),
                     file_format="MINDIR")
    again = ms.load(path)
    assert {key for key, _ in again.parameters.values()} == \
        {key for key, _ in graph.parameters.values()}
    np.testing.assert_allclose(nn.GraphCell(again)(x).asnumpy(), want, rtol=1e-5, atol=1e-5)


def test_custom_func_and_save_mindir(tmp_path):
    x = Tensor(np.ones((2, 3), np.float32))

    def tag(model):
        model.user_info["version"] = "v1"

    path = ms.export(Scale(), x, file_name=str(tmp_path / "s"), file_format="MINDIR",
                     custom_func=tag)
    model = ms.load_mindir(path)
    assert model.user_info["version"] == "v1"
    model.user_info["version"] = "v2"
    ms.save_mindir(model, str(tmp_path / "s2"))
    assert ms.load_mindir(str(tmp_path / "s2.mindir")).user_info["version"] == "v2"
    with pytest.raises(TypeError, match="must be ModelProto"):
        ms.save_mindir("model", str(tmp_path / "s3"))


def test_unsupported_op_names_the_users_line(tmp_path):
    def f(x):
        return ops.sort(x)[0] * 2  # the line the error names

    x = Tensor(np.ones((2, 3), np.float32))
    with pytest.raises(MindIRExportError) as info:
        ms.export(f, x, file_name=str(tmp_path / "f"), file_format="MINDIR")
    text = str(info.value)
    assert "'stablehlo.sort' has no MindSpore operator" in text
    assert "test_export_api.py" in text and "return ops.sort(x)[0] * 2" in text
    assert isinstance(info.value, RuntimeError)


def test_onnx_and_encryption_are_refused(tmp_path):
    x = Tensor(np.ones((2, 3), np.float32))
    with pytest.raises(NotImplementedError, match="cannot write ONNX files"):
        ms.export(Scale(), x, file_name=str(tmp_path / "n"), file_format="ONNX")
    with pytest.raises(NotImplementedError, match="encrypted MindIR"):
        ms.export(Scale(), x, file_name=str(tmp_path / "n"), file_format="MINDIR",
                  enc_key=b"0123456789abcdef")
