"""``mindspore.Parameter`` and ``ParameterTuple``: named, mutable state.

A Parameter is a Tensor whose value can change in place (optimizer steps,
``ops.assign``, ``set_data``). Its value lives in ``_value``; ``_data`` is a
property that routes reads and writes through the active state frame
(``msxla.common.state``), which is how jit and grad turn Parameter updates
into graph inputs and outputs without losing or repeating one.
"""
from __future__ import annotations

import itertools

import numpy as np

from msxla.common import dtype as mstype
from msxla.common.cast import cast_array
from msxla.common.state import _local
from msxla.common.tensor import Tensor, to_array, wrap

_counter = itertools.count(1)
_serials = itertools.count(1)

PARAMETER_NAME_DEFAULT = "Parameter"
PARAMETER_NAME_PREFIX_MAX_LEN = 1024
# A Parameter made without a name gets ``Parameter#<n>`` until a Cell names it.
_GENERATED_PREFIX = PARAMETER_NAME_DEFAULT + "#"


def _gen_param_name() -> str:
    """A fresh generated name (``Parameter#<n>``) for a Parameter made without one."""
    return f"{_GENERATED_PREFIX}{next(_counter)}"


def _is_parameter_generated(param_name) -> bool:
    """Was ``param_name`` generated for a Parameter created without a name?

    A Cell gives such a Parameter its attribute name (or ``Parameter$<n>`` inside a
    ParameterTuple); a name the user gave is kept."""
    return (isinstance(param_name, str) and param_name.startswith(_GENERATED_PREFIX)
            and param_name[len(_GENERATED_PREFIX):].isdigit())


def next_serial() -> int:
    """The serial the next Parameter will get (captures compare against it)."""
    return _SERIAL_PEEK[0]


_SERIAL_PEEK = [1]


class Parameter(Tensor):
    """A named Tensor that holds trainable or mutable state.

    Args:
        default_input: a Tensor, numpy array, Python number or initializer.
        name: the Parameter's name; Cells rename unnamed ones after their attribute.
        requires_grad: whether optimizers and ``grad(weights=...)`` update it.
    """

    __slots__ = ("_value",)
    init_param = True  # False while nn.utils.no_init_parameters() is active

    def __init__(self, default_input, name=None, requires_grad=True, layerwise_parallel=False,
                 parallel_optimizer=True, storage_format="", device=None):
        from msxla.common.initializer import Initializer
        if isinstance(default_input, Initializer):
            raise TypeError("For 'Parameter', an Initializer needs a shape: pass "
                            "initializer(init, shape, dtype) instead.")
        if isinstance(default_input, Tensor):
            value = default_input._data
        elif isinstance(default_input, (int, float, bool, np.ndarray, np.generic, list, tuple)):
            value = to_array(default_input, None)
        else:
            raise TypeError("For 'Parameter', default_input must be a Tensor, numpy array, "
                            f"Python number or Initializer, but got {type(default_input).__name__}.")
        self._value = value
        self._serial = next(_serials)
        _SERIAL_PEEK[0] = self._serial + 1
        self._auto_named = name is None
        self.name = _gen_param_name() if name is None else name
        self.requires_grad = bool(requires_grad)
        self.layerwise_parallel = layerwise_parallel
        self.parallel_optimizer = parallel_optimizer

    # Every op reads `_data`; for a Parameter that goes through the frame.
    @property
    def _data(self):
        frame = _local.frame
        if frame is None:
            return self._value
        return frame.read(self)

    @_data.setter
    def _data(self, value):
        frame = _local.frame
        if frame is None:
            self._value = value
        else:
            frame.write(self, value)

    def __repr__(self):
        return (f"Parameter (name={self.name}, shape={self.shape}, dtype={self.dtype}, "
                f"requires_grad={self.requires_grad})")

    __str__ = __repr__

    def __reduce__(self):
        return (_rebuild, (self.asnumpy(), self.name, self.requires_grad))

    def __deepcopy__(self, memo):
        return self.clone()

    @property
    def data(self):
        return self

    def value(self):
        """The current value as a plain Tensor."""
        return wrap(self._data)

    def set_data(self, data, slice_shape=False, sliced=False):
        """Replace the value (shape may change; the dtype stays the Parameter's)."""
        if isinstance(data, Tensor):
            new = data._data
        else:
            new = to_array(data, None)
        old = self._data
        if new.dtype != old.dtype:
            new = cast_array(new, mstype.from_np(old.dtype))
        self._data = new
        return self

    def assign_value(self, value):
        return self.set_data(value)

    def clone(self, init="same"):
        """A new Parameter with the same name and flags (and value unless ``init``)."""
        if init == "same":
            value = wrap(self._data)
        else:
            from msxla.common.initializer import initializer
            value = initializer(init, self.shape, self.dtype)
        out = Parameter(value, name=self.name, requires_grad=self.requires_grad,
                        layerwise_parallel=self.layerwise_parallel,
                        parallel_optimizer=self.parallel_optimizer)
        out._auto_named = self._auto_named
        return out

    def init_data(self, layout=None, set_sliced=False):
        return self

    @property
    def inited_param(self):
        return None

    @property
    def sliced(self):
        return False

    @property
    def is_init(self):
        return True

    @property
    def unique(self):
        return False


def _rebuild(array, name, requires_grad):
    return Parameter(Tensor(array), name=name, requires_grad=requires_grad)


class ParameterTuple(tuple):
    """An immutable tuple of Parameters (``mindspore.ParameterTuple``)."""

    def __new__(cls, iterable):
        items = tuple(iterable)
        for p in items:
            if not isinstance(p, Parameter):
                raise TypeError("For ParameterTuple initialization, ParameterTuple input should "
                                f"be 'Parameter' collection, but got a {type(iterable)}. ")
        return super().__new__(cls, items)

    def clone(self, prefix, init="same"):
        """Clones with names ``prefix.<name>`` (how optimizers make their moments)."""
        out = []
        for p in self:
            c = p.clone(init)
            c.name = f"{prefix}.{p.name}"
            out.append(c)
        return ParameterTuple(out)


class _Buffer(Tensor):
    """A Tensor a Cell keeps as a buffer when assigned as its attribute
    (``mindspore.common.parameter._Buffer``): state that is not trained, listed by
    ``Cell.buffers()``; ``persistent=False`` keeps it out of the Cell's saved state."""

    def __init__(self, data, *, persistent=True):
        super().__init__(data._data if isinstance(data, Tensor) else data)
        self.persistent = persistent
