"""``mindspore.dataset``: data pipelines for training, on grain.

Sources (user Python objects, standard file formats, MindRecord) feed
operations (``map``, ``batch``, ``shuffle``, ``repeat``, ...) that end in an
iterator yielding Tensors. The pipeline runs on grain (see ``engine``); this
package keeps MindSpore's API, names, defaults, sizes, shapes, dtypes and
errors.
"""
from msxla import context  # noqa: F401 - mindspore.dataset.context
from msxla.dataset.core import config  # noqa: F401
from msxla.dataset.engine import *  # noqa: F401,F403
from msxla.dataset.engine import __all__ as _engine_all
from msxla.dataset.engine.datasets import Dataset  # noqa: F401

__all__ = list(_engine_all)
