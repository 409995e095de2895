"""MindSpore 2.10's ``mindspore.profiler.schedule`` actions: writes ``profiler_schedule.json``.

Run in the oracle venv: ``GLOG_v=3 ~/ms-oracle/bin/python tests/golden/make_profiler_schedule.py``.
For each schedule configuration the JSON holds the action of steps 0..19.
"""
import json
import os

CONFIGS = [
    {"wait": 1, "warmup": 1, "active": 2, "repeat": 1, "skip_first": 1},
    {"wait": 0, "active": 1},
    {"wait": 2, "active": 3},
    {"wait": 1, "warmup": 2, "active": 1, "repeat": 3},
    {"wait": 0, "warmup": 0, "active": 4, "repeat": 2, "skip_first": 3},
]


def main():
    from mindspore.profiler import schedule
    out = []
    for cfg in CONFIGS:
        s = schedule(**cfg)
        out.append({"config": cfg, "actions": [str(s(i)) for i in range(20)]})
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "profiler_schedule.json")
    with open(path, "w") as f:
        json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
