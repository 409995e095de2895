"""``mindspore.nn`` training wrappers."""
from msxla.nn.wrap import cell_wrapper, grad_reducer, loss_scale
from msxla.nn.wrap.cell_wrapper import *  # noqa: F401,F403
from msxla.nn.wrap.grad_reducer import *  # noqa: F401,F403
from msxla.nn.wrap.loss_scale import *  # noqa: F401,F403

__all__ = list(cell_wrapper.__all__) + list(grad_reducer.__all__) + list(loss_scale.__all__)
