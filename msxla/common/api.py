"""``mindspore.common.api``: ``jit`` and friends (found through the path index), and the
PyNative executor handle scripts and tests use to wait for queued work.

MindSpore runs PyNative operators asynchronously and ``_pynative_executor.sync()``
waits for them: tests call it before reading outputs, captured prints or raised
errors. msxla dispatches through jax, which is asynchronous too, so ``sync`` waits
for every live array and every queued effect (a graph's prints and callbacks).
The public names of this module (``jit``, ``jit_class``, ...) are defined
elsewhere in msxla and reached through the module's index ``__getattr__``.
"""
from __future__ import annotations

import jax


class _PyNativeExecutor:
    """The part of MindSpore's PyNative executor that user code touches."""

    def sync(self):
        """Wait until every computation and effect queued so far has finished."""
        live = jax.live_arrays()
        if live:
            jax.block_until_ready(live)
        jax.effects_barrier()

    def __repr__(self):
        return "<mindspore.common.api._PyNativeExecutor>"


_pynative_executor = _PyNativeExecutor()
