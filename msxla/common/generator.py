"""``mindspore.common.generator``'s module functions on msxla's one random stream:
``manual_seed``, ``initial_seed``, ``get_rng_state``, ``set_rng_state``.

msxla's random ops draw from one jax PRNG key (``msxla.common.seed``).
``manual_seed(seed)`` restarts that stream from ``seed`` (the initializers'
numpy generator is ``set_seed``'s business, as in MindSpore);
``get_rng_state()`` returns the stream's state as a uint32 Tensor and
``set_rng_state`` puts such a Tensor back, so saving and restoring the state
replays the same numbers. The state's bytes are msxla's, not MindSpore's.
"""
from __future__ import annotations

import numpy as np

from msxla.common import seed as _seed

_initial = None


def manual_seed(seed):
    """Restart the random ops' stream from ``seed`` (an int)."""
    global _initial
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise TypeError(f"For 'manual_seed', the argument 'seed' must be int, but got "
                        f"{type(seed).__name__}.")
    _initial = seed
    _seed.rng_state().set_data(_seed._key_array(seed % (2**64)))


def initial_seed():
    """The seed last given to ``manual_seed`` (or ``set_seed``), else 0."""
    if _initial is not None:
        return _initial
    return _seed.get_seed() or 0


def get_rng_state():
    """A copy of the random ops' state (a uint32 Tensor)."""
    from msxla.common.tensor import Tensor
    return Tensor(np.array(_seed.rng_state().asnumpy(), np.uint32))


def set_rng_state(state):
    """Put back a state that ``get_rng_state`` returned."""
    from msxla.common.tensor import Tensor
    current = _seed.rng_state()
    arr = state.asnumpy() if isinstance(state, Tensor) else np.asarray(state)
    if arr.shape != tuple(current.shape):
        raise ValueError(f"For 'set_rng_state', the state must have shape {tuple(current.shape)} "
                         f"(a value get_rng_state returned), but got {arr.shape}.")
    current.set_data(Tensor(arr.astype(np.uint32)))


__all__ = ["manual_seed", "initial_seed", "get_rng_state", "set_rng_state"]
