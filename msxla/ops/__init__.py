"""``mindspore.ops``: functional ops, Primitive classes and composite helpers.

Every op is one row in the op table (``msxla.ops.opdef``) or a composite
(``msxla.ops.surface``). Each family module below registers its rows on
import; its ``__all__`` (its public functions and Primitive classes) comes
from the registry.
"""
from msxla.ops.primitive import (Primitive, PrimitiveWithCheck, PrimitiveWithInfer,
                                 constexpr, prim_attr_register)
from msxla.ops.arith import *  # noqa: F401,F403
from msxla.ops.arith_n import *  # noqa: F401,F403
from msxla.ops.unary import *  # noqa: F401,F403
from msxla.ops.compare import *  # noqa: F401,F403
from msxla.ops.arith_math import *  # noqa: F401,F403
from msxla.ops.arith_ternary import *  # noqa: F401,F403
from msxla.ops.unary_special import *  # noqa: F401,F403
from msxla.ops.unary_round import *  # noqa: F401,F403
from msxla.ops.bitwise import *  # noqa: F401,F403
from msxla.ops.reduction import *  # noqa: F401,F403
from msxla.ops.stats import *  # noqa: F401,F403
from msxla.ops.scan import *  # noqa: F401,F403
from msxla.ops.reduction_methods import *  # noqa: F401,F403
from msxla.ops.shape import *  # noqa: F401,F403
from msxla.ops.shape_join import *  # noqa: F401,F403
from msxla.ops.shape_tile import *  # noqa: F401,F403
from msxla.ops.shape_diag import *  # noqa: F401,F403
from msxla.ops.shape_methods import *  # noqa: F401,F403
from msxla.ops.indexing import *  # noqa: F401,F403
from msxla.ops.scatter import *  # noqa: F401,F403
from msxla.ops.sorting import *  # noqa: F401,F403
from msxla.ops.segment import *  # noqa: F401,F403
from msxla.ops.order_stats import *  # noqa: F401,F403
from msxla.ops.scatter_views import *  # noqa: F401,F403
from msxla.ops.linalg_extra import *  # noqa: F401,F403
from msxla.ops.legacy_functional import *  # noqa: F401,F403
from msxla.ops.detection import *  # noqa: F401,F403
from msxla.ops.padding import *  # noqa: F401,F403
from msxla.ops.indexing_methods import *  # noqa: F401,F403
from msxla.ops.creation import *  # noqa: F401,F403
from msxla.ops.linalg import *  # noqa: F401,F403
from msxla.ops.linalg_matrix import *  # noqa: F401,F403
from msxla.ops.linalg_decomp import *  # noqa: F401,F403
from msxla.ops.nn_activation import *  # noqa: F401,F403
from msxla.ops.nn_conv import *  # noqa: F401,F403
from msxla.ops.nn_pool import *  # noqa: F401,F403
from msxla.ops.nn_adaptive_pool import *  # noqa: F401,F403
from msxla.ops.nn_norm import *  # noqa: F401,F403
from msxla.ops.nn_loss import *  # noqa: F401,F403
from msxla.ops.nn_loss_regression import *  # noqa: F401,F403
from msxla.ops.nn_ctc import *  # noqa: F401,F403
from msxla.ops.nn_dynamic_rnn import *  # noqa: F401,F403
from msxla.ops.nn_patches import *  # noqa: F401,F403
from msxla.ops.legacy_extra import *  # noqa: F401,F403
from msxla.ops.custom import *  # noqa: F401,F403
from msxla.ops.npu_status import *  # noqa: F401,F403
from msxla.ops.optim_prims import *  # noqa: F401,F403
from msxla.ops.complex_build import *  # noqa: F401,F403
from msxla.ops.partial_prim import *  # noqa: F401,F403
from msxla.ops.nn_misc import *  # noqa: F401,F403
from msxla.ops.nn_interpolate import *  # noqa: F401,F403
from msxla.ops.nn_grid import *  # noqa: F401,F403
from msxla.ops.random import *  # noqa: F401,F403
from msxla.ops.random_discrete import *  # noqa: F401,F403
from msxla.ops.state_ops import *  # noqa: F401,F403
from msxla.ops.summary_ops import *  # noqa: F401,F403
from msxla.ops.comm_ops import *  # noqa: F401,F403
from msxla.ops.comm_ops import ReduceOp  # noqa: F401 - an enumeration, not an op
from msxla.ops.clip_norm import *  # noqa: F401,F403
from msxla.ops.control_flow import *  # noqa: F401,F403
from msxla.ops.hooks import *  # noqa: F401,F403
from msxla.ops.morph import *  # noqa: F401,F403
from msxla.ops.composite import *  # noqa: F401,F403
from msxla.ops.sparse import *  # noqa: F401,F403
from msxla.ops.sparse_unary import *  # noqa: F401,F403
from msxla.ops import inplace  # noqa: E402,F401 - installs Tensor.add_ and friends
from msxla.ops import tensor_members  # noqa: E402,F401 - Tensor.float(), .t(), .stride(), ...
from msxla.autodiff.linearize import linearize  # noqa: E402,F401 - mindspore.ops.linearize
from msxla.autodiff.taylor import derivative, jet  # noqa: E402,F401 - mindspore.ops.jet
from msxla.ops import operations, functional  # noqa: E402,F401
