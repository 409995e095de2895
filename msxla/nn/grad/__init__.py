"""``mindspore.nn.grad``: Cells that wrap a network's forward- and reverse-mode
derivatives (``Jvp``, ``Vjp``)."""
from msxla.nn.grad.cell_grad import Jvp, Vjp

__all__ = ["Jvp", "Vjp"]
