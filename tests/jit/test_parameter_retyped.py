"""Shared capture-mode suite: a Parameter whose dtype changes between calls
(``set_dtype``, as mixed-precision helpers do) is read at its new dtype by the
next jitted call, as in PyNative: the graph captured for the old dtype is
dropped and the function captured again, never rejected or run stale."""
import numpy as np

import msxla as ms
from msxla import Parameter, Tensor, nn
from modes import make


class Scale(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.array([1.1, 2.2, 3.3], np.float32)), name="w")

    def construct(self, x):
        self.w.add_(1)
        return x * self.w


def _run(fn_of):
    net = Scale()
    fn = fn_of(net)
    x = Tensor(np.array([1.0, 2.0, 3.0], np.float32))
    outs = [fn(x)]
    net.w.set_dtype(ms.float16)
    outs += [fn(x), fn(x)]
    net.w.set_dtype(ms.float64)
    outs.append(fn(x))
    return outs, net.w


def test_a_parameter_retyped_between_calls(jit_mode):
    expected, w_eager = _run(lambda net: net)
    got, w_jit = _run(lambda net: make(net, jit_mode))
    for e, g in zip(expected, got):
        assert g.dtype == e.dtype
        np.testing.assert_allclose(g.asnumpy(), e.asnumpy(), rtol=1e-3)
    assert w_jit.dtype == w_eager.dtype
    np.testing.assert_allclose(w_jit.asnumpy(), w_eager.asnumpy(), rtol=1e-3)
