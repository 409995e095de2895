"""Every key MindSpore 2.10's ``set_context`` / ``get_context`` accepts: writes
``context_keys.json`` next to itself.

Run in the oracle venv: ``GLOG_v=3 ~/ms-oracle/bin/python tests/golden/make_context_keys.py``.

The keys are MindSpore's own: its setters, the properties of its context object and
the public members of ``ms_ctx_param``, plus the deprecated keys it still accepts.
For each key the JSON holds the default ``get_context`` gives, whether setting a
valid value is accepted (and what ``get_context`` reads back), and, for some keys,
the exception type of a bad value. Each key runs in a fresh process.
"""
import json
import os
import subprocess
import sys

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "context_keys.json")
DEPRECATED = ["enable_sparse", "auto_tune_mode", "enable_auto_mixed_precision"]
# A valid value for keys whose default cannot be set back as it reads.
SAMPLES = {
    "aoe_tune_mode": "online", "env_config_path": None, "max_device_memory": "2GB",
    "memory_optimize_level": "O1", "mempool_block_size": "2GB", "enable_compile_cache": True,
    "jit_level": "O1", "jit_config": {"jit_level": "O1"}, "mode": 0, "save_graphs": 1,
    "deterministic": "ON", "exec_order": "dfs", "debug_level": 1, "op_timeout": 100,
    "runtime_num_threads": 4, "inter_op_parallel_num": 2, "max_call_depth": 2000,
    "jit_syntax_level": 0, "variable_memory_max_size": "1GB", "print_file_path": "",
    "save_graphs_path": ".", "gpu_config": {"conv_fprop_algo": "normal"},
    "ascend_config": {"precision_mode": "force_fp16"}, "infer_boost": "on",
    "enable_sparse": True, "auto_tune_mode": "GA", "enable_auto_mixed_precision": True,
}
BAD = {"mode": 5, "jit_syntax_level": 9, "max_call_depth": 0, "save_graphs": "yes",
       "device_target": "TPU", "runtime_num_threads": -1, "jit_config": 3, "exec_order": 3,
       "memory_optimize_level": "O5", "deterministic": 1}


def keys():
    from mindspore import context
    from mindspore._c_expression import ms_ctx_param
    found = set(context._Context.setters)
    found |= {k for k in ms_ctx_param.__members__ if not k.startswith("_")}
    found |= {k for k, v in vars(context._Context).items() if isinstance(v, property)}
    return sorted(found | set(DEPRECATED))


def plain(v):
    if isinstance(v, (bool, int, float, str)) or v is None:
        return v
    if isinstance(v, dict):
        return {str(k): plain(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [plain(x) for x in v]
    return repr(v)


def probe(key):
    import mindspore as ms
    rec = {"key": key}
    try:
        rec["default"] = plain(ms.get_context(key))
    except Exception as e:  # noqa: BLE001
        rec["default_error"] = type(e).__name__
    value = SAMPLES.get(key, rec.get("default"))
    if key == "env_config_path":
        value = None
    if value is not None:
        rec["sample"] = plain(value)
        try:
            ms.set_context(**{key: value})
            rec["set"] = "ok"
            try:
                rec["read_back"] = plain(ms.get_context(key))
            except Exception as e:  # noqa: BLE001
                rec["read_back_error"] = type(e).__name__
        except Exception as e:  # noqa: BLE001
            rec["set"] = type(e).__name__
            rec["set_message"] = str(e).split("\n")[0][:200]
    if key in BAD:
        rec["bad"] = plain(BAD[key])
        try:
            ms.set_context(**{key: BAD[key]})
            rec["bad_error"] = None
        except Exception as e:  # noqa: BLE001
            rec["bad_error"] = type(e).__name__
    print(json.dumps(rec))


def main():
    names = json.loads(subprocess.run(
        [sys.executable, __file__, "--keys"], capture_output=True, text=True, check=True,
        env=dict(os.environ, GLOG_v="3")).stdout.strip().splitlines()[-1])
    out = []
    for key in names:
        proc = subprocess.run([sys.executable, __file__, "--probe", key], capture_output=True,
                              text=True, env=dict(os.environ, GLOG_v="3"), cwd="/tmp")
        lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
        out.append(json.loads(lines[-1]) if lines else {"key": key, "crash": True})
    with open(OUT, "w") as f:
        json.dump({"keys": out}, f, indent=0)
        f.write("\n")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--keys"]:
        print(json.dumps(keys()))
    elif sys.argv[1:2] == ["--probe"]:
        probe(sys.argv[2])
    else:
        main()
