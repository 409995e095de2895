"""``mindspore.common.parameter``'s private helpers MindSpore's Cell and tests use:
``_is_parameter_generated`` tells a generated name (a Parameter made without one)
from one the user gave, and a Cell names an unnamed Parameter after its attribute,
or ``Parameter$<n>`` inside a ParameterTuple."""
import numpy as np
import pytest

import msxla as ms
from msxla import Tensor, nn
from msxla.common.parameter import (PARAMETER_NAME_DEFAULT, Parameter, ParameterTuple,
                                    _is_parameter_generated)


def test_generated_names_are_told_from_given_ones():
    unnamed = Parameter(Tensor([1.0]))
    named = Parameter(Tensor([1.0]), name="w")
    assert _is_parameter_generated(unnamed.name)
    assert not _is_parameter_generated(named.name)
    assert not _is_parameter_generated("Parameter")
    assert not _is_parameter_generated("Parameter$1")
    assert not _is_parameter_generated("Parameter#x")
    assert not _is_parameter_generated(None)
    assert PARAMETER_NAME_DEFAULT == "Parameter"
    assert unnamed.name != Parameter(Tensor([1.0])).name


def test_a_cell_names_generated_parameters_and_keeps_given_names():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.param_a = Parameter(Tensor([1], ms.float32), name="name_a")
            self.res1 = ParameterTuple((Parameter(Tensor([2], ms.float32)), self.param_a))
            self.param_b = Parameter(Tensor([3], ms.float32))

        def construct(self):
            return self.param_a + self.res1[0] + self.param_b

    net = Net()
    assert net.param_a.name == "name_a"
    assert net.res1[0].name == "Parameter$1" and net.res1[1].name == "name_a"
    assert net.param_b.name == "param_b"
    assert not _is_parameter_generated(net.res1[0].name)
    np.testing.assert_allclose(net().asnumpy(), [6.0])


def test_generated_names_in_a_parameter_tuple_count_up():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.t = ParameterTuple((Parameter(Tensor([2.0])), Parameter(Tensor([4.0]))))

    net = Net()
    assert [p.name for p in net.t] == ["Parameter$1", "Parameter$2"]


def test_same_given_name_in_a_parameter_tuple_is_refused():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.t = ParameterTuple((Parameter(Tensor([2.0]), name="name_a"),
                                     Parameter(Tensor([4.0]), name="name_a")))

    with pytest.raises(ValueError, match="its name 'name_a' already exists."):
        Net()
