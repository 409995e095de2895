"""``mindspore.parallel.auto_parallel.AutoParallel``: a Cell that runs a network
under its own parallel configuration.

MindSpore 2.10's newer way to ask for semi-automatic or automatic parallelism:
instead of the global ``set_auto_parallel_context``, the wrapper carries the
mode and its options (``hsdp``, ``dataset_strategy``, ``pipeline``, strategy
files, ...). Each call runs the network with the auto-parallel context set
from the wrapper (``semi_auto`` -> ``semi_auto_parallel``,
``sharding_propagation`` / ``recursive_programming`` -> ``auto_parallel`` with
that search mode; the dataset strategy, gradient mean and parallel optimizer
as configured) and puts the global context back afterwards, so the network's
graph is compiled with the wrapper's shardings. Options that only tune
MindSpore's own compiler (communication fusion, local-norm dumps, strategy
files) are recorded and read back.
"""
from __future__ import annotations

from msxla.nn.cell import Cell
from msxla.parallel import _auto_parallel_context as apc

__all__ = ["AutoParallel"]

_MODES = {"semi_auto": ("semi_auto_parallel", None),
          "sharding_propagation": ("auto_parallel", "sharding_propagation"),
          "recursive_programming": ("auto_parallel", "recursive_programming")}
_SCHEDULERS = ("1f1b", "gpipe", "seqpipe", "seqvpp", "seqsmartvpp", "zero_bubble_v")


def _type(method, arg, value, kind, name):
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise TypeError(f"For 'AutoParallel.{method}', the argument '{arg}' must be {name} type, "
                        f"but got the type : {type(value)}.")


class AutoParallel(Cell):
    """Run ``network`` with ``parallel_mode`` ('semi_auto', 'sharding_propagation' or
    'recursive_programming') and the options set on this wrapper."""

    def __init__(self, network, parallel_mode="semi_auto"):
        super().__init__(auto_prefix=False)
        if parallel_mode not in _MODES:
            raise ValueError("the argument 'parallel_mode' must be one of ['semi_auto', "
                             "'sharding_propagation', 'recursive_programming'], but got the "
                             f"value : {parallel_mode} .")
        self.network = network
        self._parallel_mode = parallel_mode
        self._dataset_strategy_config = "data_parallel"
        self._full_batch = False
        self._enable_parallel_optimizer = False
        self._optimizer_weight_shard_size = -1
        self._parallel_optimizer_threshold = 64
        self._optimizer_level = "level1"
        self._pipeline_stages = 1
        self._pipeline_result_broadcast = False
        self._pipeline_interleave = False
        self._pipeline_scheduler = "1f1b"
        self._gradients_mean = False
        self._gradient_fp32_sync = True
        self._loss_repeated_mean = True
        self._files = {}
        self._comm_fusion_config = {}
        self._flags = set()

    def construct(self, *args, **kwargs):
        if self._pipeline_stages > 1:
            raise NotImplementedError(
                f"AutoParallel.pipeline(stages={self._pipeline_stages}): msxla has no pipeline "
                "parallelism; use stages=1 (data, tensor and optimizer sharding run).")
        mode, search = _MODES[self._parallel_mode]
        wanted = {"parallel_mode": mode, "gradients_mean": self._gradients_mean,
                  "dataset_strategy": self._dataset_strategy_config,
                  "enable_parallel_optimizer": self._enable_parallel_optimizer}
        if search is not None:
            wanted["search_mode"] = search
        saved = {k: apc.get_auto_parallel_context(k) for k in wanted}
        apc.set_auto_parallel_context(**wanted)
        try:
            return self.network(*args, **kwargs)
        finally:
            apc.set_auto_parallel_context(**saved)

    # ---- options, with MindSpore's checks
    def hsdp(self, shard_size=-1, threshold=64, optimizer_level="level1"):
        """Shard optimizer states (and weights) across data-parallel ranks."""
        self._enable_parallel_optimizer = True
        if not isinstance(shard_size, int) or (shard_size <= 0 and shard_size != -1):
            raise ValueError(f"shard_size must be a positive integer or -1, but got {shard_size}.")
        if not isinstance(threshold, int) or threshold < 0:
            raise ValueError(f"threshold must be a positive integer or 0, but got {threshold}.")
        if optimizer_level not in ("level1", "level2", "level3"):
            raise ValueError("Optimizer level should in ['level1', 'level2', 'level3'], but got "
                             f"{optimizer_level}")
        self._optimizer_weight_shard_size = shard_size
        self._parallel_optimizer_threshold = threshold
        self._optimizer_level = optimizer_level

    def pipeline(self, stages=1, output_broadcast=False, interleave=False, scheduler="1f1b"):
        """Pipeline stages (only 1 runs here)."""
        _type("pipeline", "stages", stages, int, "int")
        if stages <= 0:
            raise ValueError("For 'AutoParallel.pipeline', the argument 'stages' must be larger "
                             f"than zero, but got value: {stages}.")
        _type("pipeline", "output_broadcast", output_broadcast, bool, "bool")
        _type("pipeline", "interleave", interleave, bool, "bool")
        _type("pipeline", "scheduler", scheduler, str, "str")
        if scheduler not in _SCHEDULERS:
            raise ValueError("For 'AutoParallel.pipeline', the argument 'scheduler' must be "
                             "'1f1b'/'gpipe'/'seqpipe'/'seqvpp'/'seqsmartvpp'/'zero_bubble_v' , "
                             f"but got the value : {scheduler}.")
        self._pipeline_stages, self._pipeline_result_broadcast = stages, output_broadcast
        self._pipeline_interleave, self._pipeline_scheduler = interleave, scheduler

    def get_pipeline_stages(self):
        return self._pipeline_stages

    def dataset_strategy(self, config):
        """'data_parallel', 'full_batch', or a tuple of per-input strategies."""
        from msxla.parallel.layout import Layout
        if config is None:
            raise ValueError("dataset_strategy is none in config!")
        if isinstance(config, str):
            if config not in ("full_batch", "data_parallel"):
                raise ValueError("For 'AutoParallel.dataset_strategy', the argument 'config' must "
                                 f"be 'full_batch' or 'data_parallel', but got the value : {config}.")
            self._full_batch = config == "full_batch"
            self._dataset_strategy_config = config
            return
        _type("dataset_strategy", "config", config, tuple, "str or tuple")
        for element in config:
            if isinstance(element, tuple):
                for dim in element:
                    if not isinstance(dim, int):
                        raise TypeError("For 'AutoParallel.dataset_strategy', the element of "
                                        "argument 'config' must be int type, but got the type : "
                                        f"{type(dim)} .")
            elif not isinstance(element, Layout):
                raise TypeError("For 'AutoParallel.dataset_strategy', the element of argument "
                                "'config' must be tuple or Layout, but got the type : "
                                f"{type(element)} .")
        self._dataset_strategy_config = config

    def comm_fusion(self, config):
        if config is not None and not isinstance(config, dict):
            raise TypeError(f"The parameter '{config}' must be {dict}, but got {type(config)}.")
        self._comm_fusion_config = config

    def enable_gradients_mean(self):
        self._gradients_mean = True

    def disable_gradient_fp32_sync(self):
        self._gradient_fp32_sync = False

    def disable_loss_repeated_mean(self):
        self._loss_repeated_mean = False

    def _file(self, key, file_path):
        if not isinstance(file_path, str):
            raise TypeError(f"the argument 'file_path' must be str, but got the type : "
                            f"{type(file_path)} .")
        self._files[key] = file_path

    def save_param_strategy_file(self, file_path):
        self._file("save_param_strategy", file_path)

    def load_param_strategy_file(self, file_path):
        self._file("load_param_strategy", file_path)

    def save_operator_strategy_file(self, file_path):
        self._file("save_operator_strategy", file_path)

    def load_operator_strategy_file(self, file_path):
        self._file("load_operator_strategy", file_path)

    def set_group_ckpt_save_file(self, file_path):
        self._file("group_ckpt_save", file_path)

    def dump_local_norm(self, file_path):
        self._file("dump_local_norm", file_path)

    def transformer_opt(self, file_path):
        self._file("transformer_opt", file_path)

    def _flag(self, name):
        self._flags.add(name)

    def disable_strategy_file_only_for_trainable_params(self):
        self._flag("all_params_in_strategy_file")

    def enable_fp32_communication(self):
        self._flag("fp32_communication")

    def enable_device_local_norm(self):
        self._flag("device_local_norm")

    def print_local_norm(self):
        self._flag("print_local_norm")

    def no_init_parameters_in_compile(self):
        self._flag("no_init_parameters_in_compile")
