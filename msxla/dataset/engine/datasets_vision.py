"""Vision sources: ``MnistDataset``, ``Cifar10Dataset``, ``Cifar100Dataset``,
``ImageFolderDataset``. All are random-access (samplers, shards, parallel
reads); the binary formats are loaded into memory once, on first use.

Formats and MindSpore's conventions:

* MNIST: idx files ``{train,t10k}-{images-idx3,labels-idx1}-ubyte``; image
  <28, 28, 1> uint8, label uint32; ``usage="all"`` reads test then train (the
  files' name order, as MindSpore does).
* CIFAR-10: ``data_batch_*.bin`` / ``test_batch.bin``, records of 1 label byte
  + 3072 CHW bytes; image <32, 32, 3> uint8 HWC, label uint32.
* CIFAR-100: ``train.bin`` / ``test.bin``, records of coarse and fine label
  bytes + 3072; columns image, coarse_label, fine_label.
* ImageFolder: one folder per class (sorted names -> labels 0, 1, ...),
  files sorted by name; column image is the file's bytes (decoded RGB HWC with
  ``decode=True``), label int32.
"""
from __future__ import annotations

import glob
import os

import numpy as np

from msxla.dataset.engine._mappable import MappableDataset


def _check_dir(path):
    if not isinstance(path, str) or not os.path.isdir(path):
        raise ValueError(f"The folder {path} does not exist or is not a directory or "
                         f"permission denied!")
    return path


def _check_usage(usage, valid):
    if usage is None:
        return "all"
    if usage not in valid:
        raise ValueError(f"Input usage is not within the valid set of {list(valid)}.")
    return usage


class _InMemory(MappableDataset):
    """A source whose columns are loaded into arrays (one row = one index into each)."""

    def _load(self) -> tuple:
        raise NotImplementedError

    def _arrays(self):
        return self._load_once(self._load)

    def _num_rows(self):
        return len(self._arrays()[0])

    def _read(self, index):
        return tuple(np.asarray(a[index]) for a in self._arrays())


def _read_idx(path, magic):
    with open(path, "rb") as f:
        data = f.read()
    found = int.from_bytes(data[:4], "big")
    if found != magic:
        raise RuntimeError(f"Invalid MNIST file {path}: magic number {found}, expected {magic}.")
    ndim = data[3]
    dims = [int.from_bytes(data[4 + 4 * i:8 + 4 * i], "big") for i in range(ndim)]
    body = np.frombuffer(data, dtype=np.uint8, offset=4 + 4 * ndim)
    if body.size != int(np.prod(dims)):
        raise RuntimeError(f"Invalid MNIST file {path}: it holds {body.size} bytes of data, "
                           f"its header says {dims}.")
    return body.reshape(dims)


class MnistDataset(_InMemory):
    """MNIST idx files: columns image <28, 28, 1> uint8, label uint32."""

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None,
                 shuffle=None, sampler=None, num_shards=None, shard_id=None, cache=None):
        self.dataset_dir = _check_dir(dataset_dir)
        self.usage = _check_usage(usage, ("train", "test", "all"))
        super().__init__(num_parallel_workers, sampler, num_samples, shuffle, num_shards,
                         shard_id, cache)

    def _columns(self):
        return ["image", "label"]

    def _load(self):
        prefixes = {"train": ["train"], "test": ["t10k"], "all": ["t10k", "train"]}[self.usage]
        images, labels = [], []
        for p in prefixes:
            img = os.path.join(self.dataset_dir, f"{p}-images-idx3-ubyte")
            lab = os.path.join(self.dataset_dir, f"{p}-labels-idx1-ubyte")
            if not (os.path.exists(img) and os.path.exists(lab)):
                continue
            x, y = _read_idx(img, 2051), _read_idx(lab, 2049)
            if len(x) != len(y):
                raise RuntimeError(f"Invalid MNIST files: {img} has {len(x)} images but {lab} "
                                   f"has {len(y)} labels.")
            images.append(x[:, :, :, None])
            labels.append(y.astype(np.uint32))
        if not images:
            return np.zeros((0, 28, 28, 1), np.uint8), np.zeros((0,), np.uint32)
        return np.concatenate(images), np.concatenate(labels)


class _CifarBase(_InMemory):
    _label_bytes = 1
    _label_columns = ("label",)

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None,
                 shuffle=None, sampler=None, num_shards=None, shard_id=None, cache=None):
        self.dataset_dir = _check_dir(dataset_dir)
        self.usage = _check_usage(usage, ("train", "test", "all"))
        super().__init__(num_parallel_workers, sampler, num_samples, shuffle, num_shards,
                         shard_id, cache)

    def _columns(self):
        return ["image", *self._label_columns]

    def _files(self):
        raise NotImplementedError

    def _load(self):
        files = self._files()
        if not files:
            raise RuntimeError(f"Invalid file, no {type(self).__name__} files found in "
                               f"{self.dataset_dir} for usage '{self.usage}'.")
        width = self._label_bytes + 3072
        records = []
        for path in files:
            raw = np.fromfile(path, dtype=np.uint8)
            if raw.size % width:
                raise RuntimeError(f"Invalid cifar file, {path} is not made of whole "
                                   f"{width}-byte records.")
            records.append(raw.reshape(-1, width))
        return np.concatenate(records) if len(records) > 1 else records[0]

    def _num_rows(self):
        return len(self._arrays())

    def _read(self, index):
        rec = self._arrays()[index]
        image = rec[self._label_bytes:].reshape(3, 32, 32).transpose(1, 2, 0).copy()
        return (image, *(np.asarray(rec[i], dtype=np.uint32) for i in range(self._label_bytes)))


class Cifar10Dataset(_CifarBase):
    """CIFAR-10 binary files: columns image <32, 32, 3> uint8, label uint32."""

    def _files(self):
        train = sorted(glob.glob(os.path.join(self.dataset_dir, "data_batch_*.bin")))
        test = [p for p in [os.path.join(self.dataset_dir, "test_batch.bin")] if os.path.exists(p)]
        return {"train": train, "test": test, "all": train + test}[self.usage]


class Cifar100Dataset(_CifarBase):
    """CIFAR-100 binary files: columns image, coarse_label, fine_label (uint32)."""

    _label_bytes = 2
    _label_columns = ("coarse_label", "fine_label")

    def _files(self):
        pick = {"train": ["train.bin"], "test": ["test.bin"], "all": ["train.bin", "test.bin"]}
        paths = [os.path.join(self.dataset_dir, n) for n in pick[self.usage]]
        return [p for p in paths if os.path.exists(p)]


class ImageFolderDataset(MappableDataset):
    """One sub-folder per class: columns image (file bytes, or decoded with
    ``decode=True``) and label int32."""

    def __init__(self, dataset_dir, num_samples=None, num_parallel_workers=None, shuffle=None,
                 sampler=None, extensions=None, class_indexing=None, decode=False,
                 num_shards=None, shard_id=None, cache=None, decrypt=None):
        self.dataset_dir = _check_dir(dataset_dir)
        self.extensions = None if extensions is None else list(extensions)
        if class_indexing is not None and not isinstance(class_indexing, dict):
            raise TypeError("class_indexing should be a dict of {class name: label}.")
        self.class_indexing_arg = class_indexing
        self.decode, self.decrypt = decode, decrypt
        super().__init__(num_parallel_workers, sampler, num_samples, shuffle, num_shards,
                         shard_id, cache)

    def _columns(self):
        return ["image", "label"]

    def _classes(self):
        found = sorted(d for d in os.listdir(self.dataset_dir)
                       if os.path.isdir(os.path.join(self.dataset_dir, d)))
        if self.class_indexing_arg:
            chosen = [c for c in found if c in self.class_indexing_arg]
            return {c: int(self.class_indexing_arg[c]) for c in (chosen or found)
                    if c in self.class_indexing_arg} if chosen else \
                {c: i for i, c in enumerate(found)}
        return {c: i for i, c in enumerate(found)}

    def _load(self):
        files, labels = [], []
        for cls, label in sorted(self._classes().items()):
            folder = os.path.join(self.dataset_dir, cls)
            for name in sorted(os.listdir(folder)):
                path = os.path.join(folder, name)
                if not os.path.isfile(path):
                    continue
                if self.extensions is not None and \
                        not any(name.endswith(e) for e in self.extensions):
                    continue
                files.append(path)
                labels.append(label)
        if self.extensions is not None and not files:
            raise RuntimeError(f"Invalid data, no valid data matching the dataset API "
                               f"ImageFolderDataset. Please check dataset_dir {self.dataset_dir}"
                               f" and extensions {self.extensions}.")
        return files, np.asarray(labels, dtype=np.int32)

    def _num_rows(self):
        return len(self._load_once(self._load)[0])

    def _describe(self, index):
        files = self._load_once(self._load)[0]
        return f"sample {index} (file {files[index]})"

    def _read(self, index):
        files, labels = self._load_once(self._load)
        with open(files[index], "rb") as f:
            image = np.frombuffer(f.read(), dtype=np.uint8)
        if self.decode:
            from msxla.dataset.vision._convert import decode
            image = decode(image)
        return image, np.asarray(labels[index])

    def get_class_indexing(self):
        return dict(self._classes())

    def num_classes(self):
        return len(self._classes())
