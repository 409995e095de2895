"""Cell buffers (``register_buffer``, ``_Buffer`` attributes, ``buffers``,
``named_buffers``, ``get_buffer``): names, order and errors as in MindSpore 2.10, and
the values read by ``construct`` in every mode, a changed buffer included."""
import numpy as np
import pytest

import msxla as ms
from msxla import Tensor, nn
from msxla.common.parameter import _Buffer

from modes import make


def t(*values):
    return Tensor(np.array(values, np.float32))


class Inner(nn.Cell):
    def __init__(self):
        super().__init__()
        self.b0 = _Buffer(t(1, 2, 3))
        self.register_buffer("b1", t(3, 4, 5))
        self.register_buffer("gone", None)
        self.register_buffer("scratch", t(0, 0, 0), persistent=False)
        self.w = ms.Parameter(t(10, 20, 30))

    def construct(self, x):
        return (x + self.b0) * self.b1 + self.w


class Outer(nn.Cell):
    def __init__(self):
        super().__init__()
        self.sub = Inner()
        self.register_buffer("c", t(6, 6, 6))

    def construct(self, x):
        return self.sub(x) + self.c


def test_listing_and_lookup():
    net = Outer()
    assert [k for k, _ in net.named_buffers()] == ["c", "sub.b0", "sub.b1", "sub.scratch"]
    assert [k for k, _ in net.named_buffers(prefix="p", recurse=False)] == ["p.c"]
    assert len(list(net.buffers())) == 4 and len(list(net.buffers(recurse=False))) == 1
    assert list(net.sub._buffers) == ["b0", "b1", "gone", "scratch"]
    assert net.sub._non_persistent_buffers_set == {"scratch"}
    assert [k for k, _ in net.parameters_and_names()] == ["sub.w"]
    np.testing.assert_array_equal(net.get_buffer("sub.b1").asnumpy(), [3, 4, 5])
    del net.sub.b0
    assert list(net.sub._buffers) == ["b1", "gone", "scratch"]


def test_errors():
    net = Inner()
    with pytest.raises(TypeError, match="buffer name should be a string"):
        net.register_buffer(2, t(1))
    with pytest.raises(KeyError, match='contain "."'):
        net.register_buffer("a.b", t(1))
    with pytest.raises(KeyError, match="attribute 'w' already exists"):
        net.register_buffer("w", t(1))
    with pytest.raises(TypeError, match="mindspore Tensor or None required"):
        net.b0 = 3
    with pytest.raises(AttributeError, match="has no attribute"):
        net.get_buffer("b5")
    with pytest.raises(AttributeError, match="`w` is not a buffer"):
        net.get_buffer("w")


def test_construct_reads_buffers(any_mode):
    net = Outer()
    run = make(net, any_mode)
    x = t(2, 2, 2)
    # ((2 + [1, 2, 3]) * [3, 4, 5] + [10, 20, 30]) + 6
    np.testing.assert_allclose(run(x).asnumpy(), [25, 42, 61])
    net.sub.b1 = _Buffer(t(1, 1, 1))
    np.testing.assert_allclose(run(x).asnumpy(), [19, 30, 41])
