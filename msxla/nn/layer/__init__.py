"""``mindspore.nn`` layers, one family per module (MindSpore's module names)."""
from msxla.nn.layer import (activation, basic, basic_ops, combined, conv, conv_transpose, dense,
                            embedding, image, instance_norm, normalization, padding, pooling,
                            rnn_cells, rnns, sync_batch_norm, transformer)
from msxla.nn.layer.activation import *  # noqa: F401,F403
from msxla.nn.layer.basic import *  # noqa: F401,F403
from msxla.nn.layer.basic_ops import *  # noqa: F401,F403
from msxla.nn.layer.combined import *  # noqa: F401,F403
from msxla.nn.layer.conv import *  # noqa: F401,F403
from msxla.nn.layer.conv_transpose import *  # noqa: F401,F403
from msxla.nn.layer.dense import *  # noqa: F401,F403
from msxla.nn.layer.embedding import *  # noqa: F401,F403
from msxla.nn.layer.image import *  # noqa: F401,F403
from msxla.nn.layer.instance_norm import *  # noqa: F401,F403
from msxla.nn.layer.normalization import *  # noqa: F401,F403
from msxla.nn.layer.padding import *  # noqa: F401,F403
from msxla.nn.layer.pooling import *  # noqa: F401,F403
from msxla.nn.layer.rnn_cells import *  # noqa: F401,F403
from msxla.nn.layer.rnns import *  # noqa: F401,F403
from msxla.nn.layer.sync_batch_norm import *  # noqa: F401,F403
from msxla.nn.layer.transformer import *  # noqa: F401,F403

__all__ = (activation.__all__ + basic.__all__ + basic_ops.__all__ + combined.__all__
           + conv.__all__ + conv_transpose.__all__ + dense.__all__ + embedding.__all__
           + image.__all__ + instance_norm.__all__ + normalization.__all__ + padding.__all__
           + pooling.__all__ + rnn_cells.__all__ + rnns.__all__ + sync_batch_norm.__all__
           + transformer.__all__)
