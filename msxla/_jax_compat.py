"""Every jax internal msxla relies on, in one place.

jax's private modules move between releases; importing them only here keeps
a jax upgrade to one file.
"""
from __future__ import annotations

from jax._src import source_info_util as _siu
from jax._src.array import ArrayImpl  # noqa: F401 - the concrete jax.Array class
from jax._src.interpreters import ad as _ad
from jax._src.lax import lax as _lax_internal
from jax.extend.core import ClosedJaxpr, Jaxpr, Literal, jaxpr_as_fun  # noqa: F401


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


def staging_into_jaxpr() -> bool:
    """Is a ``jax.jit``/``make_jaxpr`` trace active (a jit called now is nested in it)?"""
    from jax._src import core
    return core.unsafe_am_i_under_a_jit()


def is_literal(v) -> bool:
    """Whether a jaxpr atom is a literal (a constant written into the equation)."""
    return isinstance(v, Literal)


# ------------------------------------------------------------ distributed runtime
def backends_initialized() -> bool:
    """Has jax created its device backends (after which the distributed runtime cannot start)?"""
    from jax._src import xla_bridge
    return xla_bridge.backends_are_initialized()


def distributed_client():
    """jax's coordination-service client (key-value store, barriers), or None before
    ``jax.distributed.initialize``."""
    from jax._src import distributed
    return distributed.global_state.client


def axis_env(names_sizes):
    """A context in which the named axes ``[(name, size), ...]`` are bound for tracing,
    so ``lax.psum(x, name)`` can be recorded into a jaxpr outside ``shard_map``."""
    from jax._src import core
    return core.extend_axis_env_nd(list(names_sizes))


def axis_bound(name) -> bool:
    """Is the named axis bound in the current trace context?"""
    from jax._src import core
    return core.get_axis_env().axis_exists(name)


# ---------------------------------------------------- persistent compilation cache
def set_persistent_cache(path, store):
    """Make ``store`` (``get(key) -> bytes | None``, ``put(key, bytes)``) jax's persistent
    compilation cache, at ``path``; with ``path=None`` turn the persistent cache off.
    Every executable is cached, however fast it compiled or small it is."""
    import jax
    from jax._src import compilation_cache as cc
    cc.reset_cache()
    jax.config.update("jax_compilation_cache_dir", path)
    if path is None:
        return
    jax.config.update("jax_persistent_cache_min_compile_time_secs", 0.0)
    jax.config.update("jax_persistent_cache_min_entry_size_bytes", -1)
    with cc._cache_initialized_mutex:
        cc._cache = store
        cc._cache_initialized = True


# ---------------------------------------------------- host effects around a graph
def split_host_callbacks(closed):
    """``closed`` without its top-level ``jax.debug.callback`` equations (printing,
    runtime checks, summaries: effects that run on the host), their operands
    appended to its outputs, and a function that runs those callbacks in order on
    the operands' values; None when there are none. A backend that cannot call
    the host from inside a graph (GE) runs the graph, then the callbacks."""
    from jax._src import core
    from jax._src.debugging import debug_callback_p
    jaxpr = closed.jaxpr
    keep, calls, extra = [], [], []
    for eqn in jaxpr.eqns:
        if eqn.primitive is debug_callback_p and not eqn.outvars:
            calls.append((len(eqn.invars), eqn.params))
            extra.extend(eqn.invars)
        else:
            keep.append(eqn)
    if not calls:
        return None
    effects = core.join_effects(*(e.effects for e in keep))
    pure = ClosedJaxpr(jaxpr.replace(eqns=keep, outvars=list(jaxpr.outvars) + extra,
                                     effects=effects), closed.consts)

    def run(values):
        values = list(values)
        for n, params in calls:
            debug_callback_p.bind(*values[:n], **params)
            del values[:n]
    return pure, len(extra), run
