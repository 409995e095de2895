"""``mindspore.numpy``: numpy-style functions over msxla's op rows.

Each function converts array-like arguments to Tensors (Python ints become
int32 and floats float32, as in ``mindspore.numpy``), calls the matching
``msxla.ops`` row and applies numpy's conventions for ``axis``, ``dtype`` and
``keepdims``. Nothing here computes on its own: every value comes from an op.
"""
from msxla.numpy.dtypes import *  # noqa: F401,F403
from msxla.numpy.array_creations import *  # noqa: F401,F403
from msxla.numpy.array_pad_random import *  # noqa: F401,F403
from msxla.numpy.array_ops import *  # noqa: F401,F403
from msxla.numpy.math_ops import *  # noqa: F401,F403
from msxla.numpy.linalg_ops import *  # noqa: F401,F403
from msxla.numpy.logic_ops import *  # noqa: F401,F403
