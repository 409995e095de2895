"""Write tests/golden/parallel_context.json: MindSpore 2.10's auto-parallel context.

    GLOG_v=3 ~/ms-oracle/bin/python tests/golden/make_parallel_context.py

For every key ``get_auto_parallel_context`` answers, its default; for each
case (keyword arguments of ``set_auto_parallel_context``), the values read back
or the exception type and message. Cases msxla deliberately refuses
(``pipeline_stages`` > 1) are not here; tests/distributed covers them.
"""
import json
import os

from mindspore import context

KEYS = ["device_num", "global_rank", "gradients_mean", "gradient_fp32_sync", "parallel_mode",
        "search_mode", "auto_parallel_search_mode", "parameter_broadcast",
        "strategy_ckpt_load_file", "strategy_ckpt_save_file", "full_batch", "dataset_strategy",
        "enable_parallel_optimizer", "enable_alltoall", "all_reduce_fusion_config",
        "pipeline_stages", "pipeline_result_broadcast", "comm_fusion", "strategy_ckpt_config",
        "grad_accumulation_step", "sharding_propagation", "optimizer_weight_shard_size",
        "optimizer_weight_shard_aggregated_save", "loss_repeated_mean", "auto_pipeline",
        "dump_local_norm", "dump_local_norm_path", "dump_device_local_norm",
        "force_fp32_communication", "pipeline_interleave", "pipeline_scheduler",
        "pipeline_segments", "no_such_key"]
CASES = [
    {"parallel_mode": "data_parallel", "gradients_mean": True, "device_num": 8},
    {"parallel_mode": "semi_auto_parallel", "full_batch": True, "global_rank": 3},
    {"parallel_mode": "auto_parallel", "search_mode": "sharding_propagation"},
    {"parallel_mode": "hybrid_parallel", "parameter_broadcast": True},
    {"parallel_mode": "foo"}, {"parallel_mode": "DATA_PARALLEL"}, {"device_num": 0},
    {"device_num": 4097}, {"global_rank": -1}, {"global_rank": 4096}, {"device_num": "8"},
    {"gradients_mean": 1}, {"foo": 1}, {"search_mode": "foo"},
    {"dataset_strategy": "full_batch"}, {"dataset_strategy": "x"}, {"dataset_strategy": [1]},
    {"full_batch": True, "dataset_strategy": "data_parallel"},
    {"pipeline_stages": 0}, {"pipeline_stages": 1},
    {"strategy_ckpt_config": {"save_file": "a.ckpt"}}, {"strategy_ckpt_config": {"bad": 1}},
    {"enable_parallel_optimizer": True}, {"gradient_fp32_sync": False},
]


def main():
    defaults = {}
    for key in KEYS:
        try:
            defaults[key] = {"value": context.get_auto_parallel_context(key)}
        except Exception as e:  # noqa: BLE001 - recorded
            defaults[key] = {"error": type(e).__name__, "message": str(e).split("\n")[0]}
    cases = []
    for kwargs in CASES:
        context.reset_auto_parallel_context()
        try:
            context.set_auto_parallel_context(**kwargs)
            got = {k: context.get_auto_parallel_context(k) for k in kwargs}
            if "dataset_strategy" in kwargs:
                got["full_batch"] = context.get_auto_parallel_context("full_batch")
            cases.append({"kwargs": kwargs, "values": got})
        except Exception as e:  # noqa: BLE001 - recorded
            cases.append({"kwargs": kwargs, "error": type(e).__name__,
                          "message": str(e).split("\n")[0]})
    context.reset_auto_parallel_context()
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "parallel_context.json")
    with open(out, "w") as f:
        json.dump({"defaults": defaults, "cases": cases}, f, indent=1)  # kwargs keep their order


if __name__ == "__main__":
    main()
