"""``DatasetCache`` (``mindspore.dataset.DatasetCache``): the handle of a dataset
cache session, passed to a source or ``map`` as ``cache=``.

MindSpore keeps the rows of a cached node in a separate cache server so that
later epochs and runs read them instead of recomputing them; the rows are the
same either way. msxla has no cache server: a dataset given a
``DatasetCache`` produces exactly the rows it would without one, recomputed
each epoch (grain's workers and prefetch are what keep a step fed). The handle
checks its arguments as MindSpore does, so a script that builds one runs.
"""
from __future__ import annotations


def _int_in(name, value, low, high):
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"Argument {name} with value {value} is not of type [<class 'int'>], "
                        f"but got {type(value)}.")
    if not low <= value <= high:
        raise ValueError(f"Input {name} is not within the required interval of [{low}, {high}].")
    return value


class DatasetCache:
    """A cache session: ``session_id`` (from ``cache_admin -g`` in MindSpore), ``size`` in
    MB (0: no limit), ``spilling``, and the server's ``hostname`` / ``port``."""

    def __init__(self, session_id, size=0, spilling=False, hostname=None, port=None,
                 num_connections=None, prefetch_size=None):
        self.session_id = _int_in("session_id", session_id, 1, 2**32 - 1)
        if not isinstance(size, int) or isinstance(size, bool):
            raise TypeError(f"Argument size with value {size} is not of type [<class 'int'>], "
                            f"but got {type(size)}.")
        if size < 0:
            raise ValueError("Input size must be greater than 0.")
        if not isinstance(spilling, bool):
            raise TypeError(f"Argument spilling with value {spilling} is not of type "
                            f"[<class 'bool'>], but got {type(spilling)}.")
        if hostname is not None and not isinstance(hostname, str):
            raise TypeError(f"Argument hostname with value {hostname} is not of type "
                            f"[<class 'str'>], but got {type(hostname)}.")
        self.size, self.spilling, self.hostname = size, spilling, hostname
        self.port = None if port is None else _int_in("port", port, 1025, 65535)
        self.num_connections = None if num_connections is None else _int_in(
            "num_connections", num_connections, 1, 2**31 - 1)
        self.prefetch_size = None if prefetch_size is None else _int_in(
            "prefetch_size", prefetch_size, 1, 2**31 - 1)

    def get_stat(self):
        """MindSpore's cache statistics; msxla keeps no cache, so every count is 0."""
        import collections
        stat = collections.namedtuple("CacheStat", ["mem_cached", "disk_cached", "avg_cache_sz",
                                                    "num_mem_cached", "num_disk_cached"])
        return stat(0, 0, 0, 0, 0)

    def __repr__(self):
        return f"DatasetCache(session_id={self.session_id}, size={self.size})"


__all__ = ["DatasetCache"]
