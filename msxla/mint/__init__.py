"""``mindspore.mint``: MindSpore's torch-like functional API (``mint.add(x, y,
alpha=2)``, ``mint.sum(x, dim, keepdim)``, ``mint.max(x, dim)`` -> values and
indices, ``mint.zeros(2, 3)``, ...), as thin faces over msxla's op rows.

The functions are grouped by kind: ``_math.py`` (arithmetic, comparisons,
reductions, sorting), ``_shape.py`` (shape, indexing, matrix products),
``_creation.py`` (creation and random draws), ``_extra.py`` (PyTorch-signature
faces: ``index_add``, ``cdist``, ``conv2d``, ``real``, ``imag``). mint names that MindSpore 2.10
shares with ``ops`` (``mint.abs`` is ``ops.abs``) come from the path index
(``msxla._paths``); ``mint.nn`` holds the layers and ``mint.nn.functional``.
"""
from msxla.mint import _creation, _extra, _math, _shape
from msxla.mint._creation import *  # noqa: F401,F403
from msxla.mint._extra import *  # noqa: F401,F403
from msxla.mint._math import *  # noqa: F401,F403
from msxla.mint._shape import *  # noqa: F401,F403


def _public(module):
    return [n for n, v in vars(module).items()
            if not n.startswith("_") and callable(v) and getattr(v, "__module__", "") != "typing"
            and n not in ("annotations", "ops", "mstype", "np", "Tensor")]


__all__ = sorted(set(_public(_math) + _public(_shape) + _public(_creation) + _public(_extra)))
