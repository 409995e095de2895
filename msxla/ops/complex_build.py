"""Op row: ``ops.polar(abs, angle)`` (also ``mint.polar``): the complex numbers
``abs * (cos(angle) + i sin(angle))``; float32 gives complex64, float64 complex128."""
from __future__ import annotations

import jax
import jax.numpy as jnp

from msxla.common import dtype as mstype
from msxla.ops._nn_util import float_rule
from msxla.ops.opdef import op
from msxla.ops.surface import exports


@op(dtype=float_rule("Polar", (mstype.float32, mstype.float64)), prim="Polar", primitive=True)
def polar(abs, angle):  # noqa: A002 - MindSpore's argument name
    """``abs * exp(i * angle)``."""
    return jax.lax.complex(abs * jnp.cos(angle), abs * jnp.sin(angle))


__all__ = exports(__name__)
