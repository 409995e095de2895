"""msxla: MindSpore's programming model on XLA.

Run an unchanged MindSpore script with ``python -m msxla script.py`` (or call
``msxla.alias_mindspore()`` first, e.g. in a notebook), or write
``import msxla as mindspore`` in new code: the top level mirrors mindspore's.
"""
import jax as _jax

from msxla import _alias  # noqa: E402 - MindSpore's module paths, derived (msxla._paths)

_alias.install()

# MindSpore's default integer is int64 and float64 tensors are common, so jax
# must keep 64-bit types (it would silently narrow them to 32 bits otherwise).
_jax.config.update("jax_enable_x64", True)

from msxla import _max_min_jvp, _source  # noqa: E402

_max_min_jvp.install()

_source.exclude_from_jax_tracebacks()

from msxla.common import dtype  # noqa: E402
from msxla.common.dtype import (  # noqa: E402,F401
    Type, bool_, int8, int16, int32, int64, uint8, uint16, uint32, uint64, float16, float32,
    float64, bfloat16, complex64, complex128, dtype_to_nptype, dtype_to_pytype, pytype_to_dtype,
    get_py_obj_dtype, half, single, double, short, intc, intp, long, byte, ubyte, ushort, uintc,
    uintp, cfloat, cdouble, int_, uint, float_, tensor_type, number, string, type_none)
from msxla.common.tensor import Tensor, is_tensor, tensor, from_numpy  # noqa: E402
from msxla.common.parameter import Parameter, ParameterTuple  # noqa: E402
from msxla.context import (  # noqa: E402
    GRAPH_MODE, PYNATIVE_MODE, STRICT, COMPATIBLE, LAX, set_context, get_context,
    ParallelMode, set_auto_parallel_context, get_auto_parallel_context,
    reset_auto_parallel_context, set_ps_context, get_ps_context, reset_ps_context)
from msxla import common, ops, nn  # noqa: E402
from msxla.common.seed import set_seed, get_seed  # noqa: E402
from msxla.jit import jit, JitConfig, mutable  # noqa: E402
import msxla.capture.ast  # noqa: E402,F401 - registers capture_mode='ast'
import msxla.capture.bytecode  # noqa: E402,F401 - registers capture_mode='bytecode'
from msxla.jit.api import ms_function, enable_dynamic, set_recursion_limit  # noqa: E402
from msxla import context  # noqa: E402
from msxla.autodiff import (  # noqa: E402
    grad, value_and_grad, get_grad, vjp, jvp, jacfwd, jacrev, vmap)
from msxla.jit.markers import jit_class, lazy_inline, no_inline  # noqa: E402
from msxla.ops.primitive import constexpr  # noqa: E402
from msxla import log  # noqa: E402 - mindspore.log
from msxla.log import get_level, get_log_config  # noqa: E402
from msxla import numpy  # noqa: E402,F401 - mindspore.numpy
from msxla import communication, parallel  # noqa: E402,F401
from msxla.parallel import Layout, shard  # noqa: E402,F401
from msxla.train import save_checkpoint, load_checkpoint, load_param_into_net  # noqa: E402
from msxla.train import *  # noqa: E402,F401,F403 - Model, callbacks, metrics, data_sink
from msxla import amp, train  # noqa: E402,F401
from msxla.export import export  # noqa: E402 - mindspore.export (AIR, MINDIR, STABLEHLO)
from msxla.mindir import load, load_mindir, save_mindir  # noqa: E402 - MindIR files

bool = bool_  # noqa: A001 - mindspore.bool
int = dtype.int  # noqa: A001
float = dtype.float  # noqa: A001

from msxla.version import __version__  # noqa: E402
from msxla._run_check import run_check  # noqa: E402

alias_mindspore = _alias.alias_mindspore
_alias.index_loaded_modules()
