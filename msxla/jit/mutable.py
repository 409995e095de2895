"""``mutable()``: pass a scalar or container to jit as a graph input, not a constant.

By default a Python scalar argument of a jitted function is baked into the
graph (one graph per value, as in MindSpore). ``mutable(x)`` marks it as a
variable: the graph takes it as an input and is reused for every value.
Containers marked mutable pass their scalars as inputs too.
"""
from __future__ import annotations

from msxla.common.tensor import Tensor
from msxla.options import MutableDict, MutableFloat, MutableInt, MutableList, MutableTuple


def mutable(input_data, dynamic_len=False):
    """Mark ``input_data`` (bool, int, float, Tensor, tuple, list, dict) as variable.

    As in MindSpore the result carries ``__ms_mutable__``, ``__ms_dynamic_len__`` and
    ``__ms_origin_object__`` (``input_data`` itself); a Tensor is marked in place and
    stops being a ``const_arg``."""
    ret = _marked(input_data)
    if isinstance(ret, Tensor):
        ret.const_arg = False
    ret.__ms_mutable__ = True
    ret.__ms_dynamic_len__ = dynamic_len
    ret.__ms_origin_object__ = input_data
    return ret


def _marked(input_data):
    if isinstance(input_data, Tensor):
        return input_data
    if isinstance(input_data, bool):
        return MutableInt(input_data)
    if isinstance(input_data, int):
        return MutableInt(input_data)
    if isinstance(input_data, float):
        return MutableFloat(input_data)
    if isinstance(input_data, tuple):
        return MutableTuple(_check_items(input_data))
    if isinstance(input_data, list):
        return MutableList(_check_items(input_data))
    if isinstance(input_data, dict):
        _check_items(input_data.values())
        return MutableDict(input_data)
    raise TypeError("For 'mutable', the 'input_data' should be one of (bool, int, float, "
                    "Tensor, tuple, list, dict) or their nested structures with no "
                    f"self-reference, but got {type(input_data).__name__}: {input_data}.")


def _check_items(items):
    for x in items:
        if not isinstance(x, (bool, int, float, Tensor, tuple, list, dict)):
            raise TypeError("For 'mutable', the 'input_data' should be one of (bool, int, "
                            "float, Tensor, tuple, list, dict) or their nested structures, "
                            f"but got an element of type {type(x).__name__}.")
    return items
