"""MindSpore 2.10's ``Model.train`` on the workloads of ``train_workloads.py``.

Runs in MindSpore's environment (``train_model.py --mindspore PYTHON`` calls it):

    GLOG_v=3 ~/ms-oracle/bin/python benchmarks/mindspore_train_model.py [--rounds 3]

Variants, each 100 steps per timed run after a warm-up run, best of the
interleaved rounds in wall-clock and process CPU time: GRAPH_MODE per-step,
GRAPH_MODE with ``dataset_sink_mode=True`` (MindSpore's CPU build trains
without sinking and says so) and PyNative per-step. The data comes from
``NumpySlicesDataset(...).batch(b)``, which MindSpore's Model needs. Prints one
JSON line ``{workload: {variant: [wall, cpu]}}`` last.
"""
from __future__ import annotations

import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import mindspore as ms  # noqa: E402
import mindspore.dataset as ds  # noqa: E402
import train_workloads as W  # noqa: E402


def variants(name):
    x, y = W.make_batches(name)
    b = W.WORKLOADS[name]["batch"]
    out = {}

    def make(label, graph, sink):
        mode = ms.GRAPH_MODE if graph else ms.PYNATIVE_MODE
        ms.set_context(mode=mode)
        model, net = W.make_model(ms, name)
        data = ds.NumpySlicesDataset({"x": x, "y": y}, shuffle=False).batch(b)

        def run():
            ms.set_context(mode=mode)
            model.train(1, data, dataset_sink_mode=sink)
            net.trainable_params()[0].asnumpy()
        run()
        out[label] = run

    make("per-step", True, False)
    make("sink (falls back to per-step on CPU)", True, True)
    make("PyNative per-step", False, False)
    return out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--workloads", nargs="+", default=list(W.WORKLOADS))
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    results = {name: W.run_rounds(variants(name), args.rounds) for name in args.workloads}
    print(json.dumps(results))


if __name__ == "__main__":
    main()
