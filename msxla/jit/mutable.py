"""``mutable()``: pass a scalar or container to jit as a graph input, not a constant.

By default a Python scalar argument of a jitted function is baked into the
graph (one graph per value, as in MindSpore). ``mutable(x)`` marks it as a
variable: the graph takes it as an input and is reused for every value.
Containers marked mutable pass their scalars as inputs too.
"""
from __future__ import annotations


class _Int(int):
    pass


class _Float(float):
    pass


class _Tuple(tuple):
    pass


class _List(list):
    pass


class _Dict(dict):
    pass


MUTABLE_SCALARS = frozenset({_Int, _Float})
MUTABLE_CONTAINERS = frozenset({_Tuple, _List, _Dict})


def mutable(input_data, dynamic_len=False):
    """Mark ``input_data`` (bool, int, float, Tensor, tuple, list, dict) as variable."""
    from msxla.common.tensor import Tensor
    if isinstance(input_data, Tensor):
        return input_data
    if isinstance(input_data, bool):
        return _Int(input_data)
    if isinstance(input_data, int):
        return _Int(input_data)
    if isinstance(input_data, float):
        return _Float(input_data)
    if isinstance(input_data, tuple):
        return _Tuple(_check_items(input_data))
    if isinstance(input_data, list):
        return _List(_check_items(input_data))
    if isinstance(input_data, dict):
        _check_items(input_data.values())
        return _Dict(input_data)
    raise TypeError("For 'mutable', the 'input_data' should be one of (bool, int, float, "
                    "Tensor, tuple, list, dict) or their nested structures with no "
                    f"self-reference, but got {type(input_data).__name__}: {input_data}.")


def _check_items(items):
    from msxla.common.tensor import Tensor
    for x in items:
        if not isinstance(x, (bool, int, float, Tensor, tuple, list, dict)):
            raise TypeError("For 'mutable', the 'input_data' should be one of (bool, int, "
                            "float, Tensor, tuple, list, dict) or their nested structures, "
                            f"but got an element of type {type(x).__name__}.")
    return items
