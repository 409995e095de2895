"""What the layers below ``nn`` know of a Cell: its base type, its entry points, its epoch.

``nn.Cell`` is the only subclass of ``CellBase``. Capture and jit recognise a
Cell by ``isinstance(x, CellBase)`` and its compiled entry by
``method.__func__ is CellBase._graph_construct``; everything else they read
(``_hooks``, ``_mixed_precision_type``, ``_jit_config_dict``, ``construct``)
is an attribute of the instance.

``ATTR_EPOCH`` changes whenever any Cell attribute is set or deleted. A
compiled graph that read Cell attributes guards on the epoch first: while
nothing changed anywhere that guard costs one integer compare, and after any
change the full attribute guards decide whether the graph still holds.
"""
from __future__ import annotations

import itertools


class AttrEpoch:
    """A process-wide counter bumped by every Cell attribute write."""

    __slots__ = ("value", "_next")

    def __init__(self):
        self.value = 0
        self._next = itertools.count(1)

    def bump(self):
        self.value = next(self._next)


ATTR_EPOCH = AttrEpoch()
bump_epoch = ATTR_EPOCH.bump


class CellBase:
    """Base of ``nn.Cell``: calling it runs ``_call`` (``nn/cell.py``)."""

    __slots__ = ()

    def __call__(self, *args, **kwargs):
        return self._call(args, kwargs)

    def _graph_construct(self, *args, **kwargs):
        """What GRAPH_MODE and ``jit(cell)`` compile: construct with hooks and mixed
        precision (``nn.Cell._run_construct``)."""
        return self._run_construct(args, kwargs)
