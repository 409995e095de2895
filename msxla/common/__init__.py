"""``mindspore.common``: Tensor, Parameter, dtypes, initializers, seeds."""
from msxla.common import dtype
from msxla.common.dtype import *  # noqa: F401,F403 - mindspore.common re-exports the dtypes
from msxla.common.tensor import Tensor
from msxla.common.parameter import Parameter, ParameterTuple
# As in MindSpore, ``mindspore.common.tensor`` is the ``tensor`` function (the module
# stays importable as ``from mindspore.common.tensor import Tensor``).
from msxla.common.tensor import tensor  # noqa: E402,F811
