"""The random generator a random transform draws from.

Inside a pipeline each row gets its own generator, seeded from the run's
seed, the epoch, the ``map`` node and the row's index: ``map`` installs it
(``sample_seed``) around the row's transforms, so the same row gets the same
random crop on every run and with any number of workers. Outside a pipeline
(a transform called directly on an image) the generator is one per thread,
seeded from ``ds.config.set_seed``.
"""
from __future__ import annotations

import threading

import numpy as np


class _State(threading.local):
    def __init__(self):
        self.seed = None      # (base, index) of the row being transformed
        self.rng = None
        self.eager = None
        self.eager_seed = None


_state = _State()


class sample_seed:
    """Context manager: random transforms in this block draw from ``(base, index)``."""

    __slots__ = ("key", "saved")

    def __init__(self, base: int, index: int):
        self.key = (base, index)

    def __enter__(self):
        self.saved = (_state.seed, _state.rng)
        _state.seed, _state.rng = self.key, None

    def __exit__(self, *exc):
        _state.seed, _state.rng = self.saved


def rng() -> np.random.Generator:
    """The generator for the current row (or the eager one outside pipelines)."""
    if _state.seed is not None:
        if _state.rng is None:
            _state.rng = np.random.default_rng(list(_state.seed))
        return _state.rng
    from msxla.dataset.core import config
    settings = config._settings
    if _state.eager is None or _state.eager_seed != settings.seed_generation:
        _state.eager = np.random.default_rng(settings.seed if settings.seed_set else None)
        _state.eager_seed = settings.seed_generation
    return _state.eager
