"""Dataset iterators: ``create_tuple_iterator`` / ``create_dict_iterator``.

An iterator runs ``num_epochs`` epochs (-1: no limit). Each epoch builds the
pipeline anew for that epoch (new shuffles, new random augmentations, the
same for the same ``set_seed``) and ends with ``StopIteration``, so one
``for`` loop over the iterator is one epoch, as in MindSpore; asking for a row
after the last epoch is a RuntimeError. Rows come as lists (dicts) of
``Tensor``, or numpy arrays with ``output_numpy=True``; string columns are
numpy arrays either way, as in MindSpore.

A failure anywhere in the pipeline stops it (worker threads and processes
shut down) before the error reaches the caller.
"""
from __future__ import annotations

import atexit
import weakref

import numpy as np

from msxla.dataset.core import config
from msxla.dataset.engine import _errors
from msxla.dataset.engine._stage import BuildContext

_live = weakref.WeakSet()


@atexit.register
def _stop_all():
    for it in list(_live):
        it.stop()


def _to_tensor(col):
    if isinstance(col, (np.ndarray, np.generic)) and col.dtype.kind not in "USO":
        from msxla.common.tensor import Tensor
        return Tensor(col)
    return col


class Iterator:
    """Base of the dataset iterators."""

    def __init__(self, dataset, num_epochs=-1, output_numpy=False, do_copy=False):
        if not isinstance(num_epochs, int) or isinstance(num_epochs, bool) or \
                (num_epochs < 1 and num_epochs != -1):
            raise ValueError(f"num_epochs should be -1 or a positive integer, got {num_epochs}.")
        self.dataset = dataset
        self.num_epochs = num_epochs
        self.output_numpy = bool(output_numpy)
        self.do_copy = do_copy
        self._col_names = dataset.get_col_names()
        self._seed = config.run_seed()
        self._epoch = 0
        self._it = None
        self._batches = 0
        _live.add(self)

    def __iter__(self):
        return self

    def _start_epoch(self):
        if self.num_epochs != -1 and self._epoch >= self.num_epochs:
            raise RuntimeError(
                "EOF buffer encountered. User tries to fetch data beyond the specified number "
                f"of epochs ({self.num_epochs}); create the iterator with a larger num_epochs.")
        stage = self.dataset._build(BuildContext(self._seed, self._epoch)).to_iter()
        self._it = iter(stage.ds)

    def _next_row(self):
        if self._it is None:
            self._start_epoch()
        try:
            row = next(self._it)
        except StopIteration:
            self._close_epoch()
            self._epoch += 1
            raise
        except _errors.PipelineError as e:
            self.stop()
            raise e.with_traceback(None) from None
        except BaseException:
            self.stop()
            raise
        self._batches += 1
        return row

    def _close_epoch(self):
        it, self._it = self._it, None
        if it is not None:
            it.close()

    def stop(self):
        """Stop the pipeline now (threads and worker processes end)."""
        self._close_epoch()
        self.num_epochs = min(self.num_epochs, self._epoch) if self.num_epochs != -1 else 0

    def __del__(self):
        try:
            self._close_epoch()
        except Exception:  # noqa: BLE001 - interpreter shutdown
            pass

    def _convert(self, row):
        if self.output_numpy:
            return list(row)
        return [_to_tensor(c) for c in row]

    def get_col_names(self):
        return list(self._col_names)

    def __deepcopy__(self, memo):
        return self


class TupleIterator(Iterator):
    """Rows as lists of columns (optionally only ``columns``, in that order)."""

    def __init__(self, dataset, columns=None, num_epochs=-1, output_numpy=False, do_copy=False):
        if columns is not None:
            from msxla.dataset.engine.datasets import as_column_list
            columns = as_column_list(columns, "columns")
            dataset = dataset.project(columns)
        super().__init__(dataset, num_epochs, output_numpy, do_copy)

    def __next__(self):
        return self._convert(self._next_row())


class DictIterator(Iterator):
    """Rows as ``{column name: column}`` dicts."""

    def __next__(self):
        row = self._convert(self._next_row())
        return dict(zip(self._col_names, row))
