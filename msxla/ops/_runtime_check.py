"""Checks that need Tensor values, raised eagerly or when a compiled graph runs.

``runtime_check(ok, message)`` raises ``RuntimeError(message)`` at once in
PyNative. Inside a graph being captured it stages an ordered callback that
raises when the graph runs, before any Parameter is written back; jitted
calls re-raise it as the same ``RuntimeError(message)`` PyNative would give
(``reraise_checked``), so a compiled call never silently computes with a
value PyNative refuses.
"""
from __future__ import annotations

import jax
import numpy as np
from jax.core import Tracer

_MARK = "RuntimeCheckError: "


class RuntimeCheckError(RuntimeError):
    """A runtime check failed inside a compiled graph."""


def runtime_check(ok, message: str):
    """Require ``ok`` (a bool Tensor value, jax array or Python bool) to hold."""
    if not isinstance(ok, Tracer):
        if not bool(np.all(np.asarray(ok))):
            raise RuntimeError(message)
        return

    def check(value):  # runs on XLA's callback thread
        if not bool(np.all(value)):
            raise RuntimeCheckError(message)

    jax.debug.callback(check, ok, ordered=True)


def reraise_checked(err):
    """Turn jax's wrapper of a failed runtime check back into the user's error."""
    text = str(err)
    at = text.rfind(_MARK)
    if at < 0:
        raise err
    raise RuntimeError(text[at + len(_MARK):].split("\n")[0]) from None
