"""MindSpore data types (``mindspore.dtype``) and their type-promotion rules.

Each MindSpore dtype is a singleton :class:`Type` object that knows its numpy
dtype. ``repr`` gives ``mindspore.float32`` and ``str`` gives ``Float32``, as
MindSpore prints them. Promotion follows MindSpore 2.x: categories
bool < int < float < complex; inside a category the wider type wins;
a Python scalar only lifts the category (int -> int64, float -> float32).
"""
from __future__ import annotations

import builtins
import functools
import warnings

import ml_dtypes
import numpy as np


class Type:
    """A MindSpore type object such as ``mindspore.float32``."""

    __slots__ = ("_name", "_np", "_size")

    def __init__(self, name: str, np_dtype=None):
        self._name = name
        self._np = None if np_dtype is None else np.dtype(np_dtype)
        self._size = 0 if self._np is None else self._np.itemsize

    def __repr__(self):
        return f"mindspore.{self._name.lower()}"

    def __str__(self):
        return self._name

    def __reduce__(self):
        return (_by_name, (self._name,))

    @property
    def np_dtype(self):
        return self._np


class Number(Type):
    __slots__ = ()


class Bool(Number):
    __slots__ = ()


class Int(Number):
    __slots__ = ()


class UInt(Number):
    __slots__ = ()


class Float(Number):
    __slots__ = ()


class Complex(Number):
    __slots__ = ()


class TensorType(Type):
    """The type of a Tensor whose element type is ``element_type``."""

    __slots__ = ("element_type",)

    def __init__(self, element_type: Type | None = None):
        super().__init__("Tensor")
        self.element_type = element_type

    def __repr__(self):
        return f"Tensor[{self.element_type}]" if self.element_type is not None else "Tensor"

    __str__ = __repr__

    def __eq__(self, other):
        return isinstance(other, TensorType) and other.element_type is self.element_type

    def __hash__(self):
        return hash(("Tensor", self.element_type))


class _Other(Type):
    """Non-numeric types (String, NoneType, Tuple, ...) kept for API parity."""

    __slots__ = ()


bool_ = Bool("Bool", np.bool_)
int8 = Int("Int8", np.int8)
int16 = Int("Int16", np.int16)
int32 = Int("Int32", np.int32)
int64 = Int("Int64", np.int64)
uint8 = UInt("UInt8", np.uint8)
uint16 = UInt("UInt16", np.uint16)
uint32 = UInt("UInt32", np.uint32)
uint64 = UInt("UInt64", np.uint64)
float16 = Float("Float16", np.float16)
float32 = Float("Float32", np.float32)
float64 = Float("Float64", np.float64)
bfloat16 = Float("BFloat16", ml_dtypes.bfloat16)
complex64 = Complex("Complex64", np.complex64)
complex128 = Complex("Complex128", np.complex128)
string = _Other("String")
type_none = _Other("NoneType")
tensor_type = TensorType

# Aliases MindSpore exports.
bool = bool_  # noqa: A001
int = int32  # noqa: A001
float = float32  # noqa: A001
half = float16
single = float32
double = float64
short = int16
intc = int32
intp = int64
long = int64
byte = int8
ubyte = uint8
ushort = uint16
uintc = uint32
uintp = uint64
# Generic category types: ``mindspore.int_`` prints as ``mindspore.int``.
int_ = Int("Int")
uint = UInt("UInt")
float_ = Float("Float")
number = Number("Number")
cfloat = complex64
cdouble = complex128

all_dtypes = (bool_, int8, int16, int32, int64, uint8, uint16, uint32, uint64,
              float16, float32, float64, bfloat16, complex64, complex128)
int_type = (int8, int16, int32, int64)
uint_type = (uint8, uint16, uint32, uint64)
float_type = (float16, float32, float64, bfloat16)
complex_type = (complex64, complex128)
signed_type = int_type + float_type + complex_type
number_type = int_type + uint_type + float_type + complex_type
all_types = (bool_,) + number_type

_FROM_NP = {t.np_dtype: t for t in all_dtypes}
_BY_NAME = {t._name: t for t in all_dtypes + (string, type_none)}


def _by_name(name):
    return _BY_NAME[name]


def to_ms(dtype) -> Type:
    """Convert a numpy/jax dtype, a Python type or a Type into a MindSpore Type."""
    if isinstance(dtype, Type):
        return dtype
    if dtype is builtins.bool:
        return bool_
    if dtype is builtins.int:
        return int64
    if dtype is builtins.float:
        return float32
    if dtype is builtins.complex:
        return complex64
    try:
        if isinstance(dtype, (np.dtype, type)):
            return _FROM_NP[np.dtype(dtype)]
        with warnings.catch_warnings():  # numpy's deprecated aliases ('a') are refused
            warnings.simplefilter("error", DeprecationWarning)
            return _FROM_NP[np.dtype(dtype)]
    except (KeyError, TypeError, DeprecationWarning):
        raise TypeError(f"The dtype {dtype!r} is not a MindSpore data type; "
                        f"use one of {', '.join(map(repr, all_dtypes))}.") from None


def from_np(np_dtype) -> Type:
    """Fast path for dtypes known to be valid (array dtypes)."""
    return _FROM_NP[np_dtype]


def dtype_to_nptype(type_: Type):
    """The numpy scalar type of a MindSpore type (``mindspore.dtype_to_nptype``)."""
    return to_ms(type_).np_dtype.type


def dtype_to_pytype(type_: Type):
    """The Python type of a MindSpore type (``mindspore.dtype_to_pytype``)."""
    t = to_ms(type_)
    if t is bool_:
        return builtins.bool
    if isinstance(t, (Int, UInt)):
        return builtins.int
    if isinstance(t, Float):
        return builtins.float
    return builtins.complex


def pytype_to_dtype(obj) -> Type:
    """MindSpore's ``pytype_to_dtype``: Python float is float64 and complex complex128."""
    if obj is builtins.float:
        return float64
    if obj is builtins.complex:
        return complex128
    return to_ms(obj)


def get_py_obj_dtype(obj) -> Type:
    from msxla.common.tensor import Tensor
    if isinstance(obj, Tensor):
        return obj.dtype
    return pytype_to_dtype(type(obj))


def type_size_in_bytes(type_: Type) -> builtins.int:
    return to_ms(type_)._size


# ----------------------------------------------------------------- promotion
_CATEGORY = {Bool: 0, UInt: 1, Int: 1, Float: 2, Complex: 3}
# Default dtype a Python scalar of each category brings when it lifts a category.
_SCALAR_DEFAULT = {builtins.bool: bool_, builtins.int: int64, builtins.float: float32,
                   builtins.complex: complex64}
_SCALAR_CATEGORY = {builtins.bool: 0, builtins.int: 1, builtins.float: 2, builtins.complex: 3}


def category(t: Type) -> builtins.int:
    return _CATEGORY[type(t)]


def is_float(t: Type) -> builtins.bool:
    return type(t) is Float


def is_int(t: Type) -> builtins.bool:
    return type(t) in (Int, UInt)


# Unsigned types MindSpore's ops promote with no other type (but bool).
_WIDE_UINTS = frozenset((uint16, uint32, uint64))


@functools.lru_cache(maxsize=None)
def promote_types(a: Type, b: Type) -> Type:
    """The common dtype of two tensor dtypes, by MindSpore's promotion table.

    bool < int < float < complex; the higher category wins, except float64 with
    complex64, which gives complex128. Inside a category the wider type wins;
    float16 with bfloat16 gives float32; uint8 with int8 gives int16. MindSpore's
    ops reject uint16/uint32/uint64 with any other type but bool (see
    ``result_type``); here they get the smallest signed type holding both, as in
    ``mindspore.numpy.promote_types``."""
    if a is b:
        return a
    ca, cb = category(a), category(b)
    if ca != cb:
        hi, lo = (a, b) if ca > cb else (b, a)
        if hi is complex64 and lo is float64:
            return complex128
        return hi
    if {a, b} == {float16, bfloat16}:
        return float32
    if ca == 1 and type(a) is not type(b):
        # signed with unsigned: the smallest signed type holding both.
        s, u = (a, b) if type(a) is Int else (b, a)
        if s._size > u._size:
            return s
        return {1: int16, 2: int32, 4: int64}.get(u._size, int64)
    return a if a._size >= b._size else b


def _reject(message):
    from msxla.errors import DTypeError, user_error
    raise user_error(DTypeError, message,
                     hint="cast an input with Tensor.astype() so that the dtypes can be promoted.")


def _tensor_type(key, bool_with_wide_uint):
    t = None
    for k in key:
        if isinstance(k, Type):
            if t is None or t is k:
                t = k
                continue
            wide = (t in _WIDE_UINTS) or (k in _WIDE_UINTS)
            if wide and not (bool_with_wide_uint and bool_ in (t, k)):
                _reject(f"Type implicit conversion between {t} and {k} is not supported.")
            t = promote_types(t, k)
    return t


def _scalars_only(key):
    best = max(key, key=lambda s: _SCALAR_CATEGORY[s])
    return _SCALAR_DEFAULT[best]


@functools.lru_cache(maxsize=None)
def promote_with_scalar(t: Type, scalar_type: type) -> Type:
    """The dtype of ``tensor op python_scalar`` (MindSpore's implicit conversion).

    A scalar only lifts the category: a bool Tensor with an int gives int64, an
    integer or bool Tensor with a float gives float32; otherwise the Tensor's dtype.
    uint16/uint32/uint64 Tensors take only bool scalars, and no op takes a Python
    complex scalar (both raise TypeError, as in MindSpore)."""
    if scalar_type is builtins.complex:
        _reject(f"A Python complex scalar cannot be an op input together with a {t} "
                "Tensor; use a complex Tensor instead.")
    sc = _SCALAR_CATEGORY[scalar_type]
    if t in _WIDE_UINTS and sc > 0:
        scalar_t = "Tensor[Int64]" if sc == 1 else "Tensor[Float32]"
        _reject(f"Type implicit conversion between {scalar_t} and {t} is not supported.")
    if sc > category(t):
        return _SCALAR_DEFAULT[scalar_type]
    return t


@functools.lru_cache(maxsize=None)
def result_type(key: tuple) -> Type:
    """MindSpore's implicit type conversion of op inputs: the dtype of ``add(a, b)``.

    ``key`` holds the Types of Tensor inputs and the Python types of scalar inputs,
    e.g. ``(float32, int)``. Tensors promote by ``promote_types`` (a 0-d Tensor counts
    as a Tensor), then scalars lift the category (``promote_with_scalar``). Raises
    TypeError where MindSpore does: uint16/uint32/uint64 with another dtype (except a
    bool Tensor or scalar) and Python complex scalars. Only scalars: the dtype of the
    highest category's default (int64, float32)."""
    t = _tensor_type(key, bool_with_wide_uint=True)
    if t is None:
        if builtins.complex in key:
            _reject("A Python complex scalar cannot be an op input; use a complex Tensor.")
        return _scalars_only(key)
    for k in key:
        if not isinstance(k, Type):
            t = promote_with_scalar(t, k)
    return t


@functools.lru_cache(maxsize=None)
def mul_result_type(key: tuple) -> Type:
    """The promotion MindSpore's Mul and Div use (``a * b``, ``ops.mul``, ``a / b``).

    As ``result_type``, except that uint16/uint32/uint64 Tensors are not promoted
    with a bool Tensor either, and take int and float scalars like other integers
    (``uint16 * 2`` is uint16, ``uint16 * 2.5`` float32). (MindSpore also treats a
    0-d Tensor input of these ops like a scalar; the key does not say which Tensors
    are 0-d.)"""
    t = _tensor_type(key, bool_with_wide_uint=False)
    if builtins.complex in key:
        _reject("A Python complex scalar cannot be an op input; use a complex Tensor.")
    if t is None:
        return _scalars_only(key)
    for k in key:
        if not isinstance(k, Type) and _SCALAR_CATEGORY[k] > category(t):
            t = _SCALAR_DEFAULT[k]
    return t


def scalar_dtype(value) -> Type:
    """The default dtype of a Python scalar when it becomes a Tensor."""
    return _SCALAR_DEFAULT[type(value) if type(value) in _SCALAR_DEFAULT else _py_kind(value)]


def _py_kind(value):
    if isinstance(value, builtins.bool):
        return builtins.bool
    if isinstance(value, builtins.int):
        return builtins.int
    if isinstance(value, builtins.float):
        return builtins.float
    if isinstance(value, builtins.complex):
        return builtins.complex
    raise TypeError(f"{type(value).__name__} is not a Python number")
