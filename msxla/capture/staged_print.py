"""``print`` inside a captured function prints when the graph runs, every call.

During a capture ``builtins.print`` is replaced, for the capturing thread
only, by a version that stages the print into the graph as an ordered jax
callback. Tensors print their runtime values exactly as ``print`` would in
PyNative; other arguments print as they were when captured.
"""
from __future__ import annotations

import builtins
import contextlib
import threading

import jax
from jax.core import Tracer

_original_print = builtins.print
_capturing_threads: dict[int, int] = {}
_lock = threading.Lock()


def _print_dispatch(*args, sep=" ", end="\n", file=None, flush=False):
    if _capturing_threads.get(threading.get_ident()):
        return _staged(args, sep, end, file, flush)
    return _original_print(*args, sep=sep, end=end, file=file, flush=flush)


def _staged(args, sep, end, file, flush):
    from msxla.common.tensor import Tensor, wrap
    slots = [i for i, a in enumerate(args) if isinstance(a, Tensor) and
             isinstance(a._data, Tracer)]
    items = list(args)
    arrays = [args[i]._data for i in slots]

    def emit(*values):
        shown = list(items)
        for i, v in zip(slots, values):
            shown[i] = wrap(v)
        _original_print(*shown, sep=sep, end=end, file=file, flush=flush)

    jax.debug.callback(emit, *arrays, ordered=True)


@contextlib.contextmanager
def staged_print():
    """Stage ``print`` calls made by this thread while the block runs."""
    tid = threading.get_ident()
    with _lock:
        _capturing_threads[tid] = _capturing_threads.get(tid, 0) + 1
        builtins.print = _print_dispatch
    try:
        yield
    finally:
        with _lock:
            _capturing_threads[tid] -= 1
            if not _capturing_threads[tid]:
                del _capturing_threads[tid]
            if not _capturing_threads:
                builtins.print = _original_print
