"""``NPUAllocFloatStatus``, ``NPUClearFloatStatus``, ``NPUGetFloatStatus``: Ascend's
float-overflow status register.

Older loss-scaling code (model zoo ``TrainOneStepWithLossScaleCell`` variants)
builds these in ``__init__`` on every backend and calls them on Ascend only. As
in MindSpore 2.10 on CPU and GPU, they construct, and calling one raises
RuntimeError: XLA devices have no status register. The error says what to use
instead (``ops.FloatStatus`` or ``ops.isfinite`` on the gradients, as
MindSpore's GPU path does).
"""
from __future__ import annotations

from msxla.errors import user_error
from msxla.ops.primitive import PrimDef
from msxla.ops.surface import composite, exports


def _unsupported(name):
    def call(prim, *args):
        raise user_error(RuntimeError, (
            f"Unsupported op [{name}] on this device: it reads Ascend's float status register, "
            "which CPU and GPU devices do not have (MindSpore 2.10 refuses it there too)."),
            hint="detect overflow with ops.FloatStatus()(grad) or ops.isfinite on the "
                 "gradients, as MindSpore's GPU path does.")
    return call


@composite(public=False, primitive=PrimDef("NPUAllocFloatStatus",
                                           call=_unsupported("NPUAllocFloatStatus")))
def _npu_alloc_float_status():
    """Ascend only: a float32 [8] status Tensor."""


@composite(public=False, primitive=PrimDef("NPUClearFloatStatus",
                                           call=_unsupported("NPUClearFloatStatus")))
def _npu_clear_float_status(x):
    """Ascend only: clear the float status register."""


@composite(public=False, primitive=PrimDef("NPUGetFloatStatus",
                                           call=_unsupported("NPUGetFloatStatus")))
def _npu_get_float_status(x):
    """Ascend only: read the float status register into ``x``."""


__all__ = exports(__name__)
