"""``load_param_into_net`` with a checkpoint that lacks some of the net's Parameters:
MindSpore 2.10 loads the rest, warns with its two lines (the count, then the list of
names) and returns ``(param_not_load, ckpt_not_load)``; ``strict_load=True`` does not
retry names with the checkpoint's extra prefix removed, and missing names are still
only reported, not an error."""
import logging

import numpy as np

import msxla as ms
from msxla import Parameter, Tensor, nn


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(3, 2)
        self.head = nn.Dense(2, 1)

    def construct(self, x):
        return self.head(self.dense(x))


def _ckpt(names, value=1.0):
    return {n: Parameter(Tensor(np.full(s, value, np.float32)), name=n) for n, s in names.items()}


def test_missing_parameters_are_listed_warned_and_left_as_they_were(caplog):
    net = Net()
    head_w = net.head.weight.asnumpy().copy()
    ckpt = _ckpt({"dense.weight": (2, 3), "dense.bias": (2,), "unused": (4,)})
    with caplog.at_level(logging.WARNING, logger="msxla"):
        result = ms.load_param_into_net(net, ckpt)
    assert isinstance(result, tuple)
    param_not_load, ckpt_not_load = result
    assert param_not_load == ["head.weight", "head.bias"]
    assert ckpt_not_load == ["unused"]
    messages = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert ("For 'load_param_into_net', 2 parameters in the 'net' are not loaded, because they "
            "are not in the 'parameter_dict', please check whether the network structure is "
            "consistent when training and loading checkpoint.") in messages
    assert "['head.weight', 'head.bias'] are not loaded." in messages
    np.testing.assert_array_equal(net.dense.weight.asnumpy(), 1.0)
    np.testing.assert_array_equal(net.dense.bias.asnumpy(), 1.0)
    np.testing.assert_array_equal(net.head.weight.asnumpy(), head_w)


def test_nothing_missing_warns_nothing(caplog):
    net = Net()
    ckpt = _ckpt({"dense.weight": (2, 3), "dense.bias": (2,), "head.weight": (1, 2),
                  "head.bias": (1,)})
    with caplog.at_level(logging.WARNING, logger="msxla"):
        assert ms.load_param_into_net(net, ckpt) == ([], [])
    assert not [r for r in caplog.records if "not loaded" in r.getMessage()]


def test_strict_load_reports_missing_names_without_prefix_matching(caplog):
    ckpt = _ckpt({"backbone.dense.weight": (2, 3), "backbone.dense.bias": (2,),
                  "head.weight": (1, 2)}, value=2.0)
    net = Net()
    with caplog.at_level(logging.WARNING, logger="msxla"):
        param_not_load, ckpt_not_load = ms.load_param_into_net(net, ckpt, strict_load=True)
    assert param_not_load == ["dense.weight", "dense.bias", "head.bias"]
    assert ckpt_not_load == ["backbone.dense.weight", "backbone.dense.bias"]
    assert "3 parameters in the 'net' are not loaded" in caplog.text
    np.testing.assert_array_equal(net.head.weight.asnumpy(), 2.0)
    # without strict_load the extra prefix is removed and the dense layer loads too
    lenient = Net()
    param_not_load, _ = ms.load_param_into_net(lenient, ckpt)
    assert param_not_load == ["head.bias"]
    np.testing.assert_array_equal(lenient.dense.weight.asnumpy(), 2.0)
