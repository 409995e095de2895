"""``mindspore.nn`` training wrappers."""
from msxla.nn.wrap import cell_wrapper
from msxla.nn.wrap.cell_wrapper import *  # noqa: F401,F403

__all__ = list(cell_wrapper.__all__)
