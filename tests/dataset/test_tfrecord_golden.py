"""TFRecordDataset against MindSpore 2.10 (tests/golden/dataset_tfrecord.json): the
same TFRecord files, written here, give the same columns, sizes, dtypes, shapes and
rows; a truncated file is a clear error."""
import json
import os

import pytest

import msxla.dataset as ds

from tests.dataset import reader_files, tfrecord_files

GOLDEN = json.load(open(os.path.join(os.path.dirname(__file__), "..", "golden",
                                     "dataset_tfrecord.json")))


@pytest.fixture(scope="module")
def paths(tmp_path_factory):
    return tfrecord_files.write_all(str(tmp_path_factory.mktemp("tfrecord")))


@pytest.fixture(autouse=True)
def two_workers():
    old = ds.config.get_num_parallel_workers()
    ds.config.set_num_parallel_workers(2)
    yield
    ds.config.set_num_parallel_workers(old)


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_tfrecord_matches_mindspore(name, paths):
    got = reader_files.describe(tfrecord_files.cases(paths, ds)[name]())
    assert got == GOLDEN[name]


def test_truncated_file_is_an_error(paths, tmp_path):
    blob = open(paths["files"][0], "rb").read()
    cut = tmp_path / "cut.tfrecord"
    cut.write_bytes(blob[:-10])
    with pytest.raises(RuntimeError, match="ends first"):
        list(ds.TFRecordDataset(str(cut), shuffle=False).create_tuple_iterator())
