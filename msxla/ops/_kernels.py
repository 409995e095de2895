"""Op kernels at jit_level O0 on a GPU: XLA fuses inside a MindSpore op, never across ops.

MindSpore's O0 runs a graph kernel by kernel, with no graph-kernel fusion:
each op (a BatchNorm, a Softmax, a GELU) is one kernel. One op is a dozen
XLA instructions, so XLA with its fusion passes off (msxla's former O0) ran
it as a dozen loops over memory: slower than PyNative, whose ops are each
compiled, fused inside, as one executable. Instead, while an O0 graph is
captured for a GPU, every op's traced outputs pass one
``optimization_barrier``: XLA:GPU keeps barriers through fusion, so it fuses
each op's instructions as in PyNative and keeps the ops apart. The barriers'
gradients are barriers too, so the backward pass keeps the same boundaries.

XLA:CPU removes barriers before fusing (its emitter cannot run them), so on a
CPU no barrier is put and O0 compiles like O1: XLA's fusion across ops, which
gives PyNative's results to within float rounding (``tests/jit/test_real_models.py``).
"""
from __future__ import annotations

import contextlib
import threading

import jax


class _State(threading.local):
    per_op = False


_state = _State()


def platform() -> str:
    """The platform graphs compile for: ``device_target``'s (jax's default device), else
    jax's default backend."""
    device = jax.config.jax_default_device
    if device is None:
        return jax.default_backend()
    return device if isinstance(device, str) else device.platform


def kernels_kept() -> bool:
    """Does the platform's compiler keep op boundaries (optimization barriers) through
    fusion? XLA:CPU drops them first."""
    return platform() != "cpu"


def per_op() -> bool:
    """True while an O0 graph is being captured on this thread."""
    return _state.per_op


@contextlib.contextmanager
def op_kernels(on: bool = True):
    """Within: ops traced on this thread end their kernel at their outputs (O0)."""
    old, _state.per_op = _state.per_op, on
    try:
        yield
    finally:
        _state.per_op = old


def end_kernel(out):
    """``out`` (an op's result: an array, or nested tuples and lists) with its traced
    arrays passed through one optimization barrier."""
    leaves, tree = jax.tree_util.tree_flatten(out)
    traced = [i for i, x in enumerate(leaves) if isinstance(x, jax.core.Tracer)]
    if not traced:
        return out
    fenced = jax.lax.optimization_barrier(tuple(leaves[i] for i in traced))
    for i, x in zip(traced, fenced):
        leaves[i] = x
    return jax.tree_util.tree_unflatten(tree, leaves)
