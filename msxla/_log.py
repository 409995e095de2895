"""msxla's logger and its warn-once helper.

Every layer logs through the ``"msxla"`` logger. ``note_once(key, message)``
warns the first time a key is seen in the process (an option with no meaning
on this backend, a capture that falls back, ...), so a loop does not repeat
the same warning per call.
"""
from __future__ import annotations

import logging
import threading

LOG = logging.getLogger("msxla")
_noted: set = set()
_lock = threading.Lock()


def note_once(key: str, message: str):
    """Log ``message`` as a warning the first time ``key`` is noted."""
    with _lock:
        if key in _noted:
            return
        _noted.add(key)
    LOG.warning(message)
