"""MindRecord files written by each side and read by the other.

* ``mindrecord/ms_written.mindrecord`` (+ ``.db``): written by MindSpore 2.10
  (tests/dataset/mindrecord_rows.py); msxla's tests read it and write the same
  rows, which must give the same bytes.
* msxla writes the same rows (run through the msxla virtualenv in a
  subprocess); MindSpore reads that file here and its answers are stored.

    GLOG_v=3 ~/ms-oracle/bin/python tests/golden/make_dataset_mindrecord.py
"""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(HERE, "..", "dataset"))

import mindspore.dataset as ds  # noqa: E402
from mindspore.mindrecord import FileReader, FileWriter  # noqa: E402

import mindrecord_rows as mr  # noqa: E402

MSXLA_PYTHON = os.environ.get("MSXLA_PYTHON", "/work/main/.venv/bin/python")
MSXLA_WRITE = ("import sys; sys.path.insert(0, {root!r}); sys.path.insert(0, {tests!r});"
               "from msxla.mindrecord import FileWriter; import mindrecord_rows as mr;"
               "mr.write(FileWriter, {path!r}, {shards})")


def msxla_write(path, shards=1):
    code = MSXLA_WRITE.format(root=ROOT, tests=os.path.join(HERE, "..", "dataset"), path=path,
                              shards=shards)
    subprocess.run([MSXLA_PYTHON, "-c", code], check=True)


def main():
    out_dir = os.path.join(HERE, "mindrecord")
    os.makedirs(out_dir, exist_ok=True)
    ms_file = os.path.join(out_dir, "ms_written.mindrecord")
    mr.write(FileWriter, ms_file)
    golden = {"ms_file": {"file_reader": mr.read_file_reader(FileReader, ms_file),
                          "dataset": mr.read_dataset(ds, ms_file),
                          "dataset_columns": mr.read_dataset(ds, ms_file,
                                                             columns_list=["mask", "label"]),
                          "shards": [mr.read_dataset(ds, ms_file, num_shards=3, shard_id=s)
                                     for s in range(3)]}}
    with tempfile.TemporaryDirectory() as tmp:
        mine = os.path.join(tmp, "ms_written.mindrecord")
        msxla_write(mine)
        with open(mine, "rb") as a, open(ms_file, "rb") as b:
            golden["msxla_file_bytes_equal"] = a.read() == b.read()
        golden["msxla_file"] = {"file_reader": mr.read_file_reader(FileReader, mine),
                                "dataset": mr.read_dataset(ds, mine)}
        two = os.path.join(tmp, "two.mindrecord")
        msxla_write(two, shards=2)
        golden["msxla_two_shards"] = {"dataset": mr.read_dataset(ds, two + "0"),
                                      "file_reader": mr.read_file_reader(FileReader, two + "1")}
    with open(os.path.join(HERE, "dataset_mindrecord.json"), "w") as f:
        json.dump(golden, f, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
