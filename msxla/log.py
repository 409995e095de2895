"""``mindspore.log``: MindSpore's Python logger (``logger.warning(...)`` and friends).

Messages go to stderr in MindSpore's format::

    [WARNING] ME(12345:140709288299392,MainProcess):2026-01-01-10:07:26.710.000 [train.py:3] msg

The level comes from ``GLOG_v`` as in MindSpore: 0 DEBUG, 1 INFO, 2 WARNING
(the default), 3 ERROR, 4 CRITICAL. MindSpore can also write rotating log
files (``GLOG_logtostderr=0`` with ``GLOG_log_dir``); here the messages always
go to stderr, and ``get_log_config`` says so.
"""
from __future__ import annotations

import logging
import os
import sys
import threading
import time

__all__ = ["get_level", "get_log_config"]

LOGGER_LEVEL = "2"
STD_ON = "1"
STD_OFF = "0"
_GLOG_TO_LEVEL = {"0": logging.DEBUG, "1": logging.INFO, "2": logging.WARNING,
                  "3": logging.ERROR, "4": logging.CRITICAL}
_LEVEL_TO_GLOG = {v: k for k, v in _GLOG_TO_LEVEL.items()}
_lock = threading.Lock()
_logger = None


class _Formatter(logging.Formatter):
    """MindSpore's line: level, sub-module, pid:tid and process name, time, file:line."""

    def format(self, record):
        t = time.localtime(record.created)
        stamp = time.strftime("%Y-%m-%d-%H:%M:%S", t) + f".{int(record.msecs):03d}.000"
        where = getattr(record, "caller", None) or (record.pathname, record.lineno)
        return (f"[{record.levelname}] ME({record.process}:{record.thread},"
                f"{record.processName}):{stamp} [{where[0]}:{where[1]}] "
                f"{record.getMessage()}")


def _get_logger():
    global _logger
    if _logger is None:
        with _lock:
            if _logger is None:
                log = logging.getLogger("mindspore")
                log.propagate = False
                level = os.environ.get("GLOG_v", LOGGER_LEVEL).strip()
                if level not in _GLOG_TO_LEVEL:
                    raise ValueError(f"Incorrect log level: {level}, Please check the log level "
                                     "configuration, desired log level: 4-CRITICAL, 3-ERROR, "
                                     "2-WARNING, 1-INFO, 0-DEBUG")
                log.setLevel(_GLOG_TO_LEVEL[level])
                handler = logging.StreamHandler(sys.stderr)
                handler.name = "StreamHandler"
                handler.setFormatter(_Formatter())
                log.addHandler(handler)
                _logger = log
    return _logger


def _caller():
    """The first frame outside this file: the user's file and line."""
    f = sys._getframe(2)
    here = os.path.normcase(__file__)
    while f is not None and os.path.normcase(f.f_code.co_filename) == here:
        f = f.f_back
    return (f.f_code.co_filename, f.f_lineno) if f is not None else ("(unknown file)", 0)


def _log(level, msg, args, kwargs):
    log = _get_logger()
    if log.isEnabledFor(level):
        extra = dict(kwargs.pop("extra", None) or {})
        extra["caller"] = _caller()
        log.log(level, msg, *args, extra=extra, **kwargs)


def debug(msg, *args, **kwargs):
    """Log a message at DEBUG level (``GLOG_v=0``)."""
    _log(logging.DEBUG, msg, args, kwargs)


def info(msg, *args, **kwargs):
    """Log a message at INFO level (``GLOG_v<=1``)."""
    _log(logging.INFO, msg, args, kwargs)


def warning(msg, *args, **kwargs):
    """Log a message at WARNING level (shown by default)."""
    _log(logging.WARNING, msg, args, kwargs)


def error(msg, *args, **kwargs):
    """Log a message at ERROR level."""
    _log(logging.ERROR, msg, args, kwargs)


def critical(msg, *args, **kwargs):
    """Log a message at CRITICAL level."""
    _log(logging.CRITICAL, msg, args, kwargs)


def get_level():
    """The level as MindSpore writes it: ``'0'`` (DEBUG) ... ``'4'`` (CRITICAL)."""
    return _LEVEL_TO_GLOG.get(_get_logger().getEffectiveLevel(), LOGGER_LEVEL)


def get_log_config():
    """The logger configuration: ``{'GLOG_v': level, 'GLOG_logtostderr': '1'}``."""
    return {"GLOG_v": get_level(), "GLOG_logtostderr": STD_ON}
