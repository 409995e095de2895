"""``mindspore.shard`` and ``Cell.shard``: strategies at a function's or Cell's boundary.

``shard(fn, in_strategy, out_strategy=None, parameter_plan=None)`` returns
``fn`` with each Tensor input constrained to its strategy (a tuple of slice
counts or a ``Layout``; ``None`` leaves an input free) and each output to its
``out_strategy``; ``parameter_plan`` (``{parameter name: strategy}``) gives
Parameters their layout. XLA's sharding propagation decides everything in
between. Outside SEMI_AUTO_PARALLEL / AUTO_PARALLEL on several devices the
strategies are ignored, as in MindSpore.
"""
from __future__ import annotations

import functools

from msxla.parallel import _sharding
from msxla.parallel.layout import Layout

__all__ = ["shard", "Layout"]


def _check(in_strategy, out_strategy, parameter_plan):
    if not isinstance(in_strategy, tuple):
        raise TypeError(f"For 'shard', the 'in_strategy' should be a tuple, but got "
                        f"{type(in_strategy).__name__}.")
    if out_strategy is not None and not isinstance(out_strategy, tuple):
        raise TypeError(f"For 'shard', the 'out_strategy' should be None or a tuple, but got "
                        f"{type(out_strategy).__name__}.")
    if parameter_plan is not None and not isinstance(parameter_plan, dict):
        raise TypeError(f"For 'shard', the 'parameter_plan' should be a dict or None, but got "
                        f"{type(parameter_plan).__name__}.")


def _constrain_all(values, strategies, who):
    from msxla.common.tensor import Tensor, wrap
    single = not isinstance(values, tuple)
    items = (values,) if single else values
    out = []
    for i, value in enumerate(items):
        strategy = strategies[i] if i < len(strategies) else None
        if strategy is not None and isinstance(value, Tensor):
            value = wrap(_sharding.constrain(value._data,
                                            _sharding.to_sharding(strategy, value.shape, who)))
        out.append(value)
    return out[0] if single else tuple(out)


def apply_parameter_plan(cell, parameter_plan):
    """Give the named Parameters of ``cell`` their layout."""
    if not parameter_plan or not _sharding.active():
        return
    params = {p.name: p for p in cell.get_parameters()}
    for name, strategy in parameter_plan.items():
        if name not in params:
            raise ValueError(f"For 'shard', the parameter_plan names '{name}', which is not a "
                             f"Parameter of {type(cell).__name__}.")
        params[name].sharding = _sharding.to_sharding(strategy, params[name].shape, "shard")


def sharded(fn, in_strategy, out_strategy, who):
    """``fn`` with its inputs and outputs constrained (when strategies apply)."""

    @functools.wraps(fn)
    def run(*args, **kwargs):
        if not _sharding.active():
            return fn(*args, **kwargs)
        args = _constrain_all(tuple(args), in_strategy, who)
        out = fn(*args, **kwargs)
        return out if out_strategy is None else _constrain_all(out, out_strategy, who)

    return run


def call_sharded(cell, call, args, kwargs):
    """``Cell.__call__`` of a Cell with ``shard`` strategies."""
    in_strategy, out_strategy, parameter_plan = cell._shard_plan
    if not _sharding.active():
        return call(cell, args, kwargs)
    apply_parameter_plan(cell, parameter_plan)
    who = type(cell).__name__
    args = _constrain_all(tuple(args), in_strategy, who)
    out = call(cell, args, kwargs)
    return out if out_strategy is None else _constrain_all(out, out_strategy, who)


def shard(fn, in_strategy, out_strategy=None, parameter_plan=None):
    """``fn`` (a function or Cell) with the given input and output strategies."""
    _check(in_strategy, out_strategy, parameter_plan)
    from msxla.nn.cell import Cell
    if isinstance(fn, Cell):
        fn.shard(in_strategy, out_strategy, parameter_plan)
        return fn
    if parameter_plan:
        raise ValueError("For 'shard', 'parameter_plan' is for a Cell; a function has no "
                         "Parameters of its own.")
    return sharded(fn, in_strategy, out_strategy, getattr(fn, "__name__", "shard"))
