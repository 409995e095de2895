"""``mindspore.nn`` losses."""
from msxla.nn.loss import loss
from msxla.nn.loss.loss import *  # noqa: F401,F403

__all__ = list(loss.__all__)
