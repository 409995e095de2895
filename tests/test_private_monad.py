"""``mindspore.common._monad``: ``U`` and ``IO`` are constants ``depend`` ignores, in
PyNative and in every capture mode (MindSpore's ut/python/fallback tests pass
``monad.U`` to ``F.depend`` inside a jitted function)."""
import copy
import pickle
import subprocess
import sys

import numpy as np

import msxla as ms
import msxla.common._monad as monad
from modes import make
from msxla import Tensor
from msxla._c_expression import IOMonad, UMonad
from msxla.ops import functional as F
from msxla.ops import operations as P


def test_monads_are_singletons_with_their_types():
    assert UMonad() is monad.U and IOMonad() is monad.IO
    assert monad.U is not monad.IO and monad.U != monad.IO
    assert str(monad.U) == "UMonad" and repr(monad.IO) == "IOMonad"
    assert monad.U.dtype is monad.UMonadType and str(monad.IOMonadType) == "IOMonad"
    assert copy.deepcopy(monad.U) is monad.U
    assert pickle.loads(pickle.dumps(monad.IO)) is monad.IO
    assert monad.is_monad(monad.U) and not monad.is_monad(Tensor(1.0))
    assert sorted(monad.__all__) == ["IO", "U"]


def _use_monad(x, y):
    res = P.Mul()(x, y)
    res = F.depend(res, monad.U)
    return F.depend(res * 2, monad.IO)


def test_depend_on_a_monad_returns_the_value(any_mode):
    x = Tensor(np.array([1.0, 2.0], np.float32))
    y = Tensor(np.array([3.0, -1.0], np.float32))
    fn = make(_use_monad, any_mode)
    for _ in range(2):
        out = fn(x, y)
        np.testing.assert_allclose(out.asnumpy(), [6.0, -4.0])
        assert out.dtype == ms.float32


def test_depend_on_a_monad_eagerly():
    out = _use_monad(Tensor(2.0, ms.float32), Tensor(3.0, ms.float32))
    assert float(out.asnumpy()) == 12.0


def test_mindspore_name_resolves_to_the_module():
    code = ("import msxla; msxla.alias_mindspore(quiet=True)\n"
            "import mindspore.common._monad as m, msxla.common._monad as x\n"
            "from mindspore.common._monad import U, IO\n"
            "assert m is x and U is x.U and IO is x.IO\n")
    subprocess.run([sys.executable, "-c", code], check=True)
