"""``mindspore.dataset.Dataset``: the node every pipeline is made of.

A dataset is a tree: sources at the leaves, operations (``map``, ``batch``,
``shuffle``, ...) above them. Calling an operation returns a new node whose
child is the dataset it was called on; nothing runs until an iterator (or a
size/shape query) builds the tree into a grain pipeline, one epoch at a time
(``_stage.py``). Each node class implements three things:

* ``_columns()``: its column names, known without running anything;
* ``_static_size()``: its number of rows if known without running (else None,
  and ``get_dataset_size`` counts by running one epoch, as MindSpore does);
* ``_build(ctx)``: one epoch of itself as a ``Stage``.

The operation classes live in ``datasets_ops.py``, ``datasets_map.py`` and
``datasets_batch.py`` and are re-exported here, where MindSpore has them.
"""
from __future__ import annotations

import numpy as np

from msxla._source import user_location
from msxla.dataset.core import config
from msxla.dataset.engine import _errors
from msxla.dataset.engine._stage import BuildContext

INT32_MAX = 2147483647


def _check_count(name, value, low=1, allow_minus_one=False):
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"Argument {name} with value {value} is not of type [<class 'int'>], "
                        f"but got {type(value)}.")
    if allow_minus_one and value == -1:
        return
    if value < low or value > INT32_MAX:
        if allow_minus_one:
            raise ValueError(f"{name} should be either -1 or within the required interval of "
                             f"({low - 1}, {INT32_MAX}], got {value}.")
        raise ValueError(f"Input {name} is not within the required interval of "
                         f"[{low}, {INT32_MAX}].")


def as_column_list(columns, name="columns"):
    """A column argument (str or list of str) as a list."""
    if columns is None:
        return None
    if isinstance(columns, str):
        return [columns]
    if not isinstance(columns, (list, tuple)) or not all(isinstance(c, str) for c in columns):
        raise TypeError(f"{name} should be a str or a list of str, but got {columns!r}.")
    if not columns:
        raise ValueError(f"{name} should not be empty.")
    if len(set(columns)) != len(columns):
        raise ValueError(f"{name} has duplicate column names: {list(columns)}.")
    return list(columns)


class Dataset:
    """Base of every dataset: the operations, queries and iterators."""

    def __init__(self, children=None, num_parallel_workers=None, cache=None):
        if children is None:
            children = []
        elif isinstance(children, Dataset):
            children = [children]
        self.children = list(children)
        if num_parallel_workers is not None:
            _check_count("num_parallel_workers", num_parallel_workers)
        self.num_parallel_workers = num_parallel_workers
        self.cache = cache
        self._where = user_location()
        self._counted = None
        self._spec = None

    # ------------------------------------------------------------------ protocol
    def _columns(self) -> list:
        return self.children[0]._columns()

    def _static_size(self):
        return self.children[0]._static_size()

    def _build(self, ctx: BuildContext):
        raise NotImplementedError(f"{type(self).__name__} cannot be built")

    def _child_stage(self, ctx, i=0):
        return self.children[i]._build(ctx.child(i))

    def _error(self, message):
        return _errors.pipeline_error(message, type(self).__name__, self._where)

    def _input_index(self, names, what="input column"):
        """Positions of ``names`` among the child's columns (an error at this node if absent)."""
        cols = self.children[0]._columns()
        out = []
        for n in names:
            if n not in cols:
                raise self._error(f"Invalid parameter, {what} name: {n} doesn't exist in the "
                                  f"dataset columns {cols}.")
            out.append(cols.index(n))
        return out

    # ---------------------------------------------------------------- operations
    def map(self, operations, input_columns=None, output_columns=None, num_parallel_workers=None,
            **kwargs):
        """Apply ``operations`` (transforms or Python functions) to each row."""
        return MapDataset(self, operations, input_columns, output_columns, num_parallel_workers,
                          **kwargs)

    def filter(self, predicate, input_columns=None, num_parallel_workers=None):
        """Keep the rows for which ``predicate`` is true."""
        return FilterDataset(self, predicate, input_columns, num_parallel_workers)

    def batch(self, batch_size, drop_remainder=False, num_parallel_workers=None, **kwargs):
        """Stack ``batch_size`` consecutive rows into one (optionally through ``per_batch_map``)."""
        return BatchDataset(self, batch_size, drop_remainder, num_parallel_workers, **kwargs)

    def padded_batch(self, batch_size, drop_remainder=False, num_parallel_workers=None,
                     pad_info=None):
        """``batch`` that first pads columns named in ``pad_info`` to one shape."""
        return BatchDataset(self, batch_size, drop_remainder, num_parallel_workers,
                            pad_info=pad_info, padded=True)

    def bucket_batch_by_length(self, column_names, bucket_boundaries, bucket_batch_sizes,
                               element_length_function=None, pad_info=None,
                               pad_to_bucket_boundary=False, drop_remainder=False):
        """Batch rows of similar length together (one bucket per length range)."""
        return BucketBatchByLengthDataset(self, column_names, bucket_boundaries,
                                          bucket_batch_sizes, element_length_function, pad_info,
                                          pad_to_bucket_boundary, drop_remainder)

    def shuffle(self, buffer_size):
        """Shuffle the rows, anew every epoch."""
        return ShuffleDataset(self, buffer_size)

    def repeat(self, count=None):
        """Run the dataset ``count`` times (None or -1: forever)."""
        return RepeatDataset(self, count)

    def project(self, columns):
        """Keep only ``columns``, in that order."""
        return ProjectDataset(self, columns)

    def rename(self, input_columns, output_columns):
        """Rename columns."""
        return RenameDataset(self, input_columns, output_columns)

    def take(self, count=-1):
        """The first ``count`` rows (-1: all)."""
        return TakeDataset(self, count)

    def skip(self, count):
        """All rows but the first ``count``."""
        return SkipDataset(self, count)

    def zip(self, datasets):
        """Join rows of this and other datasets side by side."""
        if isinstance(datasets, Dataset):
            datasets = (datasets,)
        if not isinstance(datasets, tuple):
            raise TypeError(f"The zip operation needs a tuple of Dataset, but got "
                            f"{type(datasets)}.")
        return ZipDataset((self,) + datasets)

    def concat(self, datasets):
        """This dataset's rows, then the others'."""
        if isinstance(datasets, Dataset):
            datasets = [datasets]
        if not isinstance(datasets, list):
            raise TypeError(f"The concat operation needs a Dataset or a list of Dataset, but got "
                            f"{type(datasets)}.")
        return ConcatDataset([self] + datasets)

    def __add__(self, datasets):
        return self.concat(datasets)

    def split(self, sizes, randomize=True):
        """Split into datasets of the given sizes (ints, or fractions summing to 1)."""
        from msxla.dataset.engine.datasets_ops import split
        return split(self, sizes, randomize)

    def apply(self, apply_func):
        """``apply_func(self)``, which must return a Dataset."""
        if not callable(apply_func):
            raise TypeError("apply_func should be a function.")
        out = apply_func(self)
        if not isinstance(out, Dataset):
            raise TypeError("apply_func must return a dataset.")
        return out

    def flat_map(self, func):
        """``func`` maps each row to a dataset; their rows are concatenated."""
        return FlatMapDataset(self, func)

    # ------------------------------------------------------------------- queries
    def get_col_names(self):
        return list(self._columns())

    def get_dataset_size(self):
        size = self._static_size()
        if size is not None:
            return size
        if self._counted is None:
            self._counted = sum(1 for _ in self._rows_of_one_epoch())
        return self._counted

    def __len__(self):
        return self.get_dataset_size()

    def _rows_of_one_epoch(self):
        stage = self._build(BuildContext(config.run_seed())).to_iter()
        it = iter(stage.ds)
        try:
            yield from it
        finally:
            it.close()

    def _first_row(self):
        if self._spec is None:
            rows = self._rows_of_one_epoch()
            try:
                row = next(rows, None)
            finally:
                rows.close()
            row = () if row is None else row  # MindSpore: [] for an empty dataset
            self._spec = ([list(np.shape(c)) for c in row], [_dtype_of(c) for c in row])
        return self._spec

    def output_shapes(self, estimate=False):
        """The shape of each column of the first row (lists, as in MindSpore)."""
        return [list(s) for s in self._first_row()[0]]

    def output_types(self):
        """The numpy dtype of each column of the first row."""
        return list(self._first_row()[1])

    def get_batch_size(self):
        return self.children[0].get_batch_size() if self.children else 1

    def get_repeat_count(self):
        return self.children[0].get_repeat_count() if self.children else 1

    def get_class_indexing(self):
        if self.children:
            return self.children[0].get_class_indexing()
        return {}

    def num_classes(self):
        return self.children[0].num_classes() if self.children else None

    def is_shuffled(self):
        return any(c.is_shuffled() for c in self.children)

    def is_sharded(self):
        return any(c.is_sharded() for c in self.children)

    def reset(self):
        """Nothing to reset: every iterator builds its own pipeline."""

    # ----------------------------------------------------------------- iterators
    def create_tuple_iterator(self, columns=None, num_epochs=-1, output_numpy=False,
                              do_copy=False):
        """Rows as lists of Tensors (numpy arrays with ``output_numpy``), one epoch per
        ``for`` loop, ``num_epochs`` epochs in all (-1: no limit)."""
        from msxla.dataset.engine.iterators import TupleIterator
        return TupleIterator(self, columns, num_epochs, output_numpy, do_copy)

    def create_dict_iterator(self, num_epochs=-1, output_numpy=False, do_copy=False):
        """Rows as ``{column name: Tensor}`` dicts."""
        from msxla.dataset.engine.iterators import DictIterator
        return DictIterator(self, num_epochs, output_numpy, do_copy)

    def __iter__(self):
        return iter(self.create_tuple_iterator(num_epochs=1))

    def device_que(self, send_epoch_end=True, create_data_info_queue=False, queue_name=""):
        """Sink mode's data queue: on XLA, a tuple iterator the training loop drains."""
        return self.create_tuple_iterator(num_epochs=-1)

    def save(self, file_name, num_files=1, file_type="mindrecord"):
        """Write every row to MindRecord files (``msxla.mindrecord``)."""
        from msxla.mindrecord.dataset_save import save_dataset
        save_dataset(self, file_name, num_files, file_type)


def _dtype_of(col):
    if isinstance(col, (np.ndarray, np.generic)):
        return np.dtype({"U": "<U", "S": "S"}.get(col.dtype.kind, col.dtype))
    return np.dtype(object)


class SourceDataset(Dataset):
    """A leaf: rows come from a file, memory or the user's Python code."""

    def _columns(self):
        raise NotImplementedError

    def _static_size(self):
        return None

    def get_batch_size(self):
        return 1

    def get_repeat_count(self):
        return 1


# The operation classes subclass Dataset, so they are imported after it.
from msxla.dataset.engine.datasets_map import MapDataset, FilterDataset  # noqa: E402
from msxla.dataset.engine.datasets_batch import (  # noqa: E402
    BatchDataset, BatchInfo, BucketBatchByLengthDataset)
from msxla.dataset.engine.datasets_ops import (  # noqa: E402
    ShuffleDataset, RepeatDataset, ProjectDataset, RenameDataset, TakeDataset, SkipDataset,
    ZipDataset, ConcatDataset, FlatMapDataset)


def zip(datasets):  # noqa: A001 - mindspore.dataset.zip
    """Join the rows of several datasets side by side."""
    if not isinstance(datasets, tuple) or len(datasets) < 2:
        raise TypeError("The zip operation needs a tuple of at least two Datasets.")
    return datasets[0].zip(datasets[1:])
