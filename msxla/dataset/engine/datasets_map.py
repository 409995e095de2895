"""``map`` and ``filter``: per-row Python work, where the pipeline's time goes.

``map`` runs its operations on the chosen input columns of each row and puts
the outputs back in MindSpore's column layout: as many outputs as inputs
take the inputs' places (under the output names); otherwise the outputs come
first and the untouched columns follow in their order. On a random-access
stage the row's index seeds its random transforms
(``core.random_state``), so results do not depend on which worker ran them.
``filter`` runs its predicate the same way and ends the random-access stage.
"""
from __future__ import annotations

import numpy as np

from msxla.dataset.core import random_state
from msxla.dataset.engine import _errors, _rows
from msxla.dataset.engine._grain_ops import MapIter
from msxla.dataset.engine._stage import workers_of
from msxla.dataset.engine.datasets import Dataset, as_column_list


def _op_list(operations):
    ops = list(operations) if isinstance(operations, (list, tuple)) else [operations]
    if not ops:
        raise ValueError("operations can not be empty.")
    for op in ops:
        if not callable(op):
            raise TypeError(f"Operation {op!r} is not callable: map needs transforms or "
                            f"Python functions.")
    return ops


def _op_name(op):
    from msxla.dataset.transforms.transforms import TensorOperation
    if isinstance(op, TensorOperation):
        return type(op).__name__, True
    name = getattr(op, "__name__", type(op).__name__)
    return f"PyFunc '{name}'", False


def _outputs(value):
    """An operation's result as a tuple of columns."""
    if isinstance(value, tuple):
        return tuple(_final(v) for v in value)
    return (_final(value),)


def _final(value):
    if isinstance(value, np.ndarray):
        return value
    from PIL import Image
    if isinstance(value, Image.Image):
        return np.asarray(value)
    return _rows.to_column(value)


class MapDataset(Dataset):
    """``dataset.map(operations, input_columns, output_columns, ...)``."""

    def __init__(self, child, operations, input_columns=None, output_columns=None,
                 num_parallel_workers=None, python_multiprocessing=False, max_rowsize=None,
                 cache=None, callbacks=None, offload=None):
        super().__init__(child, num_parallel_workers, cache)
        self.operations = _op_list(operations)
        self.input_columns = as_column_list(input_columns, "input_columns")
        self.output_columns = as_column_list(output_columns, "output_columns")
        self.python_multiprocessing = bool(python_multiprocessing)
        self.callbacks = callbacks

    def _layout(self):
        cols = self.children[0]._columns()
        ins = self.input_columns or cols[:1]
        outs = self.output_columns or ins
        in_idx = self._input_index(ins) if self.input_columns else [0]
        if len(ins) == len(outs):
            names = list(cols)
            for i, o in zip(in_idx, outs):
                names[i] = o
            return names, in_idx, None, outs
        rest = [j for j, c in enumerate(cols) if c not in ins]
        return list(outs) + [cols[j] for j in rest], in_idx, rest, outs

    def _columns(self):
        return self._layout()[0]

    def _row_fn(self, ctx):
        _, in_idx, rest, outs = self._layout()
        n_out = len(outs)
        ops = [(op, *_op_name(op)) for op in self.operations]
        base = ctx.seed_for(0x4D)
        epoch, where = ctx.epoch, self._where
        in_names = [self.children[0]._columns()[i] for i in in_idx]

        def apply(index, row):
            args = tuple(row[i] for i in in_idx)
            with random_state.sample_seed(base, index):
                for op, name, builtin in ops:
                    args = self._call(op, name, builtin, args, index, epoch, in_names)
            if len(args) != n_out:
                raise _errors.pipeline_error(
                    f"map operation: the operations returned {len(args)} columns for "
                    f"{_errors.describe_sample(index, epoch)}, but output_columns {outs} "
                    f"names {n_out}; give output_columns with one name per output.",
                    "map", where)
            if rest is None:
                out = list(row)
                for k, i in enumerate(in_idx):
                    out[i] = args[k]
                return tuple(out)
            return args + tuple(row[j] for j in rest)

        return apply

    def _call(self, op, name, builtin, args, index, epoch, in_names):
        try:
            return _outputs(op(*args))
        except _errors.PipelineError:
            raise
        except Exception as e:  # noqa: BLE001
            sample = _errors.describe_sample(index, epoch)
            if builtin:
                raise _errors.pipeline_error(
                    f"map operation: [{name}] failed on {sample}, input columns {in_names}. "
                    f"{type(e).__name__}: {e}", "map", self._where) from None
            raise _errors.user_function_error(f"map operation [{name}]", e, sample, in_names,
                                              self._where) from None

    def _build(self, ctx):
        stage = self._child_stage(ctx)
        fn = self._row_fn(ctx)
        workers = workers_of(self.num_parallel_workers)
        procs = workers if self.python_multiprocessing and workers > 1 else 0
        if stage.random_access:
            return stage.with_ds(stage.ds.map_with_index(fn), workers, procs)
        return stage.with_ds(MapIter(stage.ds, fn))


class FilterDataset(Dataset):
    """``dataset.filter(predicate, input_columns, ...)``: keep rows where it is true."""

    def __init__(self, child, predicate, input_columns=None, num_parallel_workers=None):
        super().__init__(child, num_parallel_workers)
        if not callable(predicate):
            raise TypeError("predicate should be a callable Python function.")
        self.predicate = predicate
        self.input_columns = as_column_list(input_columns, "input_columns")

    def _static_size(self):
        return None

    def _build(self, ctx):
        stage = self._child_stage(ctx)
        cols = self._columns()
        idx = self._input_index(self.input_columns) if self.input_columns \
            else list(range(len(cols)))
        names = [cols[i] for i in idx]
        pred, epoch, where = self.predicate, ctx.epoch, self._where

        def keep(index, row):
            ok = _errors.call_user(pred, tuple(row[i] for i in idx), "filter predicate",
                                   lambda: _errors.describe_sample(index, epoch), names, where)
            return row if bool(np.all(ok)) else None

        if stage.random_access:
            stage = stage.with_ds(stage.ds.map_with_index(keep),
                                  workers_of(self.num_parallel_workers))
            return stage.to_iter()
        return stage.with_ds(MapIter(stage.ds, keep))
