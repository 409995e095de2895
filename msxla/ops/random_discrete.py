"""Op rows: discrete random draws (randint, randint_like, bernoulli, multinomial,
random_categorical, randperm, shuffle, poisson, random_poisson, choice_with_mask) and
the UniformInt, Bernoulli, Multinomial, RandomCategorical, RandpermV2, RandomShuffle,
Poisson, RandomPoisson and RandomChoiceWithMask primitives.

Keys are drawn as in ``msxla.ops.random`` (the global random state, with
per-op seeds folded in). ``randperm`` is the exception MindSpore makes: a
non-zero ``seed`` gives the same permutation every call (with ``offset``).
"""
from __future__ import annotations

import jax
import jax.numpy as jnp

from msxla.common import dtype as mstype
from msxla.common.tensor import Tensor
from msxla.ops.primitive import PrimDef
from msxla.ops.random import _SEEDS, as_shape, key_for, random_row
from msxla.ops.surface import composite, exports, public_face, tensor_method


def _check_int(name, v, what):
    if not isinstance(v, int) or isinstance(v, bool):
        raise TypeError(f"For '{name}', '{what}' must be an int, but got {type(v)}.")


def _int_dtype(name, dtype):
    if dtype not in mstype.int_type:
        raise ValueError(f"For '{name}', the 'dtype' must be an int type, but got {dtype}.")
    return dtype


def _seeds(prim):
    return key_for(prim.attrs.get("seed", 0), prim.attrs.get("seed2", 0))


def _uniform_int_call(prim, shape, minval, maxval):
    return _randint(_seeds(prim), minval, maxval, as_shape("UniformInt", shape), mstype.int32)


@random_row("randint", static=("size", "dtype"), prim="UniformInt",
            primitive=PrimDef(init=_SEEDS, call=_uniform_int_call))
def _randint(key, low, high, size, dtype=mstype.int64):
    return jax.random.randint(key, size, low, high, jnp.int64).astype(dtype.np_dtype)


@public_face(_randint)
def randint(low, high, size, seed=None, *, dtype=None):
    """Integers uniform in ``[low, high)`` of shape ``size`` (a tuple)."""
    dtype = _int_dtype("randint", mstype.int64 if dtype is None else dtype)
    if not isinstance(size, tuple):
        raise ValueError(f"For 'randint', the input 'size' must be a tuple, but got {size}.")
    _check_int("randint", low, "low")
    _check_int("randint", high, "high")
    if low >= high:
        raise ValueError(f"For 'randint', 'low' must be less than 'high', but got low: {low}, "
                         f"high: {high}.")
    return _randint(key_for(seed), low, high, as_shape("randint", size), dtype)


@composite()
def randint_like(input, low, high, seed=None, *, dtype=None):
    """``randint`` with ``input``'s shape (and dtype, unless given)."""
    if not isinstance(input, Tensor):
        raise TypeError(f"For 'randint_like', the 'input' must be a Tensor, but got "
                        f"{type(input)}")
    dtype = _int_dtype("randint_like", input.dtype if dtype is None else dtype)
    _check_int("randint_like", low, "low")
    _check_int("randint_like", high, "high")
    return _randint(key_for(seed), low, high, tuple(input.shape), dtype)


def _bernoulli_call(prim, x, p):
    seed = prim.attrs["seed"]
    return _bernoulli(key_for(0 if seed == -1 else seed, prim.attrs["offset"]), x, p)


@random_row("bernoulli", prim="Bernoulli",
            primitive=PrimDef(init=(("seed", -1), ("offset", 0)), call=_bernoulli_call))
def _bernoulli(key, input, p=0.5):
    u = jax.random.uniform(key, input.shape, jnp.float32)
    return (u < p).astype(input.dtype)


@public_face(_bernoulli)
def bernoulli(input, p=0.5, seed=None):
    """0/1 samples with probability ``p`` (scalar or Tensor), shaped and typed like ``input``."""
    return _bernoulli(key_for(seed), input, p)


@random_row("multinomial", static=("num_samples", "replacement"), prim="Multinomial",
            primitive=PrimDef(init=_SEEDS + (("dtype", mstype.int32),),
                              call=lambda prim, x, num_samples: _multinomial(
                                  _seeds(prim), x, int(num_samples)).astype(prim.attrs["dtype"])))
def _multinomial(key, input, num_samples, replacement=True):
    logits = jnp.log(input.astype(jnp.float32))
    if replacement:
        batch = logits.shape[:-1]
        out = jax.random.categorical(key, logits, axis=-1, shape=(num_samples,) + batch)
        return jnp.moveaxis(out, 0, -1).astype(jnp.int32)
    gumbel = jax.random.gumbel(key, logits.shape, jnp.float32)
    return jax.lax.top_k(logits + gumbel, num_samples)[1].astype(jnp.int32)


@public_face(_multinomial)
def multinomial(input, num_samples, replacement=True, seed=None):
    """``num_samples`` class indices per row drawn with the (unnormalised) weights ``input``."""
    if input.ndim not in (1, 2):
        raise ValueError(f"For 'multinomial', the dimension of inputs must be 1d or 2d, but got "
                         f"{input.ndim}.")
    if not replacement and input.shape[-1] < num_samples:
        raise ValueError(f"For 'multinomial', the 'num_samples' must be less than the last "
                         f"dimension of input without 'replacement', but got 'num_samples': "
                         f"{num_samples} and 'replacement': {replacement}")
    return _multinomial(key_for(seed), input, num_samples, replacement)


@composite()
def multinomial_with_replacement(x, seed, offset, numsamples, replacement=False):
    """``multinomial`` drawn from a key fixed by ``seed`` and ``offset`` (a non-zero seed
    repeats; seed 0 uses the global random state)."""
    key = (jax.random.fold_in(jax.random.key(int(seed), impl="threefry2x32"), int(offset))
           if seed else key_for())
    return _multinomial(key, x, int(numsamples), bool(replacement)).astype(mstype.int64)


@random_row("random_categorical", static=("num_sample", "dtype"), prim="RandomCategorical",
            primitive=PrimDef(init=(("dtype", mstype.int64),),
                              call=lambda prim, logits, num_sample, seed=0: _random_categorical(
                                  key_for(seed), logits, int(num_sample), prim.attrs["dtype"])))
def _random_categorical(key, logits, num_sample, dtype=mstype.int64):
    out = jax.random.categorical(key, logits, axis=-1, shape=(num_sample,) + logits.shape[:-1])
    return jnp.moveaxis(out, 0, -1).astype(dtype.np_dtype)


@public_face(_random_categorical)
def random_categorical(logits, num_sample, seed=0, dtype=mstype.int64):
    """``num_sample`` class indices per row of ``logits`` (unnormalised log-probabilities)."""
    return _random_categorical(key_for(seed), logits, num_sample, dtype)


@random_row("randperm", static=("n", "dtype"), prim="RandpermV2",
            primitive=PrimDef(init=(("seed", 0), ("offset", 0), ("dtype", mstype.int64)),
                              call=lambda prim, n: randperm(int(n), prim.attrs["seed"],
                                                            prim.attrs["offset"],
                                                            prim.attrs["dtype"])))
def _randperm(key, n, dtype=mstype.int64):
    return jax.random.permutation(key, n).astype(dtype.np_dtype)


@public_face(_randperm)
def randperm(n, seed=0, offset=0, dtype=mstype.int64):
    """A random permutation of ``0 .. n-1`` (fixed for a non-zero ``seed`` and ``offset``)."""
    if not isinstance(n, int) or n < 0:
        raise ValueError(f"For 'randperm', 'n' must be a non-negative int, but got {n}.")
    if seed:
        key = jax.random.fold_in(jax.random.key(int(seed), impl="threefry2x32"), int(offset))
    else:
        key = key_for()
    return _randperm(key, n, dtype)


@random_row("shuffle", prim="RandomShuffle",
            primitive=PrimDef(init=_SEEDS, call=lambda prim, x: _shuffle(_seeds(prim), x)))
def _shuffle(key, x):
    return jax.random.permutation(key, x, axis=0) if x.ndim else x


@public_face(_shuffle)
def shuffle(x, seed=None):
    """``x`` with its first dimension randomly permuted."""
    return _shuffle(key_for(seed), x)


@random_row("poisson", static=("shape",), prim="Poisson",
            primitive=PrimDef(init=_SEEDS, call=lambda prim, shape, mean: _poisson(
                _seeds(prim), as_shape("Poisson", shape), mean)))
def _poisson(key, shape, mean):
    shape = jnp.broadcast_shapes(shape, mean.shape)
    return jax.random.poisson(key, jnp.broadcast_to(mean, shape), shape).astype(jnp.float32)


@public_face(_poisson)
def poisson(shape, mean, seed=None):
    """Poisson counts (as float32) with rate ``mean`` broadcast with ``shape``."""
    return _poisson(key_for(seed), as_shape("poisson", shape), mean)


@random_row("random_poisson", static=("shape", "dtype"), prim="RandomPoisson",
            primitive=PrimDef(init=_SEEDS + (("dtype", mstype.int64),),
                              call=lambda prim, shape, rate: _random_poisson(
                                  _seeds(prim), as_shape("RandomPoisson", shape), rate,
                                  prim.attrs["dtype"])))
def _random_poisson(key, shape, rate, dtype=mstype.float32):
    lam = jnp.broadcast_to(rate, shape + rate.shape)
    return jax.random.poisson(key, lam, lam.shape).astype(dtype.np_dtype)


@public_face(_random_poisson)
def random_poisson(shape, rate, seed=None, dtype=mstype.float32):
    """Poisson counts of shape ``shape + rate.shape``."""
    return _random_poisson(key_for(seed), as_shape("random_poisson", shape), rate, dtype)


# ------------------------------------------------------------- Tensor methods
@tensor_method("bernoulli")
def _tensor_bernoulli(self, *, generator=None):
    return _bernoulli(key_for(), self, self)


@tensor_method("bernoulli_")
def _tensor_bernoulli_(self, p=0.5, *, generator=None):
    self._data = _bernoulli(key_for(), self, p)._data
    return self


@tensor_method("random_")
def _tensor_random_(self, from_=0, to=None, *, generator=None):
    if to is None:
        to = 2 ** 24 if mstype.is_float(self.dtype) else int(
            jnp.iinfo(self.dtype.np_dtype).max)
    self._data = _randint(key_for(), int(from_), int(to), tuple(self.shape), mstype.int64
                          )._data.astype(self.dtype.np_dtype)
    return self


@tensor_method("multinomial")
def _tensor_multinomial(self, num_samples, replacement=True, seed=None):
    return multinomial(self, num_samples, replacement, seed)


@tensor_method("random_categorical")
def _tensor_random_categorical(self, num_sample, seed=0, dtype=mstype.int64):
    return random_categorical(self, num_sample, seed, dtype)



@composite()
def random_(input, from_=0, to=None, *, generator=None):
    """Fill ``input`` in place with integers uniform in ``[from_, to)``."""
    return _tensor_random_(input, from_, to)


@random_row("choice_with_mask", static=("count",), prim="RandomChoiceWithMask",
            primitive=PrimDef(init=(("count", 256),) + _SEEDS,
                              call=lambda prim, x: _choice_with_mask(_seeds(prim), x,
                                                                     prim.attrs["count"])))
def _choice_with_mask(key, input_x, count=256):
    flat = input_x.reshape(-1)
    size = flat.shape[0]
    order = jnp.argsort(jnp.where(flat, jax.random.uniform(key, (size,)), 2.0))
    pick = jnp.zeros(count, order.dtype).at[:min(count, size)].set(order[:count])
    mask = flat[pick] & (jnp.arange(count) < size)
    index = jnp.stack(jnp.unravel_index(pick, input_x.shape), -1) if input_x.ndim else \
        pick[:, None]
    return (index * mask[:, None]).astype(jnp.int32), mask


@public_face(_choice_with_mask)
def choice_with_mask(input_x, count=256, seed=None):
    """``(index, mask)``: up to ``count`` positions of the True elements of the bool
    ``input_x``, in random order (``(count, rank)`` int32, zero rows where ``mask`` is
    False)."""
    _check_int("choice_with_mask", count, "count")
    if count <= 0:
        raise ValueError(f"For 'RandomChoiceWithMask', 'count' must be positive, but got "
                         f"{count}.")
    return _choice_with_mask(key_for(seed), input_x, count)


__all__ = exports(__name__)
