"""MindSpore 2.10's own dataset on the pipeline of ``dataset_workloads.py``.

Runs in MindSpore's environment (``dataset_pipeline.py --mindspore PYTHON`` calls it):

    GLOG_v=3 ~/ms-oracle/bin/python benchmarks/mindspore_dataset_pipeline.py ROOT [--rounds 3]

One epoch per timed run (after a warm-up epoch), 1 and 2 workers, best of the
interleaved rounds. Prints one JSON line ``{variant: [images/s wall, images/s CPU]}`` last.
"""
from __future__ import annotations

import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import mindspore.dataset as ds  # noqa: E402
import mindspore.dataset.vision as vision  # noqa: E402
import dataset_workloads as W  # noqa: E402


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("root")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    args = parser.parse_args()
    variants = {}
    for w in args.workers:
        data = W.pipeline(ds, vision, args.root, w)

        def run(data=data):
            return W.images(data.create_tuple_iterator(num_epochs=1, output_numpy=True))
        run()
        variants[f"MindSpore 2.10, {w} worker{'s' if w > 1 else ''}"] = run
    print(json.dumps(W.best_of(variants, args.rounds)))


if __name__ == "__main__":
    main()
