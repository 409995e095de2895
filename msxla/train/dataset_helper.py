"""Datasets as ``Model`` reads them, and MindSpore's ``DatasetHelper``.

``Model`` takes any of:

- a MindSpore dataset (anything with ``create_tuple_iterator``,
  ``get_dataset_size`` and ``get_col_names``): read with one tuple iterator
  per run, as MindSpore does, each epoch ending where the iterator stops;
- any iterable of batches, each a tuple/list of columns or a dict of named
  columns, each column a Tensor or a numpy array. A sized iterable (a list) is
  iterated again every epoch; a generator is read once and kept.

``DataSource.epoch()`` yields one epoch of batches as tuples of Tensors;
``DataSource.stream()`` yields batches without end, continuing into the next
epoch of the data (sink mode with ``sink_size`` draws its steps from it).
``DatasetHelper(dataset, dataset_sink_mode, sink_size, epoch_num)`` iterates
one epoch: per-step batches, or in sink mode one item per sink holding
``sink_size`` batches stacked along a new first axis per column.
"""
from __future__ import annotations

import numpy as np

from msxla.common.tensor import Tensor
from msxla.nn import _checkparam as validator

__all__ = ["DatasetHelper", "connect_network_with_dataset"]


def is_ms_dataset(dataset):
    return hasattr(dataset, "create_tuple_iterator") and hasattr(dataset, "get_dataset_size")


def to_tensor(value, column):
    if isinstance(value, Tensor):
        return value
    try:
        return Tensor(np.asarray(value))
    except (TypeError, ValueError) as err:
        raise TypeError(f"The dataset column {column} holds {type(value).__name__}, which is "
                        "not a Tensor or an array.") from err


def _host_array(value, column):
    if isinstance(value, (Tensor, np.ndarray)):
        return value
    return to_tensor(value, column).asnumpy()


class DataSource:
    """One dataset, read batch by batch (see the module doc)."""

    def __init__(self, dataset):
        self.dataset = dataset
        self.ms_dataset = is_ms_dataset(dataset)
        self._names = None
        self._iterator = None
        if self.ms_dataset:
            self._names = list(dataset.get_col_names()) if hasattr(dataset, "get_col_names") \
                else None
        elif not hasattr(dataset, "__iter__"):
            raise TypeError("The dataset must be a MindSpore dataset or an iterable of batches "
                            f"(tuples or dicts of Tensors or numpy arrays), but got "
                            f"{type(dataset).__name__}.")
        elif not hasattr(dataset, "__len__") or iter(dataset) is dataset:
            self.dataset = list(dataset)  # a generator: read it once, keep the batches

    def get_dataset_size(self):
        if self.ms_dataset:
            return self.dataset.get_dataset_size()
        return len(self.dataset)

    @property
    def column_names(self):
        """The names of the columns (``column 0``... when the batches are not dicts)."""
        return self._names

    def open(self, num_epochs=-1, host=False):
        """Start a run of ``num_epochs`` epochs (MindSpore datasets: one iterator; with
        ``host``, one that yields numpy arrays, for batches that are stacked first)."""
        if self.ms_dataset:
            kwargs = {"output_numpy": True} if host else {"do_copy": True}
            self._iterator = self.dataset.create_tuple_iterator(num_epochs=num_epochs,
                                                                **kwargs)

    def _raw_epoch(self):
        if self.ms_dataset:
            if self._iterator is None:
                self.open()
            return self._iterator
        return iter(self.dataset)

    def epoch(self, host=False):
        """One epoch of batches, each a tuple of Tensors (``host``: numpy arrays stay
        numpy arrays, so stacking a sink copies nothing to the device and back)."""
        for batch in self._raw_epoch():
            yield self.columns(batch, host)

    def stream(self, host=False):
        """Batches without end: the next epoch starts where one ends."""
        while True:
            empty = True
            for batch in self.epoch(host):
                empty = False
                yield batch
            if empty:
                raise ValueError("There is no valid data in dataset, please check dataset file "
                                 "firstly.")
            self.reset()

    def reset(self):
        reset = getattr(self.dataset, "reset", None)
        if self.ms_dataset and callable(reset):
            reset()

    def columns(self, batch, host=False):
        convert = _host_array if host else to_tensor
        if isinstance(batch, dict):
            if self._names is None:
                self._names = list(batch)
            return tuple(convert(v, repr(k)) for k, v in batch.items())
        if isinstance(batch, (Tensor, np.ndarray)):
            batch = (batch,)
        if not isinstance(batch, (tuple, list)):
            raise TypeError("Each batch of the dataset must be a tuple, list or dict of columns, "
                            f"but got {type(batch).__name__}.")
        return tuple(convert(v, self.column_label(i)) for i, v in enumerate(batch))

    def column_label(self, i):
        if self._names is not None and i < len(self._names):
            return repr(self._names[i])
        return str(i)

    def describe(self, batch):
        """``'image': Float32 (32, 1, 28, 28), 'label': Int32 (32,)`` for error messages."""
        return ", ".join(f"{self.column_label(i)}: {t.dtype} {tuple(t.shape)}"
                         for i, t in enumerate(batch))


def stack_batches(batches, source):
    """``sink_size`` batches as one tuple of Tensors, each with a new first axis."""
    out = []
    for i, column in enumerate(zip(*batches)):
        shapes = {tuple(t.shape) for t in column}
        dtypes = {t.dtype for t in column}
        if len(shapes) > 1 or len(dtypes) > 1:
            raise ValueError(
                f"Dataset sink mode needs every batch of a sink to have the same shape and dtype, "
                f"but the column {source.column_label(i)} has shapes {sorted(shapes)} and dtypes "
                f"{sorted(map(str, dtypes))}. Drop the last smaller batch (batch(..., "
                "drop_remainder=True)) or train with dataset_sink_mode=False.")
        out.append(Tensor(np.stack([t.asnumpy() if isinstance(t, Tensor) else t
                                    for t in column])))
    return tuple(out)


class DatasetHelper:
    """MindSpore's ``DatasetHelper``: iterating it gives one epoch of inputs.

    Args:
        dataset: the dataset (see the module doc).
        dataset_sink_mode (bool): yield one stacked item per sink instead of batches.
        sink_size (int): batches per sink (-1: the whole dataset).
        epoch_num (int): epochs the run will read.
    """

    def __init__(self, dataset, dataset_sink_mode=True, sink_size=-1, epoch_num=1):
        validator.check_bool(dataset_sink_mode)
        if not isinstance(sink_size, int) or isinstance(sink_size, bool):
            raise TypeError(f"The 'sink_size' must be int, but got {type(sink_size).__name__}.")
        if sink_size < -1 or sink_size == 0:
            raise ValueError(f"The 'sink_size' must be -1 or positive, but got sink_size "
                             f"{sink_size}.")
        self.source = dataset if isinstance(dataset, DataSource) else DataSource(dataset)
        self._sink = dataset_sink_mode
        self._sink_size = self.source.get_dataset_size() if sink_size == -1 else sink_size
        self.source.open(-1 if dataset_sink_mode else epoch_num)
        self._stream = None

    def __iter__(self):
        if not self._sink:
            return self.source.epoch()
        return iter([self.next_sink()])

    def next_sink(self):
        """The next ``sink_size`` batches, stacked."""
        if self._stream is None:
            self._stream = self.source.stream()
        batches = [next(self._stream) for _ in range(self._sink_size)]
        return stack_batches(batches, self.source)

    def sink_size(self):
        """Batches per sink (1 without sink mode)."""
        return self._sink_size if self._sink else 1

    def types_shapes(self):
        """The dtypes and shapes of one batch's columns."""
        first = next(iter(self.source.epoch()))
        self.source.open()
        return [t.dtype for t in first], [tuple(t.shape) for t in first]

    def stop_send(self):
        """Nothing is queued on a device between sinks: nothing to stop."""

    def release(self):
        self._stream = None

    def continue_send(self):
        """Nothing is queued on a device between sinks: nothing to resume."""


def connect_network_with_dataset(network, dataset_helper):
    """MindSpore binds a network to the device queue of a sink; msxla passes each sink's
    stacked batches to the network's compiled loop instead, so the network is returned."""
    if not isinstance(dataset_helper, DatasetHelper) or not dataset_helper._sink:
        raise RuntimeError("The API 'connect_network_with_dataset' should be called in dataset "
                           "sink mode.")
    return network
