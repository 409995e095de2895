"""Tensor construction, default dtypes, conversion and Parameter basics."""
import numpy as np
import pytest

import msxla as ms
from msxla import Parameter, ParameterTuple, Tensor


@pytest.mark.parametrize("data, dtype", [
    (1.0, ms.float32), (1, ms.int64), (True, ms.bool_), ([1.0, 2.0], ms.float32),
    ([1, 2], ms.int64), (np.array([1.0]), ms.float64), (np.array([1], np.int32), ms.int32),
    ((1, 2.0), ms.float32), ([[True, False]], ms.bool_),
])
def test_default_dtypes(data, dtype):
    assert Tensor(data).dtype is dtype


def test_explicit_dtype_casts():
    t = Tensor(np.arange(3), ms.float16)
    assert t.dtype is ms.float16
    np.testing.assert_array_equal(t.asnumpy(), np.arange(3).astype(np.float16))


def test_properties_and_conversion():
    t = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    assert t.shape == (2, 3) and t.ndim == 2 and t.size == 6 and t.itemsize == 4
    assert t.nbytes == 24 and t.strides == (12, 4)
    arr = t.asnumpy()
    arr[0, 0] = 100  # a writable copy: the Tensor is unchanged
    assert t.asnumpy()[0, 0] == 0
    assert Tensor(2.5).item() == 2.5 and float(Tensor(2.5)) == 2.5 and int(Tensor(3)) == 3
    assert t.tolist() == [[0, 1, 2], [3, 4, 5]]
    assert len(t) == 2
    np.testing.assert_array_equal(np.asarray(t), arr * 0 + np.arange(6).reshape(2, 3))


def test_bool_of_multi_element_tensor_raises():
    with pytest.raises(ValueError, match="ambiguous"):
        bool(Tensor([1.0, 2.0]))
    assert bool(Tensor([1.0])) is True


def test_bad_input_data():
    with pytest.raises(TypeError, match="not supported"):
        Tensor({"a": 1})
    with pytest.raises(TypeError):
        Tensor()


def test_dtype_objects_print_like_mindspore():
    assert repr(ms.float32) == "mindspore.float32" and str(ms.float32) == "Float32"
    assert str(ms.bfloat16) == "BFloat16" and repr(ms.bool_) == "mindspore.bool"
    assert ms.int is ms.int32 and ms.float is ms.float32
    assert ms.dtype_to_nptype(ms.float16) is np.float16


def test_parameter_value_semantics():
    p = Parameter(Tensor(np.ones(2, np.float32)), name="w")
    assert repr(p) == "Parameter (name=w, shape=(2,), dtype=Float32, requires_grad=True)"
    out = p * 3
    assert type(out) is Tensor
    p.set_data(Tensor(np.zeros(3, np.int32)))  # shape may change; dtype stays the Parameter's
    assert p.shape == (3,) and p.dtype is ms.float32
    c = p.clone()
    c.set_data(Tensor(np.ones(3, np.float32)))
    assert p.asnumpy().sum() == 0 and c.name == "w"


def test_parameter_default_names_are_unique():
    a, b = Parameter(Tensor(1.0)), Parameter(Tensor(1.0))
    assert a.name.startswith("Parameter#") and a.name != b.name


def test_parameter_tuple():
    pt = ParameterTuple((Parameter(Tensor(1.0), name="a"), Parameter(Tensor(2.0), name="b")))
    assert isinstance(pt, tuple) and [p.name for p in pt.clone("m")] == ["m.a", "m.b"]
    with pytest.raises(TypeError, match="ParameterTuple input should be 'Parameter'"):
        ParameterTuple((Tensor(1.0),))
