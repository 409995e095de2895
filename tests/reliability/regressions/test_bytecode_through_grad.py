"""Bytecode capture of calls through ``value_and_grad``: bugs the differential
check found (shrunk by hand), now fixed.

- a Cell reached through a ``value_and_grad`` closure is guarded (a changed
  attribute recaptures);
- Tensor control flow inside ``jit(value_and_grad(f))`` runs ``f`` in Python
  instead of raising;
- a dict argument handed on to ``value_and_grad`` is guarded by the signature,
  not by the ids of the Tensors in it, so calls hit the cache.
"""
import numpy as np

import msxla as ms
from msxla import Tensor, nn


def ones(*shape):
    return Tensor(np.ones(shape, np.float32))


class Scaled(nn.Cell):
    def __init__(self):
        super().__init__()
        self.k = 1.0

    def construct(self, x, c):
        return (x * self.k * c[0]).sum()


def test_bytecode_cell_attribute_through_value_and_grad():
    net = Scaled()
    grad_fn = ms.value_and_grad(net)

    def step(x, c):
        return grad_fn(x, c)
    fn = ms.jit(step, capture_mode="bytecode")
    c = (ones(2),)
    assert float(fn(ones(2), c)[0].asnumpy()) == 2.0
    net.k = 2.5
    assert float(fn(ones(2), c)[0].asnumpy()) == 5.0


def test_bytecode_jit_of_grad_with_a_tensor_condition():
    def f(x):
        if x.sum() > 0:
            return (x * 2).sum()
        return (x * 3).sum()
    fn = ms.jit(ms.value_and_grad(f), capture_mode="bytecode")
    loss, grad = fn(ones(2))
    assert float(loss.asnumpy()) == 4.0 and grad.asnumpy().tolist() == [2.0, 2.0]


def test_bytecode_dict_argument_through_value_and_grad_hits_the_cache():
    grad_fn = ms.value_and_grad(Scaled())

    def step(x, c):
        return grad_fn(x, c)
    fn = ms.jit(step, capture_mode="bytecode")
    for v in (1.0, 2.0, 3.0):
        loss, _ = fn(ones(2), {0: ones(2) * v})
        assert float(loss.asnumpy()) == 2 * v
    assert fn.stats.captures == 1
