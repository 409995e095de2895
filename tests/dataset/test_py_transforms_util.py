"""``dataset.vision.py_transforms_util``: the PIL helpers give Pillow's own results."""
import numpy as np
import pytest
from PIL import Image, ImageEnhance

from msxla.dataset.vision import Inter
from msxla.dataset.vision import py_transforms_util as util

IMG = Image.fromarray(np.random.default_rng(3).integers(0, 256, (6, 7, 3), dtype=np.uint8))


def test_helpers_match_pillow():
    assert util.is_pil(IMG) and not util.is_pil(np.asarray(IMG))
    assert util.is_numpy(np.asarray(IMG)) and not util.is_numpy(IMG)
    for fn, enhancer in ((util.adjust_brightness, ImageEnhance.Brightness),
                         (util.adjust_contrast, ImageEnhance.Contrast),
                         (util.adjust_saturation, ImageEnhance.Color)):
        np.testing.assert_array_equal(np.asarray(fn(IMG, 1.7)),
                                      np.asarray(enhancer(IMG).enhance(1.7)))
    np.testing.assert_array_equal(np.asarray(util.rotate(IMG, 90, Inter.NEAREST, True, None, 0)),
                                  np.asarray(IMG.rotate(90, Image.NEAREST, expand=True)))
    with pytest.raises(TypeError, match="PIL image"):
        util.adjust_brightness(np.asarray(IMG), 1.0)
