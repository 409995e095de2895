"""``mindspore.nn`` losses."""
from msxla.nn.loss import embedding_losses, loss
from msxla.nn.loss.embedding_losses import *  # noqa: F401,F403
from msxla.nn.loss.loss import *  # noqa: F401,F403

__all__ = list(loss.__all__) + list(embedding_losses.__all__)
