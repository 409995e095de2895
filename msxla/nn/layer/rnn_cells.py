"""Single-step recurrent cells: ``RNNCell``, ``LSTMCell`` and ``GRUCell``.

Each step is one of the functions below over jax arrays (the sequence layers
in ``rnns.py`` scan the same functions over time). Weights are MindSpore's:
``weight_ih`` (gates * hidden, input), ``weight_hh`` (gates * hidden, hidden),
``bias_ih`` / ``bias_hh`` (gates * hidden,), all initialised U(-1/sqrt(hidden),
1/sqrt(hidden)). Gate order: LSTM (input, forget, cell, output), GRU (reset,
update, new): ``n = tanh(x W_in + b_in + r * (h W_hn + b_hn))``,
``h' = n + z * (h - n)``.
"""
from __future__ import annotations

import math

import jax.numpy as jnp
import numpy as np

from msxla.common import dtype as mstype
from msxla.common.initializer import Uniform, initializer
from msxla.common.parameter import Parameter
from msxla.common.tensor import Tensor, wrap
from msxla.nn._checkparam import check_positive_int, check_value_type
from msxla.nn.cell import Cell

__all__ = ["LSTMCell", "GRUCell", "RNNCell"]


def _gates(x, h, w_ih, w_hh, b_ih, b_hh):
    gi = x @ w_ih.T
    gh = h @ w_hh.T
    if b_ih is not None:
        gi, gh = gi + b_ih, gh + b_hh
    return gi, gh


def _rnn_tanh_cell(x, h, w_ih, w_hh, b_ih, b_hh):
    gi, gh = _gates(x, h, w_ih, w_hh, b_ih, b_hh)
    return jnp.tanh(gi + gh)


def _rnn_relu_cell(x, h, w_ih, w_hh, b_ih, b_hh):
    gi, gh = _gates(x, h, w_ih, w_hh, b_ih, b_hh)
    return jnp.maximum(gi + gh, 0)


def _lstm_cell(x, state, w_ih, w_hh, b_ih, b_hh):
    hx, cx = state
    gi, gh = _gates(x, hx, w_ih, w_hh, b_ih, b_hh)
    i, f, g, o = jnp.split(gi + gh, 4, axis=1)
    cy = _sigmoid(f) * cx + _sigmoid(i) * jnp.tanh(g)
    return _sigmoid(o) * jnp.tanh(cy), cy


def _gru_cell(x, h, w_ih, w_hh, b_ih, b_hh):
    gi, gh = _gates(x, h, w_ih, w_hh, b_ih, b_hh)
    i_r, i_z, i_n = jnp.split(gi, 3, axis=1)
    h_r, h_z, h_n = jnp.split(gh, 3, axis=1)
    r = _sigmoid(i_r + h_r)
    z = _sigmoid(i_z + h_z)
    n = jnp.tanh(i_n + r * h_n)
    return n + z * (h - n)


def _sigmoid(x):
    return 1 / (1 + jnp.exp(-x))


CELLS = {"RNN_TANH": _rnn_tanh_cell, "RNN_RELU": _rnn_relu_cell, "LSTM": _lstm_cell,
         "GRU": _gru_cell}


def check_tensor(name, value, cls_name):
    if value is not None and not isinstance(value, Tensor):
        raise TypeError(f"For '{cls_name}', the '{name}' must be '<class "
                        f"'mindspore._c_expression.typing.TensorType'>', but got "
                        f"'{_type_name(value)}'")


def check_tuple(name, value, cls_name, length=2):
    if value is not None and not isinstance(value, tuple):
        raise TypeError(f"For '{cls_name}', the '{name}' must be '<class "
                        f"'mindspore._c_expression.typing.Tuple'>', but got '{_type_name(value)}'")
    if value is not None and len(value) != length:
        raise TypeError(f"For '{cls_name}', the length of '{name}' must be '{length}', but got "
                        f"'{len(value)}'")


def check_dtype_name(name, dtype, valid, cls_name):
    """MindSpore's ``check_type_name``: ``dtype`` is one of ``valid``."""
    if dtype not in valid:
        many = len(valid) > 1
        names = "[" + ", ".join(repr(t) for t in valid) + "]" if many else repr(valid[0])
        raise TypeError(f"For '{cls_name}', the '{name}' should be {'one of ' if many else ''}"
                        f"{names}, but got '{dtype!r}'.")


def check_float_dtype(name, dtype, cls_name):
    check_dtype_name(name, dtype, (mstype.float32, mstype.float16), cls_name)


def _type_name(value):
    """MindSpore's ``typeof`` text of a value (``Tensor[Float32]``, ``Int64``, ...)."""
    if isinstance(value, Tensor):
        return f"Tensor[{value.dtype}]"
    if isinstance(value, (list, tuple)):
        return type(value).__name__.capitalize()
    return {int: "Int64", float: "Float32", bool: "Bool", str: "String"}.get(
        type(value), type(value).__name__)


class RNNCellBase(Cell):
    """Shared Parameters of the recurrent cells (``num_chunks`` gate blocks)."""

    def __init__(self, input_size: int, hidden_size: int, has_bias: bool, num_chunks: int,
                 dtype=mstype.float32):
        super().__init__()
        check_value_type("has_bias", has_bias, [bool], self.cls_name)
        check_positive_int(hidden_size, "hidden_size", self.cls_name)
        check_positive_int(input_size, "input_size", self.cls_name)
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.has_bias = has_bias
        rows = num_chunks * hidden_size
        zeros = Tensor(np.zeros((rows, input_size), np.float32), dtype=dtype)
        self.weight_ih = Parameter(zeros)
        self.weight_hh = Parameter(Tensor(np.zeros((rows, hidden_size), np.float32), dtype=dtype))
        if has_bias:
            self.bias_ih = Parameter(Tensor(np.zeros(rows, np.float32), dtype=dtype))
            self.bias_hh = Parameter(Tensor(np.zeros(rows, np.float32), dtype=dtype))
        else:
            self.bias_ih = None
            self.bias_hh = None
        self.reset_parameters(dtype=dtype)

    def reset_parameters(self, dtype=mstype.float32):
        stdv = 1 / math.sqrt(self.hidden_size)
        for weight in self.get_parameters():
            weight.set_data(initializer(Uniform(stdv), weight.shape, dtype))

    def _weights(self, dtype):
        np_dtype = dtype.np_dtype
        ws = [self.weight_ih._data.astype(np_dtype), self.weight_hh._data.astype(np_dtype)]
        if self.has_bias:
            ws += [self.bias_ih._data.astype(np_dtype), self.bias_hh._data.astype(np_dtype)]
        else:
            ws += [None, None]
        return ws


class RNNCell(RNNCellBase):
    """One Elman RNN step: ``h' = act(x W_ih^T + b_ih + h W_hh^T + b_hh)`` (tanh or relu)."""

    _non_linearity = ["tanh", "relu"]

    def __init__(self, input_size: int, hidden_size: int, has_bias: bool = True,
                 nonlinearity: str = "tanh", dtype=mstype.float32):
        super().__init__(input_size, hidden_size, has_bias, num_chunks=1, dtype=dtype)
        check_value_type("nonlinearity", nonlinearity, [str], self.cls_name)
        if nonlinearity not in self._non_linearity:
            raise ValueError(f"For '{self.cls_name}', the 'nonlinearity' must be str and must be in "
                             f"'{self._non_linearity}', but got '{nonlinearity}'.")
        self.nonlinearity = nonlinearity

    def construct(self, x, hx):
        check_tensor("x", x, self.cls_name)
        check_tensor("hx", hx, self.cls_name)
        check_float_dtype("x", x.dtype, self.cls_name)
        check_float_dtype("hx", hx.dtype, self.cls_name)
        step = _rnn_tanh_cell if self.nonlinearity == "tanh" else _rnn_relu_cell
        return wrap(step(x._data, hx._data, *self._weights(x.dtype)))


class LSTMCell(RNNCellBase):
    """One LSTM step: ``(h, c) -> (h', c')`` with gates (input, forget, cell, output)."""

    def __init__(self, input_size: int, hidden_size: int, has_bias: bool = True,
                 dtype=mstype.float32):
        super().__init__(input_size, hidden_size, has_bias, num_chunks=4, dtype=dtype)
        self.support_non_tensor_inputs = True

    def construct(self, x, hx):
        check_tensor("x", x, self.cls_name)
        check_tuple("hx", hx, self.cls_name)
        check_tensor("hx[0]", hx[0], self.cls_name)
        check_tensor("hx[1]", hx[1], self.cls_name)
        check_float_dtype("x", x.dtype, self.cls_name)
        check_float_dtype("hx[0]", hx[0].dtype, self.cls_name)
        check_float_dtype("hx[1]", hx[1].dtype, self.cls_name)
        h, c = _lstm_cell(x._data, (hx[0]._data, hx[1]._data), *self._weights(x.dtype))
        return wrap(h), wrap(c)


class GRUCell(RNNCellBase):
    """One GRU step with gates (reset, update, new)."""

    def __init__(self, input_size: int, hidden_size: int, has_bias: bool = True,
                 dtype=mstype.float32):
        super().__init__(input_size, hidden_size, has_bias, num_chunks=3, dtype=dtype)

    def construct(self, x, hx):
        check_tensor("x", x, self.cls_name)
        check_tensor("hx", hx, self.cls_name)
        check_float_dtype("x", x.dtype, self.cls_name)
        check_float_dtype("hx", hx.dtype, self.cls_name)
        return wrap(_gru_cell(x._data, hx._data, *self._weights(x.dtype)))
