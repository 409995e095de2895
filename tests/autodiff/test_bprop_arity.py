"""A Cell's ``bprop`` that returns more gradients than ``construct`` has inputs: the
extra ones are ignored; fewer: RuntimeError (both as in MindSpore 2.10, PyNative and
GRAPH_MODE), in every capture mode."""
import pytest

import msxla as ms
from msxla import Tensor, nn, ops

from modes import make


class Extra(nn.Cell):
    def construct(self, x, y):
        return x * y * y

    def bprop(self, x, y, out, dout):
        return x + y, x * y, out, dout


class Few(nn.Cell):
    def construct(self, x, y):
        return x * y * y

    def bprop(self, x, y, out, dout):
        return (x + y,)


def grads(net, mode):
    return ops.GradOperation(get_all=True)(make(net, mode))(Tensor(1.0, ms.float32),
                                                            Tensor(2.0, ms.float32))


def test_extra_gradients_are_ignored(any_mode):
    gx, gy = grads(Extra(), any_mode)
    assert float(gx.asnumpy()) == 3.0 and float(gy.asnumpy()) == 2.0


def test_too_few_gradients(mode):
    with pytest.raises(RuntimeError, match="number of gradients"):
        grads(Few(), mode)
