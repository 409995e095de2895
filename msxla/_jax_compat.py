"""Every jax internal msxla relies on, in one place.

jax's private modules move between releases; importing them only here keeps
a jax upgrade to one file.
"""
from __future__ import annotations

from jax._src import source_info_util as _siu
from jax._src.interpreters import ad as _ad
from jax._src.lax import lax as _lax_internal
from jax.extend.core import ClosedJaxpr, Jaxpr, jaxpr_as_fun  # noqa: F401


def user_frame(traceback):
    """The innermost user frame (file_name, function_name, start_line, ...) of a traceback."""
    try:
        return _siu.user_frame(traceback)
    except Exception:
        return None


def drop_unused_invars(closed, keep):
    """A ClosedJaxpr with only the inputs at positions ``keep`` (others must be unused)."""
    jaxpr = closed.jaxpr
    invars = [v for i, v in enumerate(jaxpr.invars) if i in keep]
    new = jaxpr.replace(invars=invars)
    return ClosedJaxpr(new, closed.consts)


def compiled_callable(compiled):
    """The C++ call of an AOT-compiled executable, without the Python frame of
    ``Compiled.__call__`` in front of it (falls back to the Compiled object)."""
    try:
        call = compiled._executable.create_cpp_call(compiled._params)
    except Exception:  # a jax without this internal: the public call still works
        call = None
    return call if call is not None else compiled


def balanced_eq(x, z, y):
    """jax's own tangent share of ``x`` in ``max/min(x, y) == z`` (1, 1/2 or 0)."""
    return _lax_internal._balanced_eq(x, z, y)


def set_jvp2(prim, *rules):
    """Register ``rules(g, ans, *operands)`` as a primitive's jvp (``ad.defjvp2``)."""
    _ad.defjvp2(prim, *rules)
