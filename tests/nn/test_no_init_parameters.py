"""``nn.utils.no_init_parameters``: Parameters built inside it are marked
``init_param=False`` and take a checkpoint's values on ``load_checkpoint``."""
import numpy as np

import msxla as ms
from msxla import nn
from msxla.nn.utils import no_init_parameters


def test_marks_parameters_and_checkpoint_fills_them(tmp_path):
    ms.set_seed(3)
    src = nn.Dense(4, 3)
    path = str(tmp_path / "src.ckpt")
    ms.save_checkpoint(src, path)
    assert ms.Parameter.init_param is True
    with no_init_parameters():
        assert ms.Parameter.init_param is False
        net = nn.Dense(4, 3)
        assert net.weight.init_param is False
    assert ms.Parameter.init_param is True
    ms.load_checkpoint(path, net=net)
    net.init_parameters_data()
    np.testing.assert_array_equal(net.weight.asnumpy(), src.weight.asnumpy())
    x = np.random.default_rng(0).standard_normal((2, 4)).astype(np.float32)
    want = x @ src.weight.asnumpy().T + src.bias.asnumpy()
    np.testing.assert_allclose(net(ms.Tensor(x)).asnumpy(), want, rtol=1e-6, atol=1e-6)


def test_restores_flag_on_error():
    try:
        with no_init_parameters():
            raise KeyError("x")
    except KeyError:
        pass
    assert ms.Parameter.init_param is True


def test_paths():
    import msxla.nn.utils.init as init_mod
    assert ms.nn.no_init_parameters is no_init_parameters is init_mod.no_init_parameters
