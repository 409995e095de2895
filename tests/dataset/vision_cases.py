"""Transforms compared with MindSpore 2.10 on fixed images.

Each case: (expression building the transform from ``V`` = vision, ``T`` =
transforms, ``ms`` = the top-level module; input name; tolerance). Inputs
come from ``inputs()``; MindSpore's outputs are in
tests/golden/dataset_vision.json. Tolerance ``None`` means exact; otherwise
(max abs diff, mean abs diff) where resampling differs: MindSpore resamples
numpy images with OpenCV, msxla with Pillow (MindSpore's own PIL path).
"""
import io

import numpy as np

RESAMPLE = (40, 4.0)   # OpenCV vs Pillow bilinear/bicubic interpolation
COLOR = (3, 1.0)       # rounding of colour arithmetic
JPEG = (12, 1.5)       # libjpeg IDCT/upsampling variants

CASES = {
    "resize_hw": ("V.Resize((12, 16))", "smooth", RESAMPLE),
    "resize_short_side": ("V.Resize(10)", "smooth", RESAMPLE),
    "resize_up_nearest": ("V.Resize((30, 37), V.Inter.NEAREST)", "smooth", RESAMPLE),
    "resize_up_bilinear": ("V.Resize((40, 50))", "smooth", RESAMPLE),
    "resize_bicubic": ("V.Resize((18, 20), V.Inter.BICUBIC)", "smooth", RESAMPLE),
    "resize_float": ("V.Resize((12, 16))", "float", (12.0, 1.5)),
    "resize_gray": ("V.Resize((12, 16))", "gray", RESAMPLE),
    "resize_pil": ("V.Resize((12, 16))", "pil", None),
    "center_crop": ("V.CenterCrop((10, 12))", "smooth", None),
    "center_crop_odd": ("V.CenterCrop((7, 9))", "smooth", None),
    "center_crop_pads": ("V.CenterCrop((30, 35))", "smooth", None),
    "crop": ("V.Crop((2, 3), (10, 12))", "smooth", None),
    "resized_crop": ("V.ResizedCrop(2, 3, 10, 12, (8, 8))", "smooth", RESAMPLE),
    "pad_int": ("V.Pad(2)", "smooth", None),
    "pad_two": ("V.Pad((1, 3))", "smooth", None),
    "pad_four_fill": ("V.Pad((1, 2, 3, 4), fill_value=(10, 20, 30))", "smooth", None),
    "pad_edge": ("V.Pad(2, padding_mode=V.Border.EDGE)", "smooth", None),
    "pad_reflect": ("V.Pad(2, padding_mode=V.Border.REFLECT)", "smooth", None),
    "pad_symmetric": ("V.Pad(2, padding_mode=V.Border.SYMMETRIC)", "smooth", None),
    "hflip": ("V.HorizontalFlip()", "smooth", None),
    "vflip": ("V.VerticalFlip()", "smooth", None),
    "random_hflip_1": ("V.RandomHorizontalFlip(1.0)", "smooth", None),
    "random_vflip_1": ("V.RandomVerticalFlip(1.0)", "smooth", None),
    "random_hflip_0": ("V.RandomHorizontalFlip(0.0)", "smooth", None),
    "random_crop_full": ("V.RandomCrop((24, 32))", "smooth", None),
    "random_crop_padding": ("V.RandomCrop((28, 36), padding=2, fill_value=(1, 2, 3))", "smooth",
                            None),
    "random_resized_crop_full": (
        "V.RandomResizedCrop((12, 16), scale=(1.0, 1.0), ratio=(4 / 3, 4 / 3))", "smooth",
        RESAMPLE),
    "rotate_90_expand": ("V.Rotate(90, expand=True)", "smooth", None),
    "rotate_180": ("V.Rotate(180)", "smooth", None),
    "rotate_30": ("V.Rotate(30, resample=V.Inter.BILINEAR)", "smooth", (255, 12.0)),
    "random_rotation_fixed": ("V.RandomRotation((90, 90), expand=True)", "smooth", None),
    "hwc2chw": ("V.HWC2CHW()", "smooth", None),
    "hwc2chw_2d": ("V.HWC2CHW()", "gray", None),
    "normalize": ("V.Normalize([121.0, 115.0, 100.0], [70.0, 68.0, 71.0])", "smooth", 1e-5),
    "normalize_chw": ("V.Normalize([0.5, 0.4, 0.3], [0.2, 0.2, 0.2], is_hwc=False)",
                      "chw_float", 1e-5),
    "normalize_pad": ("V.NormalizePad([121.0, 115.0, 100.0], [70.0, 68.0, 71.0])", "smooth",
                      1e-5),
    "normalize_pad_f16": ("V.NormalizePad([1.0, 2.0, 3.0], [2.0, 2.0, 2.0], dtype='float16')",
                          "smooth", 1e-3),
    "rescale": ("V.Rescale(1.0 / 255.0, -0.5)", "smooth", 1e-6),
    "to_tensor": ("V.ToTensor()", "smooth", 1e-6),
    "to_tensor_gray": ("V.ToTensor()", "gray", 1e-6),
    "to_type": ("V.ToType(np.float16)", "smooth", None),
    "invert": ("V.Invert()", "smooth", None),
    "brightness": ("V.AdjustBrightness(1.5)", "smooth", COLOR),
    "contrast": ("V.AdjustContrast(0.4)", "smooth", COLOR),
    "saturation": ("V.AdjustSaturation(0.3)", "smooth", COLOR),
    "hue": ("V.AdjustHue(0.2)", "smooth", (16, 2.0)),  # OpenCV's H has 180 steps, Pillow's 256
    "color_adjust_brightness": ("V.RandomColorAdjust(brightness=(1.5, 1.5))", "smooth", COLOR),
    "color_adjust_contrast": ("V.RandomColorAdjust(contrast=(0.4, 0.4))", "smooth", COLOR),
    "color_adjust_saturation": ("V.RandomColorAdjust(saturation=(0.3, 0.3))", "smooth", COLOR),
    "brightness_pil": ("V.AdjustBrightness(1.5)", "pil", None),
    "contrast_pil": ("V.AdjustContrast(0.4)", "pil", None),
    "grayscale_pil": ("V.Grayscale()", "pil", None),
    "grayscale_pil_3": ("V.Grayscale(3)", "pil", None),
    "grayscale_numpy": ("V.Grayscale()", "smooth", None),
    "decode_png": ("V.Decode()", "png", None),
    "decode_jpeg": ("V.Decode()", "jpeg", JPEG),
    "decode_to_pil": ("V.Decode(to_pil=True)", "png", None),
    "decode_garbage": ("V.Decode()", "garbage", None),
    "decode_2d": ("V.Decode()", "smooth", None),
    "to_pil": ("V.ToPIL()", "smooth", None),
    "compose_chain": ("T.Compose([V.Decode(), V.CenterCrop(8), V.HWC2CHW()])", "png", None),
    "random_apply_1": ("T.RandomApply([V.HorizontalFlip()], prob=1.0)", "smooth", None),
    "random_choice_one": ("T.RandomChoice([V.VerticalFlip()])", "smooth", None),
    "random_order_one": ("T.RandomOrder([V.Invert()])", "smooth", None),
    "type_cast": ("T.TypeCast(ms.float16)", "labels", None),
    "one_hot": ("T.OneHot(5)", "labels", None),
    "one_hot_smooth": ("T.OneHot(5, 0.1)", "labels", 1e-6),
    "one_hot_smooth_scalar": ("T.OneHot(5, 0.1)", "label", 1e-6),
    "fill": ("T.Fill(7)", "labels", None),
    "fill_strings": ("T.Fill('x')", "strings", None),
    "duplicate": ("T.Duplicate()", "labels", None),
    "concatenate_dtype_mismatch": ("T.Concatenate(0, np.array([9, 9]), np.array([8]))", "labels",
                                   None),
    "concatenate": ("T.Concatenate(0, np.array([9, 9], np.int32), np.array([8], np.int32))",
                    "labels", None),
    "mask": ("T.Mask(T.Relational.GE, 2)", "labels", None),
    "mask_int": ("T.Mask(T.Relational.EQ, 3, ms.int32)", "labels", None),
    "slice_int": ("T.Slice(2)", "labels", None),
    "slice_list": ("T.Slice([0, 3, 4])", "labels", None),
    "slice_slice": ("T.Slice(slice(1, 5, 2))", "labels", None),
    "slice_2d": ("T.Slice(slice(0, 2), [1, 2])", "matrix", None),
    "pad_end": ("T.PadEnd([8], 5)", "labels", None),
    "pad_end_2d": ("T.PadEnd([3, 4])", "matrix", None),
    "pad_end_strings": ("T.PadEnd([4], 'z')", "strings", None),
    "unique_1d": ("T.Unique()", "repeats", None),
    "unique": ("T.Unique()", "repeats_2d", None),
}


# Cases where MindSpore 2.10 (CPU) returns a wrong result; msxla returns the
# documented one, which the test computes with numpy (see the README).
KNOWN_WRONG = {
    # the normalised values are laid out as <H, W, 3> and the zero channel appended
    # after them, then the buffer is read as <H, W, 4> (channels shifted per pixel)
    "normalize_pad": "layout",
    "normalize_pad_f16": "layout",
    # only the last label of a 1-D input is one-hot encoded; other rows are all
    # smoothing_rate / num_classes
    "one_hot_smooth": "rows",
}


def inputs():
    """The named inputs (numpy arrays; ``pil`` and ``png``/``jpeg`` are derived)."""
    from PIL import Image
    rng = np.random.default_rng(0)
    y, x = np.mgrid[0:24, 0:32]
    smooth = np.stack([y * 9 + x, x * 7 + 10, 255 - (x + y) * 4], axis=2)
    smooth = np.clip(smooth + rng.integers(0, 12, (24, 32, 3)), 0, 255).astype(np.uint8)
    out = {"smooth": smooth,
           "gray": smooth[:, :, 0].copy(),
           "float": smooth.astype(np.float32) / 3.0,
           "chw_float": (smooth.transpose(2, 0, 1) / 255.0).astype(np.float32),
           "flat": np.full((24, 32, 3), 77, np.uint8),
           "labels": np.array([0, 3, 1, 4, 2, 3], np.int32),
           "label": np.array(3),
           "strings": np.array(["a", "bb", "c"]),
           "matrix": np.arange(6, dtype=np.int64).reshape(2, 3),
           "repeats": np.array([5, 3, 5, 1, 3, 3, 9], np.int32),
           "repeats_2d": np.array([[5, 3, 5], [1, 3, 9]], np.int32),
           "garbage": np.frombuffer(b"certainly not an image", np.uint8)}
    for fmt in ("png", "jpeg"):
        buf = io.BytesIO()
        Image.fromarray(smooth).save(buf, format=fmt.upper(), **({"quality": 90}
                                                                   if fmt == "jpeg" else {}))
        out[fmt] = np.frombuffer(buf.getvalue(), np.uint8)
    return out


def run(V, T, ms, name, inputs_):
    """Apply case ``name``; the result as a list of numpy arrays, or the error type."""
    from PIL import Image
    expr, src, _ = CASES[name]
    op = eval(expr, {"V": V, "T": T, "ms": ms, "np": np})  # noqa: S307 - fixed expressions
    value = Image.fromarray(inputs_["smooth"]) if src == "pil" else inputs_[src]
    try:
        out = op(value)
    except Exception as e:  # noqa: BLE001
        return next(c.__name__ for c in type(e).__mro__ if c.__module__ == "builtins")
    outs = out if isinstance(out, tuple) else (out,)
    res = []
    for o in outs:
        if isinstance(o, Image.Image):
            res.append({"pil_mode": o.mode, "array": np.asarray(o)})
        else:
            res.append({"array": np.asarray(o)})
    return res
