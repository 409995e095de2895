"""The 1.x module paths real scripts still import: they work, and warn."""
import importlib
import sys

import numpy as np
import pytest

import msxla.dataset as ds
import msxla.dataset.vision as vision


@pytest.mark.parametrize("name", ["msxla.dataset.vision.c_transforms",
                                  "msxla.dataset.vision.py_transforms",
                                  "msxla.dataset.transforms.c_transforms",
                                  "msxla.dataset.transforms.py_transforms"])
def test_old_module_imports_with_a_deprecation_warning(name):
    sys.modules.pop(name, None)
    with pytest.warns(DeprecationWarning, match="1.x"):
        importlib.import_module(name)


def test_1x_pipeline_runs_like_2x():
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        import msxla.dataset.transforms.c_transforms as C
        import msxla.dataset.vision.c_transforms as CV
        import msxla.dataset.vision.py_transforms as PV
    img = np.random.default_rng(0).integers(0, 256, (8, 10, 3), dtype=np.uint8)
    old = [CV.Resize((4, 5)), CV.Rescale(1 / 255, 0), CV.HWC2CHW()]
    new = [vision.Resize((4, 5)), vision.Rescale(1 / 255, 0), vision.HWC2CHW()]
    a = ds.NumpySlicesDataset([img], ["x"], shuffle=False).map(old, ["x"])
    b = ds.NumpySlicesDataset([img], ["x"], shuffle=False).map(new, ["x"])
    np.testing.assert_array_equal(next(iter(a))[0].asnumpy(), next(iter(b))[0].asnumpy())
    label = C.TypeCast(np.int32)(np.array(3))
    assert label.dtype == np.int32
    # 1.x py_transforms: PIL decode, ToTensor (CHW float), Normalize on CHW
    chw = PV.ToTensor()(PV.ToPIL()(img))
    out = PV.Normalize([0.5, 0.5, 0.5], [0.25, 0.25, 0.25])(chw)
    np.testing.assert_allclose(out, (chw - 0.5) / 0.25, rtol=1e-6)
