"""The auto-parallel context: ``set_auto_parallel_context`` / ``get_`` / ``reset_``.

One owner (``AUTO_PARALLEL``) holds every key with MindSpore 2.10's default,
checks and messages. What a key does on msxla:

- ``parallel_mode``: ``stand_alone``; ``data_parallel`` and ``hybrid_parallel``
  (one program per rank, the training cells insert ``DistributedGradReducer``);
  ``semi_auto_parallel`` (``shard`` strategies become sharding annotations over
  a Mesh of the global devices, XLA partitions); ``auto_parallel`` (as semi-auto,
  XLA propagates shardings from the inputs and the strategies given; said once).
- ``device_num`` / ``global_rank``: checked against the running world when a
  network is built (``check_world``): a mismatch is an error, never a silent
  single-device run.
- ``gradients_mean``, ``parameter_broadcast``, ``full_batch`` /
  ``dataset_strategy``: applied.
- ``pipeline_stages`` > 1 is refused (msxla has no pipeline parallelism).
- ``enable_parallel_optimizer``, ``gradient_fp32_sync``, ``comm_fusion``,
  ``all_reduce_fusion_config``, ``search_mode``, ``strategy_ckpt_config`` and the
  rest: validated and kept; they change how MindSpore schedules or stores the
  same computation, not its results (noted once when they are set).
"""
from __future__ import annotations

import copy
import logging

LOG = logging.getLogger("msxla")


class ParallelMode:
    """Parallel mode options (``STAND_ALONE``, ``DATA_PARALLEL``, ``HYBRID_PARALLEL``,
    ``SEMI_AUTO_PARALLEL``, ``AUTO_PARALLEL``)."""

    STAND_ALONE = "stand_alone"
    DATA_PARALLEL = "data_parallel"
    HYBRID_PARALLEL = "hybrid_parallel"
    SEMI_AUTO_PARALLEL = "semi_auto_parallel"
    AUTO_PARALLEL = "auto_parallel"
    MODE_LIST = [STAND_ALONE, DATA_PARALLEL, HYBRID_PARALLEL, SEMI_AUTO_PARALLEL, AUTO_PARALLEL]


_SEARCH_MODES = ("recursive_programming", "dynamic_programming", "sharding_propagation")
_COMM_FUSION = {"openstate": True, "allreduce": {"mode": "auto", "config": None},
                "allgather": {"mode": "auto", "config": None},
                "reducescatter": {"mode": "auto", "config": None}}
_DEFAULTS = {
    "device_num": 1, "global_rank": 0, "gradients_mean": False, "gradient_fp32_sync": True,
    "parallel_mode": ParallelMode.STAND_ALONE, "search_mode": "recursive_programming",
    "parameter_broadcast": False, "strategy_ckpt_load_file": "", "strategy_ckpt_save_file": "",
    "full_batch": False, "dataset_strategy": "data_parallel", "enable_parallel_optimizer": False,
    "enable_alltoall": False, "all_reduce_fusion_config": [], "pipeline_stages": 1,
    "pipeline_result_broadcast": False, "comm_fusion": _COMM_FUSION,
    "strategy_ckpt_config": {"load_file": "", "save_file": "", "only_trainable_params": True},
    "grad_accumulation_step": 1, "sharding_propagation": False,
    "optimizer_weight_shard_size": -1, "optimizer_weight_shard_aggregated_save": False,
    "loss_repeated_mean": True, "auto_pipeline": False, "dump_local_norm": False,
    "dump_local_norm_path": "", "dump_device_local_norm": False,
    "force_fp32_communication": False, "pipeline_interleave": False,
    "pipeline_scheduler": "1f1b",
}
# set_auto_parallel_context's type checks (MindSpore's args_type_check)
_TYPES = {
    "device_num": int, "global_rank": int, "gradients_mean": bool, "gradient_fp32_sync": bool,
    "parallel_mode": str, "auto_parallel_search_mode": str, "search_mode": str,
    "parameter_broadcast": bool, "strategy_ckpt_load_file": str, "strategy_ckpt_save_file": str,
    "full_batch": bool, "enable_parallel_optimizer": bool, "enable_alltoall": bool,
    "all_reduce_fusion_config": list, "pipeline_stages": int, "pipeline_segments": int,
    "pipeline_result_broadcast": bool, "parallel_optimizer_config": dict,
    "pipeline_config": dict, "comm_fusion": dict, "strategy_ckpt_config": dict,
    "force_fp32_communication": bool,
}
# keys that change how MindSpore schedules or stores the same computation
_NO_EFFECT = ("enable_parallel_optimizer", "parallel_optimizer_config", "comm_fusion",
              "all_reduce_fusion_config", "gradient_fp32_sync", "enable_alltoall",
              "optimizer_weight_shard_size", "optimizer_weight_shard_aggregated_save",
              "strategy_ckpt_config", "strategy_ckpt_load_file", "strategy_ckpt_save_file",
              "force_fp32_communication", "dump_local_norm", "dump_device_local_norm")


class AutoParallelContext:
    """Every auto-parallel setting (see the module doc)."""

    def __init__(self):
        self.reset()

    def reset(self):
        self.values = copy.deepcopy(_DEFAULTS)
        self.device_num_is_set = False
        self.global_rank_is_set = False
        self.noted = set()

    # -------------------------------------------------------------- set
    def set(self, **kwargs):
        for key, value in kwargs.items():
            want = _TYPES.get(key)
            if want is not None and not isinstance(value, want):
                raise TypeError(f"The parameter '{key}' must be {want}, but got {type(value)}")
        for key, value in kwargs.items():
            setter = getattr(self, f"_set_{key}", None)
            if setter is not None:
                setter(value)
            elif key in _DEFAULTS:
                self.values[key] = value
            else:
                raise ValueError(f"Set context keyword {key} is not recognized!")
            if key in _NO_EFFECT and value and key not in self.noted:
                self.noted.add(key)
                LOG.warning("msxla: set_auto_parallel_context(%s=...) is accepted and kept; it "
                            "changes how MindSpore schedules or stores the computation, not its "
                            "results, and has no effect on XLA.", key)

    def _set_parallel_mode(self, value):
        if value not in ParallelMode.MODE_LIST:
            raise ValueError("The context configuration parameter 'parallel_mode' only support "
                             "'stand_alone', 'data_parallel', 'hybrid_parallel', "
                             "'semi_auto_parallel' and 'auto_parallel', but got the value : "
                             f"{value}.")
        self.values["parallel_mode"] = value

    def _set_device_num(self, value):
        if value <= 0:
            raise ValueError("The context configuration parameter 'device_num' must be a "
                             f"positive integer, but got the value of device_num : {value}.")
        self.values["device_num"] = value
        self.device_num_is_set = True

    def _set_global_rank(self, value):
        if not 0 <= value <= 4095:
            raise ValueError("The context configuration parameter 'global_rank' must be in "
                             f"[0, 4095], but got the value of global_rank : {value}.")
        self.values["global_rank"] = value
        self.global_rank_is_set = True

    def _set_search_mode(self, value):
        if value not in _SEARCH_MODES:
            raise ValueError("The context configuration parameter 'auto_parallel_search_mode' "
                             "only support 'recursive_programming', 'dynamic_programming' and "
                             f"'sharding_propagation', but got the value: {value}.")
        self.values["search_mode"] = value

    _set_auto_parallel_search_mode = _set_search_mode

    def _set_full_batch(self, value):
        self.values["full_batch"] = value

    def _set_dataset_strategy(self, value):
        if isinstance(value, str):
            if value not in ("full_batch", "data_parallel"):
                raise ValueError("For 'set_auto_parallel_context', the argument "
                                 "'dataset_strategy' must be 'full_batch' or 'data_parallel', "
                                 f"but got the value : {value}.")
            self.values["full_batch"] = value == "full_batch"
            self.values["dataset_strategy"] = value
            return
        if not isinstance(value, tuple):
            raise TypeError("For 'set_auto_parallel_context', the argument 'dataset_strategy' "
                            f"must be str or tuple type, but got the type : {type(value)}.")
        from msxla.parallel.layout import Layout
        if value and isinstance(value[0], Layout):
            self.values["dataset_strategy"] = value
            return
        for ele in value:
            if not isinstance(ele, tuple):
                raise TypeError("For 'set_auto_parallel_context', the element of argument "
                                f"'dataset_strategy' must be tuple, but got the type : "
                                f"{type(ele)} .")
            for dim in ele:
                if not isinstance(dim, int):
                    raise TypeError("For 'set_auto_parallel_context', the element of argument "
                                    "'dataset_strategy' must be int type, but got the type : "
                                    f"{type(dim)} .")
        self.values["dataset_strategy"] = [list(e) for e in value]

    def _set_pipeline_stages(self, value):
        if isinstance(value, bool):
            raise TypeError("For 'set_auto_parallel_context', the argument 'pipeline_stages' "
                            f"must be int, but got the type : {type(value)}.")
        if value < 1:
            raise ValueError("For 'set_auto_parallel_context', the argument 'pipeline_stages' "
                             f"should be greater or equal 1, but got the value of stages : "
                             f"{value}.")
        if value > 1:
            raise ValueError(f"set_auto_parallel_context(pipeline_stages={value}): msxla has no "
                             "pipeline parallelism; use data parallelism or shard strategies "
                             "(SEMI_AUTO_PARALLEL) over the same devices instead.")
        self.values["pipeline_stages"] = value

    def _set_strategy_ckpt_config(self, value):
        unknown = [k for k in value if k not in ("load_file", "save_file",
                                                 "only_trainable_params")]
        if unknown:
            raise ValueError(f"Unknown config: {unknown}")
        for key, kind in (("load_file", str), ("save_file", str),
                          ("only_trainable_params", bool)):
            if key in value and not isinstance(value[key], kind):
                raise TypeError("For 'set_auto_parallel_context().set_strategy_ckpt_config', "
                                f"the argument '{key}' must be {kind.__name__}, but got the "
                                f"type : {type(value[key])} .")
        self.values["strategy_ckpt_config"].update(value)

    def _set_comm_fusion(self, value):
        for key in value:
            if key not in _COMM_FUSION:
                raise KeyError("comm fusion type must be openstate,allreduce, allgather or "
                               f"reducescatter, but got {key}")
        self.values["comm_fusion"].update(copy.deepcopy(value))

    def _set_parallel_optimizer_config(self, value):
        self.values.setdefault("parallel_optimizer_config", {}).update(value)

    def _set_pipeline_config(self, value):
        self.values.setdefault("pipeline_config", {}).update(value)

    def _set_pipeline_segments(self, value):
        self.values["pipeline_segments"] = value

    # -------------------------------------------------------------- get
    def get(self, key):
        if key == "auto_parallel_search_mode":
            key = "search_mode"
        if key not in _DEFAULTS:
            raise ValueError(f"Get context keyword {key} is not recognized!")
        value = self.values[key]
        return copy.deepcopy(value) if isinstance(value, (dict, list)) else value

    def parallel_mode(self) -> str:
        return self.values["parallel_mode"]

    def device_num(self) -> int:
        """MindSpore's ``_get_device_num``: 1 stand-alone, else the set value or the world size."""
        if self.parallel_mode() == ParallelMode.STAND_ALONE:
            return 1
        if not self.device_num_is_set:
            from msxla.communication import get_group_size
            return get_group_size()
        return self.values["device_num"]

    def global_rank(self) -> int:
        if self.parallel_mode() == ParallelMode.STAND_ALONE:
            return 0
        if not self.global_rank_is_set:
            from msxla.communication import get_rank
            return get_rank()
        return self.values["global_rank"]


AUTO_PARALLEL = AutoParallelContext()


def set_auto_parallel_context(**kwargs):
    """Set auto-parallel settings (``parallel_mode``, ``device_num``, ``gradients_mean``, ...)."""
    AUTO_PARALLEL.set(**kwargs)


def get_auto_parallel_context(attr_key):
    """One auto-parallel setting."""
    return AUTO_PARALLEL.get(attr_key)


def reset_auto_parallel_context():
    """Every auto-parallel setting back to its default."""
    AUTO_PARALLEL.reset()
