"""Write tests/golden/auto_parallel.json: MindSpore 2.10's AutoParallel checks.

    cd /tmp/some_dir && GLOG_v=3 ~/ms-oracle/bin/python /path/to/tests/golden/make_auto_parallel.py

For each call (a constructor argument or an option method with arguments) the
exception type and message, or None when accepted; and get_pipeline_stages.
"""
import json
import os

from mindspore import nn
from mindspore.parallel.auto_parallel import AutoParallel

CALLS = [
    ("__init__", ["semi_auto"]), ("__init__", ["sharding_propagation"]),
    ("__init__", ["recursive_programming"]), ("__init__", ["data_parallel"]),
    ("pipeline", [2]), ("pipeline", [0]), ("pipeline", ["2"]), ("pipeline", [1, 1]),
    ("pipeline", [1, False, False, "bad"]), ("hsdp", []), ("hsdp", [0]), ("hsdp", [2, -1]),
    ("hsdp", [-1, 64, "level4"]), ("dataset_strategy", ["full_batch"]),
    ("dataset_strategy", ["model_parallel"]), ("dataset_strategy", [[(1, 2)]]),
    ("dataset_strategy", [((1, "2"),)]), ("dataset_strategy", [(1,)]),
    ("dataset_strategy", [((2, 1), (2, 1))]), ("comm_fusion", [[1]]), ("comm_fusion", [{}]),
]


def main():
    out = []
    for method, args in CALLS:
        try:
            if method == "__init__":
                AutoParallel(nn.Dense(3, 2), *args)
            else:
                net = AutoParallel(nn.Dense(3, 2))
                getattr(net, method)(*args)
            out.append({"method": method, "args": args, "error": None})
        except Exception as e:  # noqa: BLE001 - recorded
            out.append({"method": method, "args": args,
                        "error": [type(e).__name__, str(e)]})
    net = AutoParallel(nn.Dense(3, 2))
    net.pipeline(4)
    result = {"calls": out, "stages_after_pipeline_4": net.get_pipeline_stages(),
              "param_names": [p.name for p in net.get_parameters()]}
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)),
                           "auto_parallel.json"), "w") as f:
        json.dump(result, f, indent=1, default=str)


if __name__ == "__main__":
    main()
