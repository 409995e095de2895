"""Errors raised while a pipeline runs, in MindSpore's types, made readable.

MindSpore raises ``RuntimeError`` for anything that fails inside a running
pipeline (a user function that raises, rows that cannot be batched, a column
that does not exist, a corrupt file) and ``ValueError``/``TypeError`` for bad
arguments when a dataset is created. msxla raises the same types. A pipeline
error says which operation failed, on which sample and which columns, shows
the user function's own traceback (msxla's and grain's frames removed) and
where the failing operation was created in the user's script.

Errors are built where they happen (a worker thread or process) and carry
their whole story in the message, so they survive being sent back from a
worker process.
"""
from __future__ import annotations

import linecache
import os
import sys
import threading
import traceback

from msxla._source import SourceLoc, is_internal_file
from msxla.errors import MsxlaError

_GRAIN_DIR = os.sep + "grain" + os.sep
_STDLIB_PLUMBING = (os.sep + "concurrent" + os.sep, os.sep + "multiprocessing" + os.sep,
                    os.sep + "threading.py", os.sep + "queue.py")


class PipelineError(MsxlaError, RuntimeError):
    """An operation of a running dataset pipeline failed."""


def _internal(filename: str) -> bool:
    return (is_internal_file(filename) or _GRAIN_DIR in filename
            or any(p in filename for p in _STDLIB_PLUMBING))


def _real_file(frame: traceback.FrameSummary) -> traceback.FrameSummary:
    """grain sends pipelines to worker processes with cloudpickle, which names the
    file of code it pickles by value (the main script's) "<dynamic-code>"; the
    line numbers are kept, so the main script's file is put back."""
    if frame.filename != "<dynamic-code>":
        return frame
    main = getattr(sys.modules.get("__main__"), "__file__", None)
    if main is None or not linecache.getline(main, frame.lineno):
        return frame
    return traceback.FrameSummary(main, frame.lineno, frame.name)


def user_traceback(exc: BaseException) -> str:
    """``exc``'s traceback with only the user's frames (all frames if none is)."""
    frames = [_real_file(f) for f in traceback.extract_tb(exc.__traceback__)]
    mine = [f for f in frames if not _internal(f.filename)]
    lines = ["Traceback (most recent call last):\n"]
    lines += traceback.format_list(mine or frames)
    lines += traceback.format_exception_only(type(exc), exc)
    return "".join(lines).rstrip("\n")


class _Current(threading.local):
    """The sample this thread is working on, for error messages."""

    def __init__(self):
        self.sample = None


current = _Current()


def describe_sample(index=None, epoch=None) -> str:
    parts = []
    if index is not None:
        parts.append(f"row {index}" + ("" if epoch is None else f" of epoch {epoch}"))
    if current.sample:
        parts.append(current.sample)
    return ", ".join(parts)


def _created(where: SourceLoc | None, op: str) -> str:
    if where is None:
        return ""
    return f"\nThe {op} operation was created at:\n{where.format()}"


def user_function_error(op: str, exc: BaseException, sample: str = "", columns=None,
                        where: SourceLoc | None = None) -> PipelineError:
    """A user's Python function (generator, source, map, filter, per_batch_map) raised."""
    on = []
    if sample:
        on.append(f"on {sample}")
    if columns:
        on.append(f"columns {list(columns)}")
    head = f"{op} failed" + (" (" + ", ".join(on) + ")" if on else "") + ":"
    msg = ("Exception thrown from user defined Python function in dataset.\n"
           f"{head}\n{user_traceback(exc)}{_created(where, op.split()[0])}")
    err = PipelineError(msg)
    err.loc = where
    return err


def pipeline_error(message: str, op: str = "", where: SourceLoc | None = None) -> PipelineError:
    """An operation of the pipeline itself failed (bad rows, columns, files)."""
    err = PipelineError("Exception thrown from dataset pipeline.\n" + message
                        + _created(where, op))
    err.loc = where
    return err


def call_user(fn, args, op: str, sample_fn=None, columns=None, where=None):
    """``fn(*args)``, with a failure turned into a ``PipelineError``."""
    try:
        return fn(*args)
    except PipelineError:
        raise
    except Exception as e:  # noqa: BLE001 - any user failure is reported the same way
        sample = sample_fn() if sample_fn is not None else describe_sample()
        raise user_function_error(op, e, sample, columns, where) from None
