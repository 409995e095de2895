"""Every key MindSpore 2.10's ``set_context`` accepts: its default and its check.

The keys are MindSpore's (its context setters, the properties of its context
object and the public members of ``ms_ctx_param``; ``tests/golden/
make_context_keys.py`` lists them from MindSpore itself and the tests compare).
Each entry is ``key: (default, check)``; ``check(key, value)`` raises
MindSpore's exception for a bad value and returns what ``get_context`` reads
back. Most keys tune Ascend or MindSpore's own runtime and are kept without
effect on XLA; the ones msxla applies are read where they matter
(``mode``, ``device_target``, ``jit_syntax_level``, ``jit_level`` /
``jit_config`` as the default jit level of GRAPH_MODE Cells).
"""
from __future__ import annotations

import os

GRAPH_MODE, PYNATIVE_MODE = 0, 1
STRICT, COMPATIBLE, LAX = 0, 1, 2
DEVICE_TARGETS = ("CPU", "GPU", "Ascend", "Davinci")
# Keys MindSpore takes only inside ``ascend_config``.
ASCEND_CONFIG_ONLY = ("precision_mode", "jit_compile", "atomic_clean_policy", "matmul_allow_hf32",
                      "conv_allow_hf32", "op_precision_mode", "host_scheduling_max_threshold",
                      "ge_options", "op_debug_option")
# Keys MindSpore applies only on some devices; on others it warns and ignores them.
TARGET_SPECIFIC = {
    "enable_reduce_precision": ("Ascend",), "print_file_path": ("Ascend",),
    "variable_memory_max_size": ("Ascend",), "max_device_memory": ("Ascend", "GPU"),
    "mempool_block_size": ("GPU", "Ascend"), "disable_format_transform": ("GPU",),
    "ascend_config": ("Ascend",), "gpu_config": ("GPU",),
}
# Keys MindSpore accepts with a deprecation warning and ignores.
DEPRECATED = ("enable_sparse", "auto_tune_mode", "enable_auto_mixed_precision")


def _types_text(types):
    return types if len(types) > 1 else types[0]


def check_type(key, value, *types):
    if isinstance(value, bool) and bool not in types and int in types:
        return
    if not isinstance(value, types):
        raise TypeError(f"The parameter '{key}' must be {_types_text(types)}, but got "
                        f"{type(value)}")


def typed(*types):
    def check(key, value):
        check_type(key, value, *types)
        return value
    return check


def choice(*choices, types=(str,)):
    def check(key, value):
        check_type(key, value, *types)
        if value not in choices:
            raise ValueError(f"For 'context.set_context', the argument '{key}' must be one of "
                             f"{list(choices)}, but got {value}.")
        return value
    return check


def _mode(key, value):
    check_type(key, value, int)
    if value not in (GRAPH_MODE, PYNATIVE_MODE):
        raise ValueError("For 'context.set_context', the argument 'mode' should be "
                         f"context.GRAPH_MODE (0) or context.PYNATIVE_MODE (1), but got {value}.")
    return value


def _syntax_level(key, value):
    if value not in (STRICT, COMPATIBLE, LAX):
        raise ValueError("For 'jit_syntax_level', the value should be context.STRICT or "
                         f"context.LAX, but got {value}.")
    return value


def _positive_int(key, value):
    check_type(key, value, int)
    if value <= 0:
        raise ValueError(f"For 'context.set_context', the argument '{key}' must be greater "
                         f"than 0, but got {value}.")
    return value


def _non_negative_int(key, value):
    check_type(key, value, int)
    if value < 0:
        raise ValueError(f"For 'context.set_context', the argument '{key}' must be greater "
                         f"than or equal to 0, but got {value}.")
    return value


def _save_graphs(key, value):
    check_type(key, value, bool, int)
    value = {True: 2, False: 0}.get(value, value) if isinstance(value, bool) else value
    if not 0 <= value <= 3:
        raise ValueError(f"value for save_graphs should be 0-3 but got '{value}'")
    return value


def _memory_level(key, value):
    return {"O0": 0, "O1": 1}[choice("O0", "O1")(key, value)]


def _memory_size(default):
    """Sizes such as ``'30GB'``: checked, kept as MindSpore's CPU build reports them
    (the default, in GB)."""
    def check(key, value):
        check_type(key, value, str)
        if not (value.endswith("GB") and value[:-2].replace(".", "", 1).isdigit()):
            raise ValueError(f"For 'context.set_context', the argument '{key}' should be in "
                             f"correct format! It must be a string ending with 'GB', in addition "
                             f"to that, it must contain only numbers or decimal points, such as "
                             f"'5GB' or '3.5GB', but got {value}.")
        return default
    return check


def _dict(key, value):
    check_type(key, value, dict)
    return dict(value)


def _jit_config(key, value):
    check_type(key, value, dict)
    level = value.get("jit_level", "")
    if level not in ("", "O0", "O1", "O2"):
        raise ValueError(f"For 'jit_config', the 'jit_level' must be one of ['O0', 'O1', 'O2'], "
                         f"but got {level}.")
    return dict(value)


def _jit_level(key, value):
    check_type(key, value, str)
    if value not in ("", "O0", "O1", "O2"):
        raise ValueError(f"For 'context.set_context', the argument 'jit_level' must be one of "
                         f"['O0', 'O1', 'O2'], but got {value}.")
    return value


def _path(key, value):
    check_type(key, value, str)
    return os.path.realpath(value) if value else value


def _env_config_path(key, value):
    check_type(key, value, str)
    if value and not os.path.isfile(value):
        raise ValueError(f"For 'context.set_context', the 'env_config_path' file {value} is not "
                         "exists, please check whether 'env_config_path' is correct.")
    return value


def _debug_level(key, value):
    if value not in (0, 1):
        raise ValueError("For 'debug_level', the value should be context.DEBUG or "
                         f"context.RELEASE, but got {value}.")
    return value


_B, _S, _I = typed(bool), typed(str), typed(int)

KEYS = {
    "mode": (PYNATIVE_MODE, _mode),
    "device_target": ("CPU", choice(*DEVICE_TARGETS)),
    "device_id": (0, _non_negative_int),
    "jit_syntax_level": (LAX, _syntax_level),
    "jit_config": ({}, _jit_config),
    "jit_level": ("", _jit_level),
    "save_graphs": (0, _save_graphs),
    "save_graphs_path": (".", _path),
    "max_call_depth": (1000, _positive_int),
    "deterministic": ("OFF", choice("ON", "OFF")),
    "pynative_synchronize": (False, _B),
    "runtime_num_threads": (min(os.cpu_count() or 1, 30), _non_negative_int),
    "inter_op_parallel_num": (0, _non_negative_int),
    "memory_optimize_level": (0, _memory_level),
    "max_device_memory": (1024.0, _memory_size(1024.0)),
    "mempool_block_size": (1.0, _memory_size(1.0)),
    "variable_memory_max_size": ("0", lambda k, v: _memory_size("0")(k, v)),
    "enable_graph_kernel": (False, _B),
    "graph_kernel_flags": ("", _S),
    "enable_reduce_precision": (True, _B),
    "check_bprop": (False, _B),
    "print_file_path": ("", _S),
    "enable_compile_cache": (None, _B),
    "compile_cache_path": ("", _S),
    "disable_format_transform": (False, _B),
    "enable_profiling": (False, _B),
    "profiling_options": ("training_trace", _S),
    "ascend_config": ({}, _dict),
    "gpu_config": ({}, _dict),
    "aoe_config": ({}, _dict),
    "aoe_tune_mode": ("", choice("online", "offline")),
    "aoe_job_type": ("2", _S),
    "exec_order": ("bfs", choice("bfs", "dfs", "gpto", types=(object,))),
    "op_timeout": (900, _non_negative_int),
    "env_config_path": ("", _env_config_path),
    "reserve_class_name_in_scope": (True, _B),
    "debug_level": (0, _debug_level),
    "infer_boost": ("off", choice("on", "off")),
    "enable_ge": (False, None),  # read-only in MindSpore
    "support_binary": (False, _B),
    "topo_order": ("", _S),
    "conv_allow_tf32": (True, _B),
    "matmul_allow_tf32": (False, _B),
    "conv_fprop_algo": ("normal", _S),
    "conv_dgrad_algo": ("normal", _S),
    "conv_wgrad_algo": ("normal", _S),
    "cur_step_num": (0, _I),
    "last_triggered_step": (0, _I),
    "save_checkpoint_steps": (0, _I),
    "need_ckpt": (False, _B),
    "hccl_watchdog": (True, _B),
    "dataset_broadcast_opt_level": (0, _I),
    "compute_communicate_fusion_level": (0, _I),
    "enable_debug_runtime": (False, _B),
    "enable_task_opt": (False, _B),
    "enable_grad_comm_opt": (False, _B),
    "enable_opt_shard_comm_opt": (False, _B),
    "enable_parallel_split": (False, _B),
    "enable_begin_end_inline_opt": (False, _B),
    "enable_concat_eliminate_opt": (False, _B),
    "enable_fused_cast_add_opt": (False, _B),
    "enable_allreduce_slice_to_reducescatter": (False, _B),
    "enable_interleave_parallel_branch": (False, _B),
    "enable_interleave_split_concat_branch": (False, _B),
    "enable_offloading_packed_experts": (True, _B),
    "enable_flash_attention_load_balance": (False, _B),
    "interleaved_layernorm_comm": (False, _B),
    "interleaved_matmul_comm": (False, _B),
    "bias_add_comm_swap": (False, _B),
    "recompute_allgather_overlap_fagrad": (False, _B),
    "recompute_comm_overlap": ("", _S),
    "matmul_grad_comm_overlap": ("", _S),
    "pp_1f1b_overlap": ("", _S),
    **{k: ("", None) for k in ASCEND_CONFIG_ONLY},  # read as "", set through ascend_config
}
