"""Random transforms: their random choices stay in range, are reproducible
with the seed, and degenerate ranges give the deterministic transform."""
import numpy as np

import msxla.dataset as ds
import msxla.dataset.vision as V

IMG = np.random.default_rng(0).integers(0, 256, (20, 30, 3), dtype=np.uint8)


def test_random_crop_pad_if_needed_keeps_the_whole_image():
    flat = np.full((24, 32, 3), 77, np.uint8)
    for _ in range(5):
        out = V.RandomCrop((28, 36), pad_if_needed=True)(flat)
        assert out.shape == (28, 36, 3) and (out == 77).sum() == flat.size


def test_random_crop_is_a_window_of_the_image():
    out = V.RandomCrop((8, 9))(IMG)
    hits = [(t, l) for t in range(13) for l in range(22)
            if np.array_equal(IMG[t:t + 8, l:l + 9], out)]
    assert hits


def test_eager_random_transforms_follow_the_seed():
    ds.config.set_seed(4)
    a = [V.RandomResizedCrop(8)(IMG) for _ in range(3)]
    ds.config.set_seed(4)
    b = [V.RandomResizedCrop(8)(IMG) for _ in range(3)]
    for x, y in zip(a, b):
        np.testing.assert_array_equal(x, y)
    assert not np.array_equal(a[0], a[1])


def test_flips_happen_with_their_probability():
    ds.config.set_seed(1)
    flipped = sum(np.array_equal(V.RandomHorizontalFlip(0.3)(IMG), IMG[:, ::-1])
                  for _ in range(400))
    assert 80 < flipped < 160


def test_random_rotation_and_color_adjust_keep_shape_and_dtype():
    out = V.RandomRotation(40)(IMG)
    assert out.shape == IMG.shape and out.dtype == np.uint8
    out = V.RandomColorAdjust(0.4, 0.4, 0.4, 0.1)(IMG)
    assert out.shape == IMG.shape and out.dtype == np.uint8


def test_random_resized_crop_scale_and_ratio():
    ds.config.set_seed(9)
    # the whole image at its own aspect ratio is the only admissible box
    out = V.RandomResizedCrop((10, 15), scale=(1.0, 1.0), ratio=(1.5, 1.5))(IMG)
    np.testing.assert_array_equal(out, V.Resize((10, 15))(IMG))


def test_random_crop_decode_resize_is_decode_then_random_resized_crop():
    png = V.encode_png(IMG)
    ds.config.set_seed(5)
    fused = [V.RandomCropDecodeResize((8, 6))(png) for _ in range(3)]
    ds.config.set_seed(5)
    apart = [V.RandomResizedCrop((8, 6))(V.Decode()(png)) for _ in range(3)]
    for x, y in zip(fused, apart):
        assert x.shape == (8, 6, 3) and x.dtype == np.uint8
        np.testing.assert_array_equal(x, y)
    ds.config.set_seed(5)
    np.testing.assert_array_equal(V.RandomCropDecodeResize((8, 6))(png.tobytes()), fused[0])


def test_random_crop_decode_resize_in_a_pipeline():
    png = V.encode_png(IMG)
    data = ds.NumpySlicesDataset({"image": [png, png]}, shuffle=False)
    data = data.map(V.RandomCropDecodeResize(12, scale=(1.0, 1.0), ratio=(1.5, 1.5)), "image")
    for row in data.create_dict_iterator(output_numpy=True):
        np.testing.assert_array_equal(row["image"], V.Resize((12, 12))(IMG))
