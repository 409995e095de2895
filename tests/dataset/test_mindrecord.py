"""MindRecord both ways with MindSpore 2.10: msxla reads the file MindSpore
wrote (tests/golden/mindrecord/) as MindSpore does, writes the same rows to
the same bytes, and MindSpore's reading of msxla's files is in the golden."""
import json
import os
import shutil
import sqlite3

import numpy as np
import pytest

import msxla.dataset as ds
from msxla.mindrecord import FileReader, FileWriter
from msxla.mindrecord.common.exceptions import MRMDefineIndexError, MRMInvalidSchemaError

from tests.dataset import mindrecord_rows as mr

HERE = os.path.dirname(__file__)
GOLDEN = json.load(open(os.path.join(HERE, "..", "golden", "dataset_mindrecord.json")))
MS_FILE = os.path.join(HERE, "..", "golden", "mindrecord", "ms_written.mindrecord")


def test_file_reader_reads_mindspores_file():
    assert mr.read_file_reader(FileReader, MS_FILE) == GOLDEN["ms_file"]["file_reader"]


def test_mind_dataset_reads_mindspores_file():
    assert mr.read_dataset(ds, MS_FILE) == GOLDEN["ms_file"]["dataset"]
    assert mr.read_dataset(ds, MS_FILE, columns_list=["mask", "label"]) == \
        GOLDEN["ms_file"]["dataset_columns"]


def test_mind_dataset_shards_like_mindspore():
    got = [mr.read_dataset(ds, MS_FILE, num_shards=3, shard_id=s) for s in range(3)]
    assert got == GOLDEN["ms_file"]["shards"]


def _table(db):
    con = sqlite3.connect(db)
    try:
        return (list(con.execute("SELECT sql FROM sqlite_master ORDER BY name")),
                list(con.execute("SELECT * FROM INDEXES")),
                list(con.execute("SELECT * FROM SHARD_NAME")))
    finally:
        con.close()


def test_writer_gives_mindspores_bytes(tmp_path):
    path = str(tmp_path / "ms_written.mindrecord")
    mr.write(FileWriter, path)
    with open(path, "rb") as a, open(MS_FILE, "rb") as b:
        assert a.read() == b.read()
    assert _table(path + ".db") == _table(MS_FILE + ".db")
    # and MindSpore read msxla's files as it reads its own (recorded by the golden maker)
    assert GOLDEN["msxla_file_bytes_equal"]
    assert GOLDEN["msxla_file"]["file_reader"] == GOLDEN["ms_file"]["file_reader"]
    assert GOLDEN["msxla_file"]["dataset"] == GOLDEN["ms_file"]["dataset"]


def test_two_shards_round_trip_and_mindspores_reading(tmp_path):
    path = str(tmp_path / "two.mindrecord")
    mr.write(FileWriter, path, shard_num=2)
    assert sorted(os.listdir(tmp_path)) == ["two.mindrecord0", "two.mindrecord0.db",
                                            "two.mindrecord1", "two.mindrecord1.db"]
    assert mr.read_dataset(ds, path + "0") == GOLDEN["msxla_two_shards"]["dataset"]
    assert mr.read_file_reader(FileReader, path + "1") == \
        GOLDEN["msxla_two_shards"]["file_reader"]


def test_reading_without_the_index_file(tmp_path):
    shutil.copy(MS_FILE, tmp_path / "ms_written.mindrecord")
    got = mr.read_file_reader(FileReader, str(tmp_path / "ms_written.mindrecord"))
    assert got == GOLDEN["ms_file"]["file_reader"]


def test_pipeline_over_mind_dataset_with_workers():
    d = ds.MindDataset(MS_FILE, shuffle=True, num_parallel_workers=2)
    d = d.map(lambda m: m * 2, ["mask"], num_parallel_workers=2).batch(4)
    labels = sorted(int(x) for b in d.create_tuple_iterator(output_numpy=True, num_epochs=1)
                    for x in b[4])
    assert labels == sorted(r["label"] for c in range(3) for r in mr.rows(c))


def test_writer_validates_schema_index_and_rows(tmp_path):
    w = FileWriter(str(tmp_path / "bad.mindrecord"))
    with pytest.raises(MRMInvalidSchemaError):
        w.add_schema({"x": {"type": "uint8"}})
    with pytest.raises(MRMInvalidSchemaError):
        w.add_schema({"x": {"type": "string", "shape": [2]}})
    w.add_schema({"x": {"type": "int32"}, "b": {"type": "bytes"}})
    with pytest.raises(MRMDefineIndexError):
        w.add_index(["b"])
    with pytest.raises(Exception, match="field 'x'"):
        w.write_raw_data([{"x": "no", "b": b""}])
    w.write_raw_data([{"x": 1, "b": b"ok"}])
    w.commit()
    with pytest.raises(RuntimeError, match="already exist"):
        again = FileWriter(str(tmp_path / "bad.mindrecord"))
        again.add_schema({"x": {"type": "int32"}})
        again.commit()


def test_dataset_save_round_trip(tmp_path):
    data = {"image": np.arange(24, dtype=np.uint8).reshape(4, 6),
            "label": np.array([3, 1, 2, 0], np.int32),
            "feat": np.arange(8, dtype=np.float32).reshape(4, 2)}
    d = ds.NumpySlicesDataset(data, shuffle=False)
    path = str(tmp_path / "saved.mindrecord")
    d.save(path)
    back = ds.MindDataset(path, shuffle=False)
    rows = list(back.create_dict_iterator(output_numpy=True, num_epochs=1))
    assert [int(r["label"]) for r in rows] == [3, 1, 2, 0]
    np.testing.assert_array_equal(np.stack([r["feat"] for r in rows]), data["feat"])
