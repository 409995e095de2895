"""Writes dataset_tfrecord.json: what MindSpore 2.10's TFRecordDataset returns for
small TFRecord files of Example records (written by tests/dataset/tfrecord_files.py,
which the test uses to write the same files for msxla), read with 2 workers.

    GLOG_v=3 ~/ms-oracle/bin/python tests/golden/make_dataset_tfrecord.py
"""
import json
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "dataset"))

import mindspore.dataset as ds  # noqa: E402

import reader_files  # noqa: E402
import tfrecord_files  # noqa: E402


def main():
    ds.config.set_num_parallel_workers(2)
    out = {}
    with tempfile.TemporaryDirectory() as root:
        paths = tfrecord_files.write_all(root)
        for name, build in tfrecord_files.cases(paths, ds).items():
            try:
                out[name] = reader_files.describe(build())
            except Exception as e:  # noqa: BLE001
                out[name] = {"error": type(e).__name__, "message": str(e)[:200]}
    with open(os.path.join(HERE, "dataset_tfrecord.json"), "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
