"""The two places where msxla adjusts grain (its data-loading engine).

* grain reads some of its settings from absl flags and raises when a program
  never parsed absl flags (a MindSpore script does not). The ``grain_*`` flags
  are marked present, so their defaults are read.
* grain's worker processes always start with ``spawn``. MindSpore starts its
  workers with ``ds.config.get_multiprocessing_start_method()``, ``fork`` by
  default, which matters to users: a script without an
  ``if __name__ == "__main__":`` guard, or one that defines its generator in
  ``__main__``, works with ``fork`` and breaks with ``spawn``. The context
  grain asks for is the configured one.
"""
from __future__ import annotations

import multiprocessing
import threading
import warnings

_lock = threading.Lock()
_done = False


class _ConfiguredContext:
    """Stands in for the ``multiprocessing`` module inside grain's worker code:
    ``get_context(...)`` answers with the start method the pipeline asks for."""

    def __init__(self):
        self.method = "fork"

    def get_context(self, method=None):
        return multiprocessing.get_context(self.method)

    def __getattr__(self, name):
        return getattr(multiprocessing, name)


_context = _ConfiguredContext()


def setup(start_method: str = "fork"):
    """Prepare grain for a pipeline; idempotent apart from the start method."""
    global _done
    _context.method = start_method
    # jax warns on every fork; the forked workers never run jax code.
    warnings.filterwarnings("ignore", message=r"os\.fork\(\) was called",
                            category=RuntimeWarning)
    if _done:
        return
    with _lock:
        if _done:
            return
        from absl import flags
        import grain  # noqa: F401 - defines the grain_* flags
        from grain._src.python.dataset.transformations import process_prefetch

        for name in list(flags.FLAGS):
            if name.startswith("grain_"):
                flags.FLAGS[name].present = 1
        process_prefetch.mp = _context
        _done = True
