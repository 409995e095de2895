"""The ImageFolder pipeline of ``dataset_pipeline.py``, written against MindSpore's API.

Both frameworks import this file (msxla in ``dataset_pipeline.py``, MindSpore 2.10
in ``mindspore_dataset_pipeline.py``), so the pipeline is the same code::

    ImageFolderDataset(root, num_parallel_workers=w, shuffle=True)
      .map([Decode(), RandomResizedCrop(224), RandomHorizontalFlip(),
            Normalize(mean, std), HWC2CHW()], "image", num_parallel_workers=w)
      .batch(32, drop_remainder=True)

``make_image_folder`` writes the data: ``CLASSES`` folders of ``PER_CLASS`` JPEG
photos-like images (smooth gradients with noise, 320x240, quality 90), fixed seed.
"""
from __future__ import annotations

import os
import time

import numpy as np

CLASSES, PER_CLASS, SIZE, BATCH, CROP = 8, 48, (320, 240), 32, 224
MEAN = [0.485 * 255, 0.456 * 255, 0.406 * 255]
STD = [0.229 * 255, 0.224 * 255, 0.225 * 255]


def make_image_folder(root):
    """Write the JPEG class folders under ``root`` (once); return ``root``."""
    from PIL import Image
    marker = os.path.join(root, ".complete")
    if os.path.exists(marker):
        return root
    rng = np.random.default_rng(0)
    w, h = SIZE
    yy, xx = np.mgrid[0:h, 0:w]
    for c in range(CLASSES):
        folder = os.path.join(root, f"class_{c:02d}")
        os.makedirs(folder, exist_ok=True)
        for i in range(PER_CLASS):
            base = rng.uniform(0, 255, 3)
            slope = rng.uniform(-0.5, 0.5, (2, 3))
            img = base + xx[..., None] * slope[0] + yy[..., None] * slope[1]
            img += rng.normal(0, 12, img.shape)
            img = np.clip(img, 0, 255).astype(np.uint8)
            Image.fromarray(img).save(os.path.join(folder, f"{i:03d}.jpg"), quality=90)
    open(marker, "w").close()
    return root


def transforms(vision):
    """The per-image transforms (``vision`` is ``mindspore.dataset.vision``)."""
    return [vision.Decode(), vision.RandomResizedCrop(CROP), vision.RandomHorizontalFlip(),
            vision.Normalize(MEAN, STD), vision.HWC2CHW()]


def pipeline(ds, vision, root, workers):
    data = ds.ImageFolderDataset(root, num_parallel_workers=workers, shuffle=True)
    data = data.map(transforms(vision), "image", num_parallel_workers=workers)
    return data.batch(BATCH, drop_remainder=True)


def images(batches):
    """Consume an iterator of (image, label) batches; the number of images."""
    n = 0
    for image, _ in batches:
        n += image.shape[0]
    return n


def timed(fn):
    """``(images, wall seconds, process CPU seconds)`` of ``fn()``."""
    w, c = time.perf_counter(), time.process_time()
    n = fn()
    return n, time.perf_counter() - w, time.process_time() - c


def best_of(variants, rounds):
    """Best images/s of each variant over interleaved rounds: ``{name: [wall, cpu]}``."""
    best = {name: [0.0, 0.0] for name in variants}
    names = list(variants)
    for r in range(rounds):
        for name in names[r % len(names):] + names[:r % len(names)]:
            n, wall, cpu = timed(variants[name])
            best[name][0] = max(best[name][0], n / wall)
            best[name][1] = max(best[name][1], n / cpu)
    return best
