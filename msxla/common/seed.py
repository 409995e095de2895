"""Global seeds and the random-number state (``set_seed``, ``get_seed``).

Random ops draw keys from one jax PRNG key held in an internal Parameter.
Because it is a Parameter, a random op inside a jitted function reads and
advances it as graph state: every call of a compiled graph draws fresh
numbers, exactly as the same calls would in PyNative, and ``set_seed`` makes
both reproducible. Initializers use numpy's generator seeded the same way.
"""
from __future__ import annotations

import threading

import jax
import numpy as np

_lock = threading.Lock()
_seed = None
_np_rng = np.random.default_rng()
_rng_param = None


def set_seed(seed):
    """Set the global seed (``mindspore.set_seed``): random ops and initializers
    become reproducible."""
    global _seed, _np_rng
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise TypeError(f"For 'set_seed', the argument 'seed' must be int, but got "
                        f"{type(seed).__name__}.")
    if seed < 0:
        raise ValueError(f"For 'set_seed', the argument 'seed' must be non-negative, "
                         f"but got {seed}.")
    with _lock:
        _seed = seed
        _np_rng = np.random.default_rng(seed)
        _state().set_data(_key_array(seed))


def get_seed():
    """The global seed, or None if none was set."""
    return _seed


def numpy_rng() -> np.random.Generator:
    return _np_rng


def _key_array(seed):
    return jax.random.key_data(jax.random.key(seed, impl="threefry2x32"))


def _state():
    """The Parameter holding the current PRNG key (created on first use)."""
    global _rng_param
    if _rng_param is None:
        from msxla.common.parameter import Parameter
        from msxla.common.tensor import wrap
        seed = _seed if _seed is not None else int(np.random.SeedSequence().entropy % (2**63))
        _rng_param = Parameter(wrap(_key_array(seed)), name="_msxla_rng_state",
                               requires_grad=False)
    return _rng_param


def rng_state():
    """The Parameter that random ops read and advance."""
    return _state()


def next_key(seed=0, seed2=0):
    """A fresh raw key for one random op; advances the global state.

    ``seed``/``seed2`` (MindSpore's per-op seeds) are folded in when non-zero."""
    state = _state()
    keys = jax.random.split(jax.random.wrap_key_data(state._data, impl="threefry2x32"))
    state._data = jax.random.key_data(keys[0])
    key = keys[1]
    if seed or seed2:
        key = jax.random.fold_in(jax.random.fold_in(key, seed), seed2)
    return key
