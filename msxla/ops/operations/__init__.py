"""``mindspore.ops.operations`` (imported as ``P``): every Primitive class."""
from msxla.ops.operations import _deprecated  # noqa: F401 - registers ``identity``
from msxla.ops.primitive import PRIMITIVES as _PRIMITIVES, Primitive  # noqa: F401

globals().update(_PRIMITIVES)
