"""Writes dataset_text.json: MindSpore 2.10's text transforms and vocabularies
on the inputs of tests/dataset/text_cases.py.

    GLOG_v=3 ~/ms-oracle/bin/python tests/golden/make_dataset_text.py
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "dataset"))

import mindspore as ms  # noqa: E402
import mindspore.dataset as ds  # noqa: E402
import mindspore.dataset.text as text  # noqa: E402

import text_cases  # noqa: E402


def main():
    golden = {"transforms": {n: text_cases.run(text, ms, n) for n in text_cases.CASES},
              "vocab": text_cases.vocab_cases(text, ds)}
    with open(os.path.join(HERE, "dataset_text.json"), "w") as f:
        json.dump(golden, f, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
