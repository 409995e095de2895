"""``mindspore.common.api._pynative_executor.sync()``: MindSpore's tests call it to
wait for queued work before reading results and printed lines; after it, a
function's prints (in every capture mode) have appeared and its outputs are
ready. The module's public names stay MindSpore's (``jit`` is ``mindspore.jit``)."""
import numpy as np

import msxla as ms
from msxla.common import api
from msxla.common.api import _pynative_executor, jit, jit_class

from modes import make


def test_common_api_keeps_the_public_names():
    assert jit is ms.jit and jit_class is ms.jit_class
    assert api.jit is ms.jit


def test_sync_after_a_call_has_its_prints_and_values(mode, capsys):
    def f(x):
        y = x * 2
        print("doubled", y)
        return y + 1

    out = make(f, mode)(ms.Tensor(np.array([1.0, 2.5], np.float32)))
    _pynative_executor.sync()
    printed = capsys.readouterr().out
    assert "doubled" in printed and "5" in printed
    np.testing.assert_allclose(out.asnumpy(), [3.0, 6.0])


def test_sync_with_nothing_queued():
    _pynative_executor.sync()
    _pynative_executor.sync()
