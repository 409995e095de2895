"""``mindspore.nn`` layers, one family per module (MindSpore's module names)."""
from msxla.nn.layer import (activation, basic, conv, embedding, normalization, pooling,
                            rnn_cells, rnns, sync_batch_norm, transformer)
from msxla.nn.layer.activation import *  # noqa: F401,F403
from msxla.nn.layer.basic import *  # noqa: F401,F403
from msxla.nn.layer.conv import *  # noqa: F401,F403
from msxla.nn.layer.embedding import *  # noqa: F401,F403
from msxla.nn.layer.normalization import *  # noqa: F401,F403
from msxla.nn.layer.pooling import *  # noqa: F401,F403
from msxla.nn.layer.rnn_cells import *  # noqa: F401,F403
from msxla.nn.layer.rnns import *  # noqa: F401,F403
from msxla.nn.layer.sync_batch_norm import *  # noqa: F401,F403
from msxla.nn.layer.transformer import *  # noqa: F401,F403

__all__ = (activation.__all__ + basic.__all__ + conv.__all__ + embedding.__all__
           + normalization.__all__ + pooling.__all__ + rnn_cells.__all__ + rnns.__all__
           + sync_batch_norm.__all__ + transformer.__all__)
