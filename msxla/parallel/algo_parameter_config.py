"""``set_algo_parameters`` / ``get_algo_parameters`` / ``reset_algo_parameters``:
the knobs of MindSpore's strategy search for ``auto_parallel`` (``mindspore.parallel``).

msxla takes its shardings from the strategies a script gives (semi-auto
parallel) and from XLA's SPMD partitioner, so there is no strategy search for
these to steer: they are checked and kept, with MindSpore's names, types and
defaults, so that scripts setting them run and read back what they set.
"""
from __future__ import annotations

_DEFAULTS = {
    "fully_use_devices": False,
    "elementwise_op_strategy_follow": False,
    "enable_algo_approxi": False,
    "algo_approxi_epsilon": 0.1,
    "tensor_slice_align_enable": False,
    "tensor_slice_align_size": 16,
}
_values = dict(_DEFAULTS)


def _check(key, value):
    if key not in _DEFAULTS:
        raise ValueError(f"Set context keyword {key} is not recognized!")
    kind = type(_DEFAULTS[key])
    ok = isinstance(value, bool) if kind is bool else (
        isinstance(value, (int, float)) and not isinstance(value, bool))
    if not ok:
        raise TypeError(f"The parameter '{key}' must be {kind}, but got {type(value)}")
    if key == "algo_approxi_epsilon" and not 0 < value <= 1:
        raise RuntimeError(f"'epsilon' must be in (0, 1], but got {value}.")
    if key == "tensor_slice_align_size" and not 1 <= value <= 1024:
        raise ValueError(f"Align_size must be in [1, 1024], but got {value}.")
    return kind(value)


def set_algo_parameters(**kwargs):
    """Set strategy-search parameters (``fully_use_devices``,
    ``elementwise_op_strategy_follow``, ``enable_algo_approxi``,
    ``algo_approxi_epsilon``, ``tensor_slice_align_enable``, ``tensor_slice_align_size``)."""
    checked = {k: _check(k, v) for k, v in kwargs.items()}
    _values.update(checked)


def get_algo_parameters(attr_key):
    """The value of one strategy-search parameter."""
    if attr_key not in _values:
        raise ValueError(f"Get context keyword {attr_key} is not recognized!")
    return _values[attr_key]


def reset_algo_parameters():
    """Every strategy-search parameter back to its default."""
    _values.clear()
    _values.update(_DEFAULTS)


__all__ = ["set_algo_parameters", "get_algo_parameters", "reset_algo_parameters"]
