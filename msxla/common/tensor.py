"""``mindspore.Tensor`` over a jax array.

A Tensor holds one jax value in ``_data``: a concrete ``jax.Array`` when
running eagerly, or a jax tracer while a graph is being captured. Ops never
look inside except through ``_data``, so the same user code runs eagerly and
under capture. Tensor methods and operators are installed from the op table
(``msxla/ops``); this file holds construction, conversion and the few methods
that are not ops.
"""
from __future__ import annotations

import numbers

import jax
import jax.numpy as jnp
import numpy as np
from jax.core import Tracer

from msxla.common import _numpy_ufunc
from msxla.common import dtype as mstype
from msxla.common.cast import cast_array
from msxla.errors import ConcretizationError, user_error

_new = object.__new__


class Tensor:
    """A multi-dimensional array with MindSpore's semantics.

    Args:
        input_data: a Tensor, numpy array, list/tuple, or Python/numpy scalar.
        dtype: a ``mindspore.dtype``; the default follows MindSpore (Python
            float -> float32, int -> int64, bool -> bool, numpy keeps its dtype).
        shape: with ``init``, the shape of a lazily initialised Tensor; with
            neither data nor init, a shape with ``None`` entries declares a
            dynamic input (see ``Cell.set_inputs``).
        init: an initializer (``mindspore.common.initializer``) for ``shape``.
        const_arg: fold this Tensor into a graph as a constant when passed to jit.
    """

    # `_data` is a slot (read by every op); the rarely set attributes live in
    # the instance dict with class-level defaults, so `wrap()` sets one field.
    __slots__ = ("_data", "__dict__", "__weakref__")
    _spec = None  # (shape, dtype) of a data-less placeholder
    const_arg = False

    def __init__(self, input_data=None, dtype=None, shape=None, init=None, internal=False,
                 const_arg=False, device=None):
        if const_arg:
            self.const_arg = True
        if dtype is not None:
            dtype = _check_dtype(dtype)
        if input_data is None:
            if init is not None:
                self._data = _from_init(init, shape, dtype or mstype.float32)
                return
            if shape is not None:  # placeholder of a (possibly dynamic) input signature
                self._spec = (tuple(None if s in (None, -1) else int(s) for s in _as_shape(shape)),
                              dtype or mstype.float32)
                self._data = None
                return
            if dtype is not None:  # placeholder of any rank: Tensor(None, dtype) as in MindSpore
                self._spec = (None, dtype)
                self._data = None
                return
            raise TypeError("For 'Tensor', input_data, init or shape must be given.")
        if init is not None:
            raise TypeError("For 'Tensor', pass either input_data or init, not both.")
        self._data = to_array(input_data, dtype)
        if shape is not None and tuple(self._data.shape) != _as_shape(shape):
            raise ValueError(f"For 'Tensor', the shape of input_data {tuple(self._data.shape)} "
                             f"does not match shape {_as_shape(shape)}.")

    # ------------------------------------------------------------ properties
    @property
    def shape(self):
        if self._data is None:
            return (-2,) if self._spec[0] is None else self._spec[0]  # -2: any rank
        return tuple(self._data.shape)

    @property
    def dtype(self):
        if self._data is None:
            return self._spec[1]
        return mstype.from_np(self._data.dtype)

    @property
    def ndim(self):
        return self._data.ndim

    @property
    def size(self):
        return int(self._data.size)

    @property
    def itemsize(self):
        return self._data.dtype.itemsize

    @property
    def nbytes(self):
        return int(self._data.size) * self._data.dtype.itemsize

    @property
    def strides(self):
        shape, item = self.shape, self.itemsize
        out, acc = [], item
        for d in reversed(shape):
            out.append(acc)
            acc *= d
        return tuple(reversed(out))

    @property
    def data(self):
        return self

    @property
    def has_init(self):
        return False

    def is_dynamic_spec(self):
        """True for a shape-only placeholder such as ``Tensor(shape=[None, 3], dtype=...)``,
        or ``Tensor(None, dtype=...)`` (any rank)."""
        return self._data is None

    # ------------------------------------------------------------ conversion
    def asnumpy(self):
        """A writable numpy copy of the value."""
        return np.array(self._concrete("asnumpy"))

    numpy = asnumpy

    def __array__(self, dtype=None, copy=None):
        arr = np.asarray(self._concrete("__array__"))
        return arr if dtype is None else arr.astype(dtype)

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        # `ndarray op Tensor`, `np.add(arr, t)`: see `_numpy_ufunc`
        return _numpy_ufunc.array_ufunc(ufunc, method, inputs, kwargs)

    def item(self, *index):
        arr = self.asnumpy()
        if not index and arr.size != 1:
            raise ValueError("For 'Tensor.item', the Tensor must have exactly one element, "
                             f"but its shape is {arr.shape}.")
        return arr.item(*index)

    def tolist(self):
        return self.asnumpy().tolist()

    def __bool__(self):
        arr = self._concrete("bool()")
        if arr.size != 1:
            raise ValueError("The truth value of a Tensor with more than one element is "
                             "ambiguous. Use .any() or .all().")
        return bool(arr.reshape(()))

    def __int__(self):
        return int(self._scalar("int()"))  # complex -> TypeError, as int(complex)

    def __float__(self):
        return float(self._scalar("float()"))

    def __complex__(self):
        return complex(self._scalar("complex()"))

    def __index__(self):
        arr = self._concrete("index")
        value = np.asarray(arr).reshape(()).item() if arr.size == 1 else None
        if not isinstance(value, int):  # bool is an int
            raise ValueError("Only integer tensors of a single element can be converted to an "
                             "index.")
        return int(value)

    def __format__(self, spec):
        if not spec:
            return str(self)
        if self._data is not None and not isinstance(self._data, Tracer) and self._data.ndim == 0:
            return format(self.item(), spec)
        return format(str(self), spec)

    def __len__(self):
        if self._data.ndim == 0:
            raise TypeError("len() of a 0-d Tensor")
        return self._data.shape[0]

    def __iter__(self):
        if self._data.ndim == 0:
            raise TypeError("iteration over a 0-d Tensor")
        for i in range(self._data.shape[0]):
            yield self[i]

    __hash__ = object.__hash__

    def __repr__(self):
        from msxla.common._printing import tensor_repr
        return tensor_repr(self)

    def __str__(self):
        from msxla.common._printing import tensor_str
        return tensor_str(self)

    def __reduce__(self):
        return (Tensor, (self.asnumpy(),))

    def __deepcopy__(self, memo):
        return _wrap_like(self, self._data)

    def __copy__(self):
        return _wrap_like(self, self._data)

    def _concrete(self, what):
        data = self._data
        if isinstance(data, Tracer):
            # An eager grad/jvp tracer carries its concrete primal value (as in
            # PyNative); a tracer of a graph being captured has none.
            data = data.to_concrete_value()
            if data is None:
                raise concretization_error(what)
        if data is None:
            raise ValueError(f"Tensor(shape={list(self.shape)}) is a shape placeholder "
                             "without data.")
        return data

    def _scalar(self, what):
        arr = self._concrete(what)
        if arr.size != 1:
            raise ValueError("Only one element tensors can be converted to Python scalars")
        return np.asarray(arr).reshape(()).item()

    # -------------------------------------------------- value-level methods
    def astype(self, dtype, copy=True):
        if isinstance(dtype, str):  # 'float16', 'int' (int64), 'float' (float64), 'bool'
            name = dtype.lower()
            dtype = {"int": int, "float": float, "bool": bool}.get(name) or getattr(mstype, name, None)
            if not isinstance(dtype, (type, mstype.Type)):
                raise TypeError(f"For Tensor.astype, the string input type must be a dtype name "
                                f"such as 'float32', 'int' or 'bool', but got '{name}'.")
        if isinstance(dtype, type):  # Python types as MindSpore maps them: float -> float64
            dtype = mstype.pytype_to_dtype(dtype)
        return wrap(cast_array(self._data, mstype.to_ms(dtype)))

    def to(self, dtype=None, *args, **kwargs):
        return self if dtype is None or not isinstance(dtype, mstype.Type) else self.astype(dtype)

    def copy(self):
        return wrap(self._data)

    def clone(self):
        return wrap(self._data)

    def init_data(self, slice_index=None, shape=None, opt_shard_group=None):
        return self

    def set_const_arg(self, const_arg=True):
        self.const_arg = const_arg
        return self

    def assign_value(self, value):
        """Replace this Tensor's value in place (``Tensor.assign_value``)."""
        data = value._data if isinstance(value, Tensor) else to_array(value, None)
        self._data = data
        return self

    def set_dtype(self, dtype):
        self._data = self.astype(dtype)._data
        return self

    @staticmethod
    def from_numpy(array):
        """A Tensor holding ``array``'s values, dtype kept (MindSpore shares the memory;
        a jax array cannot, so this is a copy)."""
        if not isinstance(array, np.ndarray):
            raise TypeError(f"For 'Tensor.from_numpy', the input must be a numpy.ndarray, but "
                            f"got {type(array).__name__}.")
        return Tensor(array)


# ------------------------------------------------------------- construction
def wrap(data) -> Tensor:
    """A Tensor around a jax value, without copying or checking (internal)."""
    t = _new(Tensor)
    t._data = data
    return t


class VariableScalar(Tensor):
    """A 0-d graph value standing for a Python scalar (MindSpore's *variable
    scalar*: ``float(t)`` of a graph Tensor, a loop counter in a graph loop).
    Ops promote it like the Python scalar it stands for (weakly: ``x_f16 * s`` is
    float16), and it comes out of a graph as that Python type."""

    __slots__ = ()

    @property
    def pytype(self):
        return self.__dict__["_out_pytype"]


def variable_scalar(data, pytype) -> VariableScalar:
    t = _new(VariableScalar)
    t._data = data
    t.__dict__["_out_pytype"] = pytype
    return t


def _wrap_like(t, data):
    return wrap(data)


def _as_shape(shape):
    if isinstance(shape, numbers.Integral):
        return (int(shape),)
    return tuple(shape)


def _from_init(init, shape, dtype):
    from msxla.common.initializer import initializer
    if shape is None:
        raise TypeError("For 'Tensor', `shape` is required together with `init`.")
    return initializer(init, _as_shape(shape), dtype)._data


def _check_dtype(dtype):
    if not isinstance(dtype, mstype.Type) or dtype.np_dtype is None:
        raise TypeError("For 'Tensor', the 'dtype' should be a mindspore data type such as "
                        f"mindspore.float32, but got {dtype!r}.")
    return dtype


def _py_to_numpy(data):
    """Python data (numbers, nested lists/tuples, maybe holding Tensors or numpy scalars) as a
    numpy array, as MindSpore reads it: numpy infers the dtype."""
    if isinstance(data, (list, tuple)) and any(isinstance(x, Tensor) for x in _flatten(data)):
        data = _tensors_to_numpy(data)
    try:
        arr = np.array(data)
    except ValueError:  # ragged nesting
        arr = None
    except OverflowError:
        arr = np.array(None)
    if arr is None or arr.dtype.kind not in "biufc" and not isinstance(data, numbers.Number):
        raise TypeError(f"For Tensor, the input_data is {data} that contain unsupported element.")
    if arr.dtype.kind not in "biufc":
        raise RuntimeError(f"For 'Tensor', the Python number {data!r} does not fit any "
                           "MindSpore data type.")
    return arr


def _default_py_dtype(arr):
    """MindSpore's defaults for Python data: float64 -> float32, int32/int64 -> int64."""
    if arr.dtype == np.float64:
        with np.errstate(over="ignore"):  # 1e40 becomes inf, silently, as in MindSpore
            return arr.astype(np.float32)
    if arr.dtype == np.int32:
        return arr.astype(np.int64)
    return arr


def _to_device(arr):
    """A jax array holding a copy of numpy ``arr`` (``jnp.asarray`` would compile a
    conversion for every new shape)."""
    return jax.device_put(arr)


def _np_cast(arr, dtype):
    """``arr`` as ``dtype`` with C's casts (floats truncate, ints wrap), as MindSpore does."""
    with np.errstate(all="ignore"):
        return arr.astype(dtype.np_dtype)


def _infer_dtype(data):
    """MindSpore's default dtype for Python data (lists may nest)."""
    if isinstance(data, bool):
        return mstype.bool_
    if isinstance(data, numbers.Integral):
        return mstype.int64
    if isinstance(data, numbers.Real):
        return mstype.float32
    if isinstance(data, numbers.Complex):
        return mstype.complex64
    if isinstance(data, (list, tuple)):
        kinds = [_infer_dtype(x) for x in data]
        if not kinds:
            return mstype.float32
        best = kinds[0]
        for k in kinds[1:]:
            best = mstype.promote_types(best, k)
        return best
    if isinstance(data, Tensor):
        return data.dtype
    raise TypeError(f"For 'Tensor', the type of input_data {type(data).__name__} is not "
                    "supported; use a Tensor, numpy array, list, tuple or Python number.")


def to_array(data, dtype):
    """A jax array from user data, with MindSpore's default dtypes."""
    if isinstance(data, Tensor):
        arr = data._data
        return arr if dtype is None else _astype(arr, dtype)
    if isinstance(data, (jax.Array, Tracer)):
        return data if dtype is None else _astype(data, dtype)
    if isinstance(data, (np.ndarray, np.generic)):
        arr = np.asarray(data)
        if arr.dtype == object:
            raise TypeError("For 'Tensor', numpy arrays of dtype object are not supported.")
        if arr.dtype.kind in "US":
            raise TypeError("For 'Tensor', string arrays are not supported.")
        mstype.to_ms(arr.dtype)  # rejects dtypes MindSpore has no type for
        return _to_device(arr if dtype is None else _np_cast(arr, dtype))
    if isinstance(data, (list, tuple, numbers.Number)):
        arr = _py_to_numpy(data)
        return _to_device(_default_py_dtype(arr) if dtype is None else _np_cast(arr, dtype))
    raise TypeError(f"For 'Tensor', the type of input_data {type(data).__name__} is not "
                    "supported; use a Tensor, numpy array, list, tuple or Python number.")


def _astype(arr, dtype):
    return cast_array(arr, dtype)


def _flatten(data):
    for x in data:
        if isinstance(x, (list, tuple)):
            yield from _flatten(x)
        else:
            yield x


def _tensors_to_numpy(data):
    if isinstance(data, Tensor):
        return data.asnumpy()
    if isinstance(data, (list, tuple)):
        return [_tensors_to_numpy(x) for x in data]
    return data


def concretization_error(what):
    return user_error(
        ConcretizationError,
        f"{what} needs the value of a Tensor, but this code is being captured into a graph "
        "and the value only exists when the graph runs.",
        hint="under capture_mode='trace' Python control flow cannot depend on Tensor values; "
             "use capture_mode='ast' (graph control flow) or 'bytecode' (graph break), or "
             "ops.select / ops.where instead of `if`.")


def tensor(input_data=None, dtype=None, shape=None, init=None, const_arg=False, device=None):
    """``mindspore.tensor``: a Tensor, as ``Tensor(input_data, dtype, shape, init, ...)``."""
    return Tensor(input_data, dtype, shape, init, const_arg=const_arg, device=device)


def from_numpy(array):
    """``mindspore.from_numpy``: ``Tensor.from_numpy(array)``."""
    return Tensor.from_numpy(array)


def is_tensor(obj) -> bool:
    return isinstance(obj, Tensor)
