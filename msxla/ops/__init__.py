"""``mindspore.ops``: functional ops, Primitive classes and composite helpers.

Every op is one row in the op table (``msxla.ops.opdef``); the row modules
below register their rows on import and define the public functions.
"""
from msxla.ops.opdef import REGISTRY as _REGISTRY
from msxla.ops.primitive import (Primitive, PrimitiveWithCheck, PrimitiveWithInfer,
                                 prim_attr_register)
from msxla.ops.arith import (add, sub, mul, div, floor_divide, remainder, pow, maximum,
                             minimum, neg)
