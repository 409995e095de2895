"""Op rows: continuous random distributions (uniform, normal, standard_normal, rand, randn,
rand_like, randn_like, gamma, random_gamma, standard_laplace, laplace) and the
StandardNormal, UniformReal, Gamma, RandomGamma and StandardLaplace primitives.

Every random row takes a PRNG key as its first argument. The public function
(MindSpore's signature) draws that key with ``msxla.common.seed.next_key``,
which advances the global random state held in a Parameter: eagerly each call
draws fresh numbers, under jit the state is graph state so every call of the
compiled graph does too, and ``set_seed(n)`` makes the sequence reproducible.
A non-zero per-op ``seed`` (and a primitive's ``seed2``) is folded into the key.
"""
from __future__ import annotations

import jax
import jax.numpy as jnp

from msxla.common import dtype as mstype
from msxla.common.seed import next_key
from msxla.common.tensor import Tensor, wrap
from msxla.ops.opdef import op
from msxla.ops.primitive import PrimDef
from msxla.ops.surface import composite, exports, public_face, tensor_method


def random_row(name, static=(), prim=None, primitive=None, public=True):
    """Register a random row ``impl(key, ...)``: not differentiable, dtypes handled inside.

    Its public face (MindSpore's signature, drawing the key) is set with ``public_face``."""
    return op(name, static=static, dtype_args=(), prim=prim, primitive=primitive, public=public,
              differentiable=False)


def key_for(seed=None, seed2=0):
    """The key for one draw: the next global key, with non-zero op seeds folded in."""
    return next_key(int(seed or 0), int(seed2 or 0))


_SEEDS = (("seed", 0), ("seed2", 0))


def _seeded(fn):
    """A primitive call drawing its key from the primitive's (seed, seed2)."""
    def call(prim, *args):
        return fn(key_for(prim.attrs["seed"], prim.attrs["seed2"]), *args)
    return call


def _seeded_prim(fn):
    """A ``Prim(seed=0, seed2=0)(shape, ...)`` calling the row ``fn(key, shape, ...)``."""
    return PrimDef(init=_SEEDS, call=_seeded(fn))


def as_shape(name, shape):
    if isinstance(shape, Tensor):
        shape = shape.asnumpy().tolist()
    if isinstance(shape, int):
        shape = (shape,)
    if not isinstance(shape, (tuple, list)) or not all(isinstance(s, int) for s in shape):
        raise TypeError(f"For '{name}', 'shape' must be a tuple of int, but got {shape}.")
    if any(s < 0 for s in shape):
        raise ValueError(f"For '{name}', the elements of 'shape' must be non-negative, but got "
                         f"{tuple(shape)}.")
    return tuple(shape)


def _size(name, size):
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = tuple(size[0])
    return as_shape(name, tuple(size))


def _float_dtype(name, dtype, default=mstype.float32):
    dtype = default if dtype is None else mstype.to_ms(dtype)
    if dtype not in mstype.float_type:
        raise ValueError(f"For '{name}', the 'dtype' must be a float type, but got {dtype}.")
    return dtype


# ------------------------------------------------------------- uniform / normal
@random_row("uniform", static=("shape", "dtype"), prim="UniformReal")
def _uniform(key, shape, minval, maxval, dtype=mstype.float32):
    shape = jnp.broadcast_shapes(shape, minval.shape, maxval.shape)
    if dtype is mstype.int32:
        return jax.random.randint(key, shape, minval, maxval, jnp.int32)
    u = jax.random.uniform(key, shape, jnp.float32)
    return (u * (maxval - minval) + minval).astype(dtype.np_dtype)


@public_face(_uniform)
def uniform(shape, minval, maxval, seed=None, dtype=mstype.float32):
    """Uniform numbers in ``[minval, maxval)`` (integers when ``dtype`` is int32)."""
    if not isinstance(minval, Tensor) or not isinstance(maxval, Tensor):
        raise TypeError("For functional operator[uniform], the input[minval] and input[maxval] "
                        "must be a Tensor.")
    if dtype not in (mstype.int32, mstype.float32):
        raise TypeError(f"The 'uniform' doesn't support '{dtype}' and expect to receive "
                        "[mindspore.int32, mindspore.float32].")
    for v in (minval, maxval):
        if v.dtype is not dtype:
            raise TypeError(f"For 'uniform', the value data type '{v.dtype}' is not consistent "
                            f"with assigned tensor data type {dtype}.")
    return _uniform(key_for(seed), as_shape("uniform", shape), minval, maxval, dtype)


@random_row("normal", static=("shape",), prim="StandardNormal")
def _normal(key, shape, mean, stddev):
    dtype = jnp.result_type(mean, stddev, jnp.float32)
    shape = jnp.broadcast_shapes(shape, jnp.shape(mean), jnp.shape(stddev))
    return jax.random.normal(key, shape, jnp.float32).astype(dtype) * stddev + mean


@public_face(_normal)
def normal(shape, mean, stddev, seed=None):
    """Normal numbers with ``mean`` and ``stddev`` (broadcast with ``shape``)."""
    mean = mean if isinstance(mean, Tensor) else Tensor(mean)
    stddev = stddev if isinstance(stddev, Tensor) else Tensor(stddev)
    return _normal(key_for(seed), as_shape("normal", shape), mean, stddev)


@random_row("standard_normal", static=("shape", "dtype"), prim="StandardNormal",
            primitive=_seeded_prim(lambda k, shape: _standard_normal(
                k, as_shape("StandardNormal", shape))))
def _standard_normal(key, shape, dtype=mstype.float32):
    return jax.random.normal(key, shape, jnp.float32).astype(dtype.np_dtype)


@public_face(_standard_normal)
def standard_normal(shape, seed=None):
    """Standard normal numbers (float32)."""
    return _standard_normal(key_for(seed), as_shape("standard_normal", shape))


@random_row("rand", static=("shape", "dtype"), prim="UniformReal",
            primitive=_seeded_prim(lambda k, shape: _rand(k, as_shape("UniformReal", shape))))
def _rand(key, shape, dtype=mstype.float32):
    return jax.random.uniform(key, shape, jnp.float32).astype(dtype.np_dtype)


@public_face(_rand)
def rand(*size, dtype=None, seed=None):
    """Uniform numbers in ``[0, 1)`` of shape ``size``."""
    return _rand(key_for(seed), _size("rand", size), _float_dtype("rand", dtype))


@composite()
def randn(*size, dtype=None, seed=None):
    """Standard normal numbers of shape ``size``."""
    return _standard_normal(key_for(seed), _size("randn", size), _float_dtype("randn", dtype))


@composite()
def rand_like(input, seed=None, *, dtype=None):
    """``rand`` with ``input``'s shape (and dtype, unless given)."""
    return _rand(key_for(seed), tuple(input.shape),
                 _float_dtype("rand_like", dtype, input.dtype))


@composite()
def randn_like(input, seed=None, *, dtype=None):
    """``randn`` with ``input``'s shape (float32 unless ``dtype`` is given)."""
    return _standard_normal(key_for(seed), tuple(input.shape),
                            _float_dtype("randn_like", dtype))


@random_row("truncated_normal", static=("shape", "dtype"), prim="TruncatedNormal",
            public=False, primitive=PrimDef(
                init=_SEEDS + (("dtype", mstype.float32),),
                call=lambda prim, shape: _truncated_normal(
                    key_for(prim.attrs["seed"], prim.attrs["seed2"]),
                    as_shape("TruncatedNormal", shape), prim.attrs["dtype"])))
def _truncated_normal(key, shape, dtype=mstype.float32):
    return jax.random.truncated_normal(key, -2.0, 2.0, shape, jnp.float32).astype(dtype.np_dtype)


@public_face(_truncated_normal)
def truncated_normal(shape, seed=None, dtype=mstype.float32):
    """Standard normal numbers redrawn until they fall inside ``[-2, 2]``."""
    return _truncated_normal(key_for(seed), as_shape("TruncatedNormal", shape), dtype)


# ------------------------------------------------------------- gamma / laplace
@random_row("gamma", static=("shape",), prim="Gamma",
            primitive=_seeded_prim(lambda k, shape, alpha, beta: _gamma(
                k, as_shape("Gamma", shape), alpha, beta)))
def _gamma(key, shape, alpha, beta):
    shape = jnp.broadcast_shapes(shape, jnp.broadcast_shapes(alpha.shape, beta.shape))
    a = jnp.broadcast_to(alpha, shape)
    return (jax.random.gamma(key, a, shape, alpha.dtype) / beta).astype(alpha.dtype)


@public_face(_gamma)
def gamma(shape, alpha, beta, seed=None):
    """Gamma numbers with shape ``alpha`` and rate ``beta`` (broadcast with ``shape``)."""
    return _gamma(key_for(seed), as_shape("gamma", shape), alpha, beta)


@random_row("random_gamma", static=("shape",), prim="RandomGamma",
            primitive=_seeded_prim(lambda k, shape, alpha: _random_gamma(
                k, as_shape("RandomGamma", shape), alpha)))
def _random_gamma(key, shape, alpha):
    a = jnp.broadcast_to(alpha, shape + alpha.shape)
    return jax.random.gamma(key, a, a.shape, alpha.dtype)


@public_face(_random_gamma)
def random_gamma(shape, alpha, seed=None):
    """Standard gamma numbers, shape ``shape + alpha.shape``."""
    return _random_gamma(key_for(seed), as_shape("random_gamma", shape), alpha)


@random_row("standard_laplace", static=("shape",), prim="StandardLaplace",
            primitive=_seeded_prim(lambda k, shape: _standard_laplace(
                k, as_shape("StandardLaplace", shape))))
def _standard_laplace(key, shape):
    return jax.random.laplace(key, shape, jnp.float32)


@public_face(_standard_laplace)
def standard_laplace(shape, seed=None):
    """Laplace(0, 1) numbers (float32)."""
    return _standard_laplace(key_for(seed), as_shape("standard_laplace", shape))


@random_row("laplace", static=("shape",), prim="StandardLaplace")
def _laplace(key, shape, mean, lambda_param):
    shape = jnp.broadcast_shapes(shape, mean.shape, lambda_param.shape)
    return jax.random.laplace(key, shape, jnp.float32) * lambda_param + mean


@public_face(_laplace)
def laplace(shape, mean, lambda_param, seed=None):
    """Laplace numbers with location ``mean`` and scale ``lambda_param``."""
    for n, v in (("mean", mean), ("lambda_param", lambda_param)):
        if not isinstance(v, Tensor) or v.dtype is not mstype.float32:
            raise TypeError(f"For 'laplace', '{n}' must be a float32 Tensor.")
    return _laplace(key_for(seed), as_shape("laplace", shape), mean, lambda_param)


# ------------------------------------------------------------- Tensor methods
@tensor_method("uniform")
def _tensor_uniform(self, from_=0.0, to=1.0, generator=None):
    return _rand(key_for(), tuple(self.shape), self.dtype) * (to - from_) + from_


@tensor_method("uniform_")
def _tensor_uniform_(self, from_=0.0, to=1.0, *, generator=None):
    self._data = _tensor_uniform(self, float(from_), float(to))._data
    return self


@tensor_method("normal_")
def _tensor_normal_(self, mean=0, std=1, *, generator=None):
    self._data = (_standard_normal(key_for(), tuple(self.shape), self.dtype) * std + mean)._data
    return self


@tensor_method("exponential_")
def _tensor_exponential_(self, lambd=1, *, generator=None):
    u = _rand(key_for(), tuple(self.shape), self.dtype)
    self._data = jnp.asarray(-jnp.log1p(-u._data) / lambd, u._data.dtype)
    return self


@tensor_method("log_normal")
def _tensor_log_normal(self, mean=1.0, std=2.0):
    z = _standard_normal(key_for(), tuple(self.shape), self.dtype)
    return wrap(jnp.exp(z._data * std + mean).astype(z._data.dtype))



@composite()
def uniform_(input, from_=0, to=1, *, generator=None):
    """Fill ``input`` in place with uniform numbers in ``[from_, to)``."""
    return _tensor_uniform_(input, from_, to)


@composite()
def normal_(input, mean=0, std=1, *, generator=None):
    """Fill ``input`` in place with normal numbers."""
    return _tensor_normal_(input, mean, std)


@composite()
def exponential_(input, lambd=1, *, generator=None):
    """Fill ``input`` in place with exponential numbers of rate ``lambd``."""
    return _tensor_exponential_(input, lambd)


__all__ = exports(__name__)
