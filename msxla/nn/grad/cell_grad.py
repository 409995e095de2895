"""``Jvp`` and ``Vjp``: a network's Jacobian-vector and vector-Jacobian products as Cells.

``Jvp(net)(*inputs, v)`` returns ``(net(*inputs), J @ v)`` and ``Vjp(net)(*inputs, v)``
returns ``(net(*inputs), v @ J)``; ``v`` is the last argument (a Tensor, or a tuple of
Tensors: one per input for ``Jvp``, one per output for ``Vjp``). With one input, the
derivative is a Tensor, otherwise a tuple. They call ``mindspore.jvp`` / ``mindspore.vjp``,
so they run in PyNative, under jit and as Cells compiled in GRAPH_MODE alike.
"""
from __future__ import annotations

from msxla.autodiff.vjp import jvp, vjp
from msxla.nn.cell import Cell

__all__ = ["Jvp", "Vjp"]


class Jvp(Cell):
    """The forward-mode derivative of ``fn`` along ``v``: ``(fn(*inputs), J @ v)``."""

    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def construct(self, *args):
        inputs, v = args[:-1], args[-1]
        if len(inputs) == 1:
            return jvp(self.fn, inputs[0], v)
        return jvp(self.fn, inputs, v)


class Vjp(Cell):
    """The reverse-mode derivative of ``fn`` pulled back from ``v``: ``(fn(*inputs), v @ J)``."""

    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def construct(self, *args):
        inputs, v = args[:-1], args[-1]
        out, pullback = vjp(self.fn, *inputs)
        grads = pullback(*v) if isinstance(v, tuple) else pullback(v)
        if len(inputs) == 1 and isinstance(grads, tuple):
            grads = grads[0]
        return out, grads
