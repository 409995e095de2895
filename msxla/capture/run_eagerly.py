"""``RunEagerly``: a capture's way of saying that a call gets no graph.

Raised by a front end (or the shared tracer) that cannot make a graph for a
call; ``JitFunction`` then runs the function in Python for that signature
(JIT Fallback). It lives below ``capture.py`` so that ``tracing.py``, which
``capture.py`` imports, can raise it.
"""
from __future__ import annotations

from msxla.errors import ConcretizationError


class RunEagerly(ConcretizationError):
    """Raised by a front end that cannot make a graph for a call (a piece needs a
    Tensor's value in Python): the jitted function runs in Python instead."""
