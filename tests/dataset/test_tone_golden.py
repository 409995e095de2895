"""AutoContrast, Equalize, Posterize, Solarize and their random forms against
MindSpore 2.10 (tests/golden/dataset_tone.json), on arrays and PIL images;
the random forms' draws stay in their ranges."""
import json
import os

import numpy as np
import pytest
from PIL import Image

import msxla.dataset as ds
import msxla.dataset.vision as V

GOLDEN = json.load(open(os.path.join(os.path.dirname(__file__), "..", "golden",
                                     "dataset_tone.json")))
IMAGES = {k: np.array(v, np.uint8) for k, v in GOLDEN["images"].items()}


@pytest.mark.parametrize("expr", sorted(GOLDEN["cases"]))
def test_matches_mindspore(expr):
    want = GOLDEN["cases"][expr]
    got = np.asarray(eval(expr, {"V": V, **IMAGES}))  # noqa: S307 - expressions from the golden
    assert str(got.dtype) == want["dtype"] and list(got.shape) == want["shape"]
    np.testing.assert_array_equal(got.ravel(), want["values"])


def test_pil_images_give_the_same_pixels():
    pil = Image.fromarray(IMAGES["rgb"])
    out = V.Equalize()(pil)
    assert isinstance(out, Image.Image)
    np.testing.assert_array_equal(np.asarray(out), V.Equalize()(IMAGES["rgb"]))


def test_random_forms_stay_in_range():
    ds.config.set_seed(3)
    img = IMAGES["rgb"]
    seen = set()
    for _ in range(30):
        out = V.RandomPosterize((2, 5))(img)
        bits = next(b for b in range(2, 6) if np.array_equal(out, V.Posterize(b)(img)))
        seen.add(bits)
    assert seen <= {2, 3, 4, 5} and len(seen) > 1
    flips = sum(not np.array_equal(V.RandomEqualize(0.5)(img), img) for _ in range(60))
    assert 15 < flips < 45


def test_argument_checks():
    with pytest.raises(ValueError):
        V.AutoContrast(cutoff=60)
    with pytest.raises(ValueError):
        V.Posterize(9)
    with pytest.raises(ValueError):
        V.Solarize((200, 100))
    with pytest.raises(RuntimeError):
        V.Equalize()(IMAGES["rgb"].astype(np.float32))
