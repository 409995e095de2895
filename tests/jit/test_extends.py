"""``mindspore._extends``: ``cell_attr_register`` keeps a Cell working (its init
arguments recorded, its ``bprop`` used in every capture mode) and
``parse.compile_config`` keeps the switches set on it (defaults from ``MS_DEV_*``)."""
import numpy as np

import msxla as ms
from msxla import Parameter, Tensor, nn
from msxla._extends import cell_attr_register
from msxla._extends.parse import compile_config

from modes import make


class Scaled(nn.Cell):
    @cell_attr_register
    def __init__(self, scale=2.0):
        super().__init__()
        self.z = Parameter(Tensor(np.float32(scale)), name="z")

    def construct(self, x, y):
        return x * self.z * y

    def bprop(self, x, y, out, dout):
        return y, x


def test_cell_attr_register_records_arguments():
    net = Scaled(5.0)
    assert net.cell_init_args == "Scaled[5.0]"
    assert float(net.z.asnumpy()) == 5.0


def test_cell_attr_register_keeps_bprop(mode):
    net = Scaled()
    g = ms.grad(make(net, mode))(Tensor(np.float32(3)), Tensor(np.float32(4)))
    assert float(g.asnumpy()) == 4.0  # bprop's y, not the derivative z * y = 8


def test_compile_config_switches(monkeypatch):
    monkeypatch.delenv("MS_DEV_FOR_HALF_UNROLL", raising=False)
    assert compile_config.FOR_HALF_UNROLL == ""
    monkeypatch.setenv("MS_DEV_FOR_HALF_UNROLL", "1")
    assert compile_config.FOR_HALF_UNROLL == "1"
    monkeypatch.setattr(compile_config, "PRE_LIFT", 1, raising=False)
    assert compile_config.PRE_LIFT == 1
