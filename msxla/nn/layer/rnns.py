"""Sequence recurrent layers ``RNN``, ``GRU`` and ``LSTM`` on ``lax.scan``.

One layer and direction is one ``lax.scan`` of a step function of
``rnn_cells.py`` over time (time-major inside; ``batch_first`` transposes in
and out), so a sequence compiles to one loop whatever its length. The scan
is a ``jax.jit`` function, so PyNative runs it as one cached executable (and
under jit it is inlined into the caller's graph). Parameters
follow MindSpore: ``weight_ih_l{k}[_reverse]``, ``weight_hh_l{k}[_reverse]``,
``bias_ih_l{k}[_reverse]``, ``bias_hh_l{k}[_reverse]``, held in ParameterTuples
and initialised U(-1/sqrt(hidden), 1/sqrt(hidden)) from numpy's global RNG.

``seq_length`` (one length per batch entry): past its length an entry keeps
its state and outputs zeros, and the reverse direction runs over each
entry's valid prefix reversed (MindSpore's ReverseSequence). Dropout applies
to the outputs of every layer but the last, in training mode.
"""
from __future__ import annotations

import functools
import logging
import math

import jax
import jax.numpy as jnp
import numpy as np

from msxla.common import dtype as mstype
from msxla.common.parameter import Parameter, ParameterTuple
from msxla.common.tensor import Tensor, wrap
from msxla.nn._checkparam import check_is_float, check_positive_int, check_value_type
from msxla.nn.cell import Cell
from msxla.nn.layer.basic import Dropout
from msxla.nn.layer.rnn_cells import CELLS, check_dtype_name, check_tensor, check_tuple

__all__ = ["LSTM", "GRU", "RNN"]

_GATES = {"LSTM": 4, "GRU": 3, "RNN_TANH": 1, "RNN_RELU": 1}


@functools.partial(jax.jit, static_argnums=0)
def _scan(mode, x, h0, seq_length, weights):
    """Run one direction over time-major ``x`` (T, B, I): (outputs (T, B, H), final state)."""
    step = CELLS[mode]
    lstm = mode == "LSTM"

    if seq_length is None:
        def body(state, x_t):
            new = step(x_t, state, *weights)
            return new, (new[0] if lstm else new)
        final, out = jax.lax.scan(body, h0, x)
        return out, final

    def masked(state, inputs):
        x_t, t = inputs
        new = step(x_t, state, *weights)
        keep = (seq_length > t)[:, None]
        if lstm:
            state = (jnp.where(keep, new[0], state[0]), jnp.where(keep, new[1], state[1]))
            return state, jnp.where(keep, new[0], 0)
        return jnp.where(keep, new, state), jnp.where(keep, new, 0)
    final, out = jax.lax.scan(masked, h0, (x, jnp.arange(x.shape[0])))
    return out, final


class _DynamicRNNBase(Cell):
    """The recurrence of one layer and direction (MindSpore's per-mode inner Cell;
    its name shows in the layer's repr)."""

    mode = "RNN_TANH"

    def construct(self, x, h0, seq_length, weights):
        return _scan(self.mode, x, h0, seq_length, weights)


class _DynamicRNNTanh(_DynamicRNNBase):
    mode = "RNN_TANH"


class _DynamicRNNRelu(_DynamicRNNBase):
    mode = "RNN_RELU"


class _DynamicGRUCPUGPU(_DynamicRNNBase):
    mode = "GRU"


class _DynamicLSTMCPUGPU(_DynamicRNNBase):
    mode = "LSTM"


_INNER = {"LSTM": _DynamicLSTMCPUGPU, "GRU": _DynamicGRUCPUGPU, "RNN_TANH": _DynamicRNNTanh,
          "RNN_RELU": _DynamicRNNRelu}


@jax.jit
def _reverse(x, seq_length):
    """Reverse time (axis 0), or each batch entry's first ``seq_length`` steps."""
    if seq_length is None:
        return x[::-1]
    t = jnp.arange(x.shape[0])[:, None]
    idx = jnp.where(t < seq_length[None, :], seq_length[None, :] - 1 - t, t)
    return jnp.take_along_axis(x, idx[:, :, None], axis=0)


class _RNNBase(Cell):
    """Stacked (and optionally bidirectional) recurrent layers of one mode."""

    def __init__(self, mode, input_size, hidden_size, num_layers=1, has_bias=True,
                 batch_first=False, dropout=0., bidirectional=False, dtype=mstype.float32):
        super().__init__()
        name = self.cls_name
        check_positive_int(hidden_size, "hidden_size", name)
        check_positive_int(input_size, "input_size", name)
        check_positive_int(num_layers, "num_layers", name)
        check_is_float(dropout, "dropout", name)
        check_value_type("has_bias", has_bias, [bool], name)
        check_value_type("batch_first", batch_first, [bool], name)
        check_value_type("bidirectional", bidirectional, [bool], name)
        if not 0 <= dropout < 1:
            raise ValueError(f"For '{name}', the 'dropout' must be a number in range [0, 1) "
                             f"representing the probability of an element being zeroed, but got "
                             f"{dropout}.")
        if dropout > 0 and num_layers == 1:
            logging.getLogger("msxla").warning(
                "dropout option adds dropout after all but last recurrent layer, so non-zero "
                "dropout expects num_layers greater than 1, but got dropout=%s and num_layers=%s",
                dropout, num_layers)
        if mode not in _GATES:
            raise ValueError(f"For '{name}', the 'mode' must be in ['RNN_RELU', 'RNN_TANH', "
                             f"'LSTM', 'GRU'], but got {mode}.")
        self.rnn = _INNER[mode]()
        self.hidden_size = hidden_size
        self.batch_first = batch_first
        self.num_layers = num_layers
        self.dropout = dropout
        self.dropout_op = Dropout(p=float(dropout))
        self.bidirectional = bidirectional
        self.has_bias = has_bias
        self.is_lstm = mode == "LSTM"
        gate_size = _GATES[mode] * hidden_size
        num_directions = 2 if bidirectional else 1
        stdv = 1 / math.sqrt(hidden_size)

        def param(shape, pname):
            value = np.random.uniform(-stdv, stdv, shape).astype(np.float32)
            return Parameter(Tensor(value, dtype=dtype), name=pname)

        w_ih, w_hh, b_ih, b_hh = [], [], [], []
        for layer in range(num_layers):
            for direction in range(num_directions):
                layer_input = input_size if layer == 0 else hidden_size * num_directions
                suffix = f"_l{layer}" + ("_reverse" if direction == 1 else "")
                w_ih.append(param((gate_size, layer_input), "weight_ih" + suffix))
                w_hh.append(param((gate_size, hidden_size), "weight_hh" + suffix))
                if has_bias:
                    b_ih.append(param((gate_size,), "bias_ih" + suffix))
                    b_hh.append(param((gate_size,), "bias_hh" + suffix))
        self.w_ih_list = ParameterTuple(w_ih)
        self.w_hh_list = ParameterTuple(w_hh)
        self.b_ih_list = ParameterTuple(b_ih)
        self.b_hh_list = ParameterTuple(b_hh)

    def _weights(self, k, np_dtype):
        ws = [self.w_ih_list[k]._data, self.w_hh_list[k]._data]
        if self.has_bias:
            ws += [self.b_ih_list[k]._data, self.b_hh_list[k]._data]
        else:
            ws += [None, None]
        return [None if w is None else w.astype(np_dtype) for w in ws]

    def _check_inputs(self, x, hx, seq_length, batch):
        name = self.cls_name
        check_tensor("x", x, name)
        if hx is not None:
            if not self.is_lstm:
                check_tensor("h", hx, name)
                _check_same_float({"x": x.dtype, "hx": hx.dtype}, name)
            else:
                check_tuple("hx", hx, name)
                check_tensor("hx[0]", hx[0], name)
                check_tensor("hx[1]", hx[1], name)
                _check_same_float({"x": x.dtype, "hx[0]": hx[0].dtype, "hx[1]": hx[1].dtype},
                                  name)
        if seq_length is not None:
            check_dtype_name("seq_length", seq_length.dtype, (mstype.int32, mstype.int64), name)
            if seq_length.shape[0] != batch:
                raise ValueError(f"For '{name}' batch size of x and seq_length must be equal, "
                                 f"but got {batch} of x and {seq_length.shape[0]} of seq_length.")

    def construct(self, x, hx=None, seq_length=None):
        batch = x.shape[0] if self.batch_first else x.shape[1]
        self._check_inputs(x, hx, seq_length, batch)
        num_directions = 2 if self.bidirectional else 1
        dt = x.dtype.np_dtype
        shape = (self.num_layers * num_directions, batch, self.hidden_size)
        if hx is None:
            h = (jnp.zeros(shape, dt), jnp.zeros(shape, dt)) if self.is_lstm \
                else jnp.zeros(shape, dt)
        else:
            h = (hx[0]._data, hx[1]._data) if self.is_lstm else hx._data
        lengths = None if seq_length is None else seq_length._data
        layer_in = x._data
        if self.batch_first:
            layer_in = jnp.swapaxes(layer_in, 0, 1)
        h_n, c_n = [], []
        for layer in range(self.num_layers):
            outs = []
            for direction in range(num_directions):
                k = layer * num_directions + direction
                h0 = (h[0][k], h[1][k]) if self.is_lstm else h[k]
                seq = layer_in if direction == 0 else _reverse(layer_in, lengths)
                out, final = self.rnn.construct(seq, h0, lengths, self._weights(k, dt))
                outs.append(out if direction == 0 else _reverse(out, lengths))
                h_n.append(final[0] if self.is_lstm else final)
                if self.is_lstm:
                    c_n.append(final[1])
            output = outs[0] if num_directions == 1 else jnp.concatenate(outs, axis=2)
            layer_in = output
            if self.dropout != 0 and layer < self.num_layers - 1:
                layer_in = self.dropout_op(wrap(output))._data
        if self.batch_first:
            output = jnp.swapaxes(output, 0, 1)
        h_n = jnp.stack(h_n).astype(dt)
        if self.is_lstm:
            return wrap(output.astype(dt)), (wrap(h_n), wrap(jnp.stack(c_n).astype(dt)))
        return wrap(output.astype(dt)), wrap(h_n)


def _check_same_float(dtypes, cls_name):
    """MindSpore's ``check_types_same_and_valid`` over float32 / float16 Tensors."""
    for key, value in dtypes.items():
        if value not in (mstype.float32, mstype.float16):
            raise TypeError(f"For '{cls_name}', the element of '{key}' must be one of Float32, "
                            f"Float16, but got {value}.The supported data types depend on the "
                            "hardware that executes the operator, for more details, please refer "
                            "to the MindSpore official website to get more information about the "
                            "data type.")
    (first, t1), *rest = dtypes.items()
    for key, value in rest:
        if value != t1:
            raise TypeError(f"For '{cls_name}', the type of '{key}' should be same as '{first}', "
                            f"but got '{first}' with type {t1} and '{key}' with type {value}.")


class RNN(_RNNBase):
    """Elman RNN over a sequence (``nonlinearity`` 'tanh' or 'relu')."""

    def __init__(self, *args, **kwargs):
        mode = "RNN_TANH"
        if "nonlinearity" in kwargs:
            nonlinearity = kwargs.pop("nonlinearity")
            if nonlinearity == "relu":
                mode = "RNN_RELU"
            elif nonlinearity != "tanh":
                raise ValueError(f"For '{type(self).__name__}', the 'nonlinearity' must be in "
                                 f"['tanh', 'relu'], but got {nonlinearity}.")
        super().__init__(mode, *args, **kwargs)


class GRU(_RNNBase):
    """GRU over a sequence; returns ``(output, h_n)``."""

    def __init__(self, *args, **kwargs):
        super().__init__("GRU", *args, **kwargs)


class LSTM(_RNNBase):
    """LSTM over a sequence; returns ``(output, (h_n, c_n))``."""

    def __init__(self, *args, **kwargs):
        super().__init__("LSTM", *args, **kwargs)
