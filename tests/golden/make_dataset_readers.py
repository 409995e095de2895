"""Writes dataset_readers.json: what MindSpore 2.10's file readers return for
small files in the real formats (written by tests/dataset/reader_files.py,
which the tests use to write the same files for msxla).

    GLOG_v=3 ~/ms-oracle/bin/python tests/golden/make_dataset_readers.py
"""
import json
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "dataset"))

import mindspore.dataset as ds  # noqa: E402

import reader_files  # noqa: E402


def main():
    out = {}
    with tempfile.TemporaryDirectory() as root:
        paths = reader_files.write_all(root)
        for name, build in reader_files.reader_cases(paths, ds).items():
            limit = 40 if name.startswith("cifar") else None
            try:
                out[name] = reader_files.describe(build(), limit)
                if name.startswith("imagefolder"):
                    d = build()
                    out[name]["class_indexing"] = d.get_class_indexing()
                    out[name]["num_classes"] = d.num_classes()
            except Exception as e:  # noqa: BLE001
                out[name] = {"error": type(e).__name__, "message": str(e)[:200]}
    with open(os.path.join(HERE, "dataset_readers.json"), "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
