"""File readers against MindSpore 2.10 (tests/golden/dataset_readers.json):
the same files, written here, must give the same columns, sizes, dtypes,
shapes and rows (CIFAR: the first 40 rows, summarised)."""
import json
import os

import pytest

import msxla.dataset as ds

from tests.dataset import reader_files

GOLDEN = json.load(open(os.path.join(os.path.dirname(__file__), "..", "golden",
                                     "dataset_readers.json")))


@pytest.fixture(scope="module")
def paths(tmp_path_factory):
    return reader_files.write_all(str(tmp_path_factory.mktemp("readers")))


@pytest.fixture(autouse=True)
def two_workers():
    # MindSpore's multi-file row order depends on the worker count; the goldens
    # were made with 2 (MindSpore's default on the 2-core machine that made them).
    old = ds.config.get_num_parallel_workers()
    ds.config.set_num_parallel_workers(2)
    yield
    ds.config.set_num_parallel_workers(old)


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_reader_matches_mindspore(name, paths):
    want = GOLDEN[name]
    build = reader_files.reader_cases(paths, ds)[name]
    got = reader_files.describe(build(), 40 if name.startswith("cifar") else None)
    if name.startswith("imagefolder"):
        d = build()
        got["class_indexing"] = d.get_class_indexing()
        got["num_classes"] = d.num_classes()
    assert got == want


def test_missing_paths_are_value_errors(tmp_path):
    with pytest.raises(ValueError, match="does not exist"):
        ds.ImageFolderDataset(str(tmp_path / "nope"))
    with pytest.raises(ValueError, match="does not exist"):
        ds.MnistDataset(str(tmp_path / "nope"))
    with pytest.raises(ValueError, match="did not match any files"):
        ds.TextFileDataset([str(tmp_path / "nope.txt")])
    with pytest.raises(ValueError, match="valid set"):
        ds.MnistDataset(str(tmp_path), usage="valid")
    assert ds.MnistDataset(str(tmp_path)).get_dataset_size() == 0


def test_imagefolder_with_a_corrupt_image_fails_naming_the_file(paths):
    folder = os.path.join(paths["imagefolder"], "..", "corrupt")
    os.makedirs(os.path.join(folder, "a"), exist_ok=True)
    bad = os.path.join(folder, "a", "bad.jpg")
    with open(bad, "wb") as f:
        f.write(b"not a jpeg")
    import msxla.dataset.vision as vision
    d = ds.ImageFolderDataset(folder).map(vision.Decode(), ["image"])
    with pytest.raises(RuntimeError) as info:
        list(d.create_tuple_iterator(num_epochs=1))
    assert "bad.jpg" in str(info.value) and "[Decode] failed" in str(info.value)


def test_shuffled_readers_cover_every_row_once(paths):
    ds.config.set_seed(2)
    d = ds.MnistDataset(paths["mnist"])
    labels = sorted(int(r[1]) for r in d.create_tuple_iterator(output_numpy=True, num_epochs=1))
    assert labels == sorted([5, 6, 7, 0, 1, 2, 3, 4, 5])
    files = [os.path.join(paths["text"], n) for n in ("t5.txt", "t3.txt")]
    rows = [str(r[0]) for r in ds.TextFileDataset(files).create_tuple_iterator(
        output_numpy=True, num_epochs=1)]
    assert sorted(rows) == sorted([f"r{i}" for i in range(5)] + [f"s{i}" for i in range(3)])
