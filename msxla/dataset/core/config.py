"""``mindspore.dataset.config``: settings every pipeline reads when it starts.

The values live in one ``_Settings`` object. Pipelines read them once, when an
iterator (or a size/shape query) builds the pipeline, never while it runs.
The seed has two states, as in MindSpore: until ``set_seed`` is called,
random samplers and ``shuffle`` draw a fresh order on every run (while
``get_seed`` reports the default 5489 and ``DistributedSampler`` uses it, so
that the shards of one job agree); after ``set_seed`` every run is the same.
"""
from __future__ import annotations

import enum
import json
import os
import random

import numpy as np

UINT32_MAX = 4294967295
INT32_MAX = 2147483647
_DEFAULT_SEED = 5489


class ErrorSamplesMode(enum.IntEnum):
    """What a pipeline does with a sample whose processing fails."""

    RETURN = 0
    REPLACE = 1
    SKIP = 2


class _Settings:
    def __init__(self):
        self.seed = _DEFAULT_SEED
        self.seed_set = False
        self.seed_generation = 0  # bumped by every set_seed: eager generators restart
        self.num_parallel_workers = min(8, os.cpu_count() or 1)
        self.prefetch_size = 16
        self.start_method = "fork"
        self.callback_timeout = 60
        self.monitor_sampling_interval = 1000
        self.enable_shared_mem = True
        self.debug_mode = False
        self.error_samples_mode = ErrorSamplesMode.RETURN
        self.iterator_mode = {"do_copy": False, "parallel_convert": False}
        self.auto_num_workers = False
        self.numa_enable = False
        self.enable_watchdog = True
        self.multiprocessing_timeout_interval = 300
        self.dynamic_shape = False
        self.fast_recovery = True
        self.autotune_interval = 0
        self.enable_autotune = False
        self.auto_offload = False
        self.video_backend = "CPU"
        self.sending_batches = 0


_settings = _Settings()


def _check_int(name, value, low, high, low_open=False):
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"{name} isn't of type int.")
    bad_low = value <= low if low_open else value < low
    if bad_low or value > high:
        left = "(" if low_open else "["
        raise ValueError(f"{name} is not within the required range {left}{low}, "
                         f"INT32_MAX({INT32_MAX})].")


def _check_bool(name, value):
    if not isinstance(value, bool):
        raise TypeError(f"{name} isn't of type bool.")


def set_seed(seed):
    """Seed the pipeline's random samplers, shuffles and random transforms
    (and Python's ``random`` and ``numpy.random``, as MindSpore does)."""
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise TypeError("seed isn't of type int.")
    if seed < 0 or seed > UINT32_MAX:
        raise ValueError("seed given is not within the required range [0, UINT32_MAX(4294967295)].")
    _settings.seed, _settings.seed_set = seed, True
    _settings.seed_generation += 1
    random.seed(seed)
    np.random.seed(seed)


def get_seed():
    return _settings.seed


def run_seed():
    """The seed one pipeline run uses: the set seed, or a fresh one per run."""
    if _settings.seed_set:
        return _settings.seed
    return int.from_bytes(os.urandom(4), "little")


def set_num_parallel_workers(num):
    if not isinstance(num, int) or isinstance(num, bool):
        raise TypeError("num isn't of type int.")
    if num <= 0 or num > INT32_MAX:
        raise ValueError("Number of parallel workers given is not within the required range "
                         f"(0, INT32_MAX({INT32_MAX})].")
    _settings.num_parallel_workers = num


def get_num_parallel_workers():
    return _settings.num_parallel_workers


def set_prefetch_size(size):
    if not isinstance(size, int) or isinstance(size, bool):
        raise TypeError("size isn't of type int.")
    if size <= 0 or size > INT32_MAX:
        raise ValueError(f"size is not within the required range (0, INT32_MAX({INT32_MAX})].")
    _settings.prefetch_size = size


def get_prefetch_size():
    return _settings.prefetch_size


def set_multiprocessing_start_method(start_method="fork"):
    if not isinstance(start_method, str):
        raise TypeError("start_method isn't of type str.")
    if start_method not in ("fork", "spawn"):
        raise ValueError(f"start_method should be 'fork' or 'spawn', but got {start_method!r}.")
    _settings.start_method = start_method


def get_multiprocessing_start_method():
    return _settings.start_method


def set_iterator_mode(do_copy=False, parallel_convert=False):
    _check_bool("do_copy", do_copy)
    _check_bool("parallel_convert", parallel_convert)
    _settings.iterator_mode = {"do_copy": do_copy, "parallel_convert": parallel_convert}


def get_iterator_mode():
    return dict(_settings.iterator_mode)


def set_error_samples_mode(error_samples_mode):
    if not isinstance(error_samples_mode, ErrorSamplesMode):
        raise TypeError("error_samples_mode isn't of type ErrorSamplesMode.")
    _settings.error_samples_mode = error_samples_mode


def get_error_samples_mode():
    return _settings.error_samples_mode


def set_debug_mode(debug_mode_flag: bool, debug_hook_list: list = None):
    _check_bool("debug_mode_flag", debug_mode_flag)
    _settings.debug_mode = debug_mode_flag


def get_debug_mode():
    return _settings.debug_mode


def set_video_backend(backend):
    if backend not in ("CPU", "Ascend"):
        raise ValueError("backend should be 'CPU' or 'Ascend'.")
    _settings.video_backend = backend


def get_video_backend():
    return _settings.video_backend


def set_sending_batches(batch_num):
    _check_int("batch_num", batch_num, 0, INT32_MAX)
    _settings.sending_batches = batch_num


def set_enable_autotune(enable, filepath_prefix=None):
    _check_bool("enable", enable)
    _settings.enable_autotune = enable


def get_enable_autotune():
    return _settings.enable_autotune


def _simple(name, check):
    """A plain setting: validated by ``check`` and stored; msxla's engine reads
    none of these (they tune MindSpore's C++ engine)."""
    def setter(value):
        check(name, value)
        setattr(_settings, name, value)

    def getter():
        return getattr(_settings, name)

    return setter, getter


def _positive(name, value):
    _check_int(name, value, 0, INT32_MAX, low_open=True)


def _non_negative(name, value):
    _check_int(name, value, 0, INT32_MAX)


set_callback_timeout, get_callback_timeout = _simple("callback_timeout", _positive)
set_monitor_sampling_interval, get_monitor_sampling_interval = _simple(
    "monitor_sampling_interval", _non_negative)
set_enable_shared_mem, get_enable_shared_mem = _simple("enable_shared_mem", _check_bool)
set_auto_num_workers, get_auto_num_workers = _simple("auto_num_workers", _check_bool)
set_numa_enable, get_numa_enable = _simple("numa_enable", _check_bool)
set_enable_watchdog, get_enable_watchdog = _simple("enable_watchdog", _check_bool)
set_multiprocessing_timeout_interval, get_multiprocessing_timeout_interval = _simple(
    "multiprocessing_timeout_interval", _positive)
set_dynamic_shape, get_dynamic_shape = _simple("dynamic_shape", _check_bool)
set_fast_recovery, get_fast_recovery = _simple("fast_recovery", _check_bool)
set_autotune_interval, get_autotune_interval = _simple("autotune_interval", _non_negative)
set_auto_offload, get_auto_offload = _simple("auto_offload", _check_bool)


def load(file):
    """Read settings from a JSON file (keys as in MindSpore's config file)."""
    with open(file) as f:
        values = json.load(f)
    if "seed" in values:
        set_seed(values["seed"])
    if "numParallelWorkers" in values:
        set_num_parallel_workers(values["numParallelWorkers"])
    if "opConnectorSize" in values:
        set_prefetch_size(values["opConnectorSize"])
