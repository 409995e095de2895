"""mindspore.numpy.pad against numpy.pad in every mode (MindSpore 2.10 gives numpy's
results: checked with the oracle for constant, edge, reflect, symmetric, wrap,
maximum, mean and linear_ramp), eagerly and jitted; rand/randn/randint shapes,
dtypes and ranges."""
import numpy as np
import pytest

import msxla as ms
import msxla.numpy as mnp

X = np.arange(12, dtype=np.float32).reshape(3, 4) * 1.5 - 4
XI = np.array([[3, 1, 4, 1], [5, 9, 2, 6], [5, 3, 5, 8]], np.int32)

PADS = [
    dict(pad_width=1),
    dict(pad_width=((1, 0), (2, 1)), constant_values=5),
    dict(pad_width=((1, 2), (0, 3)), constant_values=((1, 2), (3, 4))),
    dict(pad_width=2, mode="edge"),
    dict(pad_width=((2, 1), (3, 3)), mode="reflect"),
    dict(pad_width=((1, 1), (2, 2)), mode="reflect", reflect_type="odd"),
    dict(pad_width=((2, 2), (5, 1)), mode="symmetric"),
    dict(pad_width=((0, 4), (2, 3)), mode="wrap"),
    dict(pad_width=1, mode="maximum"),
    dict(pad_width=((1, 1), (2, 0)), mode="minimum", stat_length=2),
    dict(pad_width=((1, 1), (0, 0)), mode="mean"),
    dict(pad_width=((2, 1), (1, 2)), mode="median"),
    dict(pad_width=((1, 2), (1, 1)), mode="linear_ramp", end_values=10),
    dict(pad_width=((1, 2), (3, 1)), mode="linear_ramp", end_values=((1, 2), (-3, 4))),
]


@pytest.mark.parametrize("kw", PADS, ids=lambda k: k.get("mode", "constant"))
@pytest.mark.parametrize("arr", [X, XI], ids=["float32", "int32"])
def test_pad_matches_numpy(kw, arr):
    want = np.pad(arr, **kw)
    got = mnp.pad(ms.Tensor(arr), **kw).asnumpy()
    assert got.dtype == want.dtype
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)


def test_pad_in_a_graph():
    f = ms.jit(lambda t: mnp.pad(t, ((1, 1), (2, 2)), mode="reflect") * 2)
    np.testing.assert_allclose(f(ms.Tensor(X)).asnumpy(), np.pad(X, ((1, 1), (2, 2)), "reflect")
                               * 2)


def test_pad_errors():
    with pytest.raises(NotImplementedError):
        mnp.pad(ms.Tensor(X), 1, mode="bogus")
    with pytest.raises(ValueError):
        mnp.pad(ms.Tensor(X), -1)


def test_random_creators():
    # MindSpore 2.10: float32 by default, *shape or a tuple, randint int32 of shape (1,)
    assert mnp.randn(2, 3).shape == (2, 3) and str(mnp.randn((2, 3)).dtype) == "Float32"
    assert str(mnp.rand(4, dtype=ms.float16).dtype) == "Float16"
    r = mnp.randint(5, 10, (200,)).asnumpy()
    assert r.dtype == np.int32 and r.min() >= 5 and r.max() < 10 and len(set(r)) == 5
    assert mnp.randint(5).shape == (1,)
    u = mnp.rand(1000).asnumpy()
    assert 0 <= u.min() and u.max() < 1 and abs(u.mean() - 0.5) < 0.05
    with pytest.raises(ValueError):
        mnp.randint(5, 3)
