"""``mindspore.SummaryRecord``: write scalars, images, tensors and histograms to
an event file that TensorBoard opens.

``add_value(plugin, name, value)`` queues a value; ``record(step)`` adds what
the network's summary ops (``ops.ScalarSummary`` ...) delivered since the last
record (in ``'train'`` mode) and writes the queue as one event of that step.
The file is named as MindSpore names it
(``events.out.events.summary.<seconds>.<device>.<host>_MS``) and written by
``_event_file`` (tensorboardX), synchronously. MindSpore's lineage, graph and
loss-landscape plugins (protobufs for MindInsight) are accepted by
``add_value`` and not written.
"""
from __future__ import annotations

import atexit
import logging
import os
import re
import threading
import time
from collections import defaultdict

import numpy as np

from msxla.common.tensor import Tensor
from msxla.ops.summary_ops import take_summary_data
from msxla.train.summary._event_file import EventFile, event_file_name

__all__ = ["SummaryRecord"]

_VALUE_PLUGINS = ("tensor", "scalar", "image", "histogram")
_OTHER_PLUGINS = ("train_lineage", "eval_lineage", "dataset_graph", "custom_lineage_data",
                  "graph", "landscape")
_count_lock = threading.Lock()
_log = logging.getLogger("msxla")


def _to_numpy(plugin, value, who):
    array = np.array(value.asnumpy())
    if plugin == "scalar" and array.size != 1:
        raise ValueError(f'For "{who}", the v rank must be less than or equal to 1, '
                         f'but got {len(array)}.')
    if plugin == "image" and array.ndim != 4:
        raise ValueError(f'For "{who}", the tensor seems not to hold a valid image.')
    if plugin in ("tensor", "histogram") and array.ndim == 0:
        raise ValueError(f'For "{who}", the value should not be empty.')
    return array


def _check_name(value, what):
    if not isinstance(value, str) or re.fullmatch(r"[\w\-.]*", value) is None:
        raise ValueError(f"The {what} '{value}' is not a valid string: use letters, digits, "
                         "'_', '-' and '.'.")


class SummaryRecord:
    """Write summary data of a training run to an event file in ``log_dir``.

    Only one SummaryRecord may be open in a process (as in MindSpore); use it as
    a context manager or call ``close()``.
    """

    count = 0

    def __init__(self, log_dir, file_prefix="events", file_suffix="_MS", num_process=32,
                 network=None, max_file_size=None, raise_exception=False, export_options=None):
        with _count_lock:
            if SummaryRecord.count > 0:
                raise RuntimeError(
                    f"For '{type(self).__name__}', only one instance is supported in a training "
                    "process, you are trying to create a new one when the existing instance "
                    f"number is {SummaryRecord.count}. Please check your scripts.")
            SummaryRecord.count += 1
        self._closed = True
        try:
            if not isinstance(log_dir, str) or not log_dir:
                raise ValueError(f"For '{type(self).__name__}', the 'log_dir' should be a "
                                 f"non-empty str, but got {log_dir!r}.")
            if not isinstance(file_prefix, str) or not isinstance(file_suffix, str):
                raise TypeError(f"For '{type(self).__name__}', `file_prefix` and `file_suffix` "
                                f" should be str, but got type {type(file_prefix)}")
            _check_name(file_prefix, "file_prefix")
            _check_name(file_suffix, "file_suffix")
            if not isinstance(max_file_size, (int, type(None))):
                raise TypeError(f"For '{type(self).__name__}', the 'max_file_size' should be int "
                                f"type, but got type {type(max_file_size)}")
            if max_file_size is not None and max_file_size < 0:
                max_file_size = None
            if not isinstance(raise_exception, bool):
                raise TypeError(f"The 'raise_exception' must be bool, but got "
                                f"{type(raise_exception).__name__}.")
            base = os.path.realpath(os.path.expanduser(log_dir))
            os.makedirs(base, exist_ok=True)
            name = event_file_name(file_prefix, file_suffix, int(time.time()))
            self._file = EventFile(os.path.join(base, name), max_file_size)
        except BaseException:
            with _count_lock:
                SummaryRecord.count -= 1
            raise
        self._closed = False
        self.network = network
        self._mode = "train"
        self._pool = defaultdict(list)
        self._raise = raise_exception
        take_summary_data()  # values from before this record started are not its own
        atexit.register(self.close)

    def __enter__(self):
        if self._closed:
            raise ValueError(f'For "{type(self).__name__}", SummaryRecord has been closed, '
                             "please check if close() method is called")
        return self

    def __exit__(self, *err):
        self.close()

    @property
    def log_dir(self):
        """The full path of the event file."""
        return self._file.path

    def set_mode(self, mode):
        """``'train'`` records the summary ops' values; ``'eval'`` leaves them out."""
        if mode not in ("train", "eval"):
            raise ValueError(f'For "{type(self).__name__}.set_mode", {mode!r} is not a '
                             'recognized mode, expect the parameter "mode" is "train" or "eval"')
        self._mode = mode

    def add_value(self, plugin, name, value):
        """Queue ``value`` (a Tensor for scalar/image/tensor/histogram) under ``name``."""
        if plugin in _VALUE_PLUGINS:
            if not name or not isinstance(name, str):
                raise ValueError(f'For "{type(self).__name__}", the parameter "name" type should '
                                 f"be str, but got {type(name)}.")
            if not isinstance(value, Tensor):
                raise TypeError(f'For "{type(self).__name__}", the parameter "value" expect to '
                                f"be Tensor, but got {type(value).__name__}")
            array = _to_numpy(plugin, value, type(self).__name__)
            queued = self._pool[plugin]
            if any(tag == name for tag, _ in queued):
                _log.warning("For \"%s.add_value\", '%s/%s' has duplicate values. Only the newest "
                             "one will be recorded.", type(self).__name__, name, plugin)
                queued[:] = [(tag, v) for tag, v in queued if tag != name]
            queued.append((name, array))
        elif plugin in _OTHER_PLUGINS:
            pass  # MindInsight's lineage / graph / landscape protobufs: not written here
        else:
            raise ValueError(f'For "{type(self).__name__}.add_value", no such "plugin" of '
                             f"{plugin!r} , expect value is one of [tensor, scalar, image, "
                             "histogram, train_lineage, eval_lineage, dataset_graph, "
                             "custom_lineage_data, graph, landscape]")

    def record(self, step, train_network=None, plugin_filter=None):
        """Write the queued values (and, in train mode, the summary ops' values) for ``step``.

        Returns False when the record is closed."""
        from msxla.nn.cell import Cell
        if not isinstance(step, int) or isinstance(step, bool):
            raise TypeError(f"The 'step' must be int, but got {type(step).__name__}.")
        if train_network is not None and not isinstance(train_network, Cell):
            raise TypeError("The 'train_network' must be Cell or None, but got "
                            f"{type(train_network).__name__}.")
        if self._closed:
            _log.error("For '%s', The record writer is closed, please check if close() method "
                       "is called", type(self).__name__)
            return False
        if self._mode == "train":
            for key, array in take_summary_data().items():
                tag, kind = re.fullmatch(r"(.+)\[:(.+)\]", key).groups()
                self.add_value(kind.lower(), tag, Tensor(array))
        pool, self._pool = self._pool, defaultdict(list)
        if plugin_filter is not None:
            pool = {p: v for p, v in pool.items() if plugin_filter(p)}
        try:
            self._file.write(step, pool)
        except Exception:  # noqa: BLE001 - MindSpore logs a failed write unless asked to raise
            if self._raise:
                raise
            _log.exception("SummaryRecord could not write step %s", step)
        return True

    def flush(self):
        """Write buffered events to disk."""
        if self._closed:
            _log.error("For '%s', the record writer is closed and can not flush, please check "
                       "if close() method is called", type(self).__name__)
        else:
            self._file.flush()

    def close(self):
        """Flush and close the event file."""
        if not self._closed:
            atexit.unregister(self.close)
            self._file.close()
            self._closed = True
            with _count_lock:
                SummaryRecord.count -= 1
