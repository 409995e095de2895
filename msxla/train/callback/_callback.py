"""``Callback``, ``RunContext`` and the callback list ``Model`` drives.

A callback has one method per stage of training and evaluation
(``on_train_begin`` ... ``on_eval_end``); by default each forwards to the
MindSpore 1.x name of the stage (``begin``, ``epoch_begin``, ``step_begin``,
``step_end``, ``epoch_end``, ``end``), so callbacks written either way run.
``RunContext.original_args()`` is the dict of run information (``cb_params``)
that ``Model`` fills; ``request_stop()`` ends training after the current step.

The callback list (``CallbackManager``) calls every callback in order. When a
callback raises, the exception keeps its type and message and gains a note
naming the callback, the stage and the step, so the traceback says whose code
stopped training.
"""
from __future__ import annotations

from contextlib import ExitStack

import numpy as np

from msxla.common.tensor import Tensor

__all__ = ["Callback", "RunContext"]

STAGES = ("on_train_begin", "on_train_epoch_begin", "on_train_step_begin", "on_train_step_end",
          "on_train_epoch_end", "on_train_end", "on_eval_begin", "on_eval_epoch_begin",
          "on_eval_step_begin", "on_eval_step_end", "on_eval_epoch_end", "on_eval_end")
LEGACY = ("begin", "epoch_begin", "step_begin", "step_end", "epoch_end", "end")


class Callback:
    """Base class of training and evaluation callbacks (a context manager that
    ``Model`` enters for the duration of a run). Override the stages you need."""

    def __enter__(self):
        return self

    def __exit__(self, *err):
        """Release what the callback holds (nothing by default)."""

    # MindSpore 1.x names: the new stages forward to these by default.
    def begin(self, run_context):
        """Before training or evaluation starts."""

    def epoch_begin(self, run_context):
        """Before each epoch."""

    def epoch_end(self, run_context):
        """After each epoch."""

    def step_begin(self, run_context):
        """Before each step."""

    def step_end(self, run_context):
        """After each step."""

    def end(self, run_context):
        """After training or evaluation."""

    def on_train_begin(self, run_context):
        self.begin(run_context)

    def on_train_epoch_begin(self, run_context):
        self.epoch_begin(run_context)

    def on_train_epoch_end(self, run_context):
        self.epoch_end(run_context)

    def on_train_step_begin(self, run_context):
        self.step_begin(run_context)

    def on_train_step_end(self, run_context):
        self.step_end(run_context)

    def on_train_end(self, run_context):
        self.end(run_context)

    def on_eval_begin(self, run_context):
        self.begin(run_context)

    def on_eval_epoch_begin(self, run_context):
        self.epoch_begin(run_context)

    def on_eval_epoch_end(self, run_context):
        self.epoch_end(run_context)

    def on_eval_step_begin(self, run_context):
        self.step_begin(run_context)

    def on_eval_step_end(self, run_context):
        self.step_end(run_context)

    def on_eval_end(self, run_context):
        self.end(run_context)


def _make_dispatch(stage):
    def dispatch(self, run_context):
        for cb in self._callbacks:
            try:
                getattr(cb, stage)(run_context)
            except BaseException as err:
                _note_callback(err, cb, stage, run_context)
                raise
    dispatch.__name__ = stage
    dispatch.__doc__ = f"Call ``{stage}`` of every callback, in order."
    return dispatch


def _note_callback(err, cb, stage, run_context):
    """Name the callback (once) on an exception it raised."""
    if getattr(err, "_msxla_callback_noted", False) or not isinstance(err, Exception):
        return
    where = ""
    args = run_context.original_args() if isinstance(run_context, RunContext) else {}
    if "cur_epoch_num" in args and "cur_step_num" in args:
        where = f" (epoch {args['cur_epoch_num']}, step {args['cur_step_num']})"
    try:
        err.add_note(f"Raised by the callback {type(cb).__name__}.{stage}{where}.")
        err._msxla_callback_noted = True
    except (AttributeError, TypeError):
        pass


class CallbackManager(Callback):
    """Runs a list of callbacks in order (entering each as a context manager)."""

    def __init__(self, callbacks):
        self._callbacks, self._stack = [], None
        if isinstance(callbacks, Callback):
            self._callbacks.append(callbacks)
        elif isinstance(callbacks, list):
            for cb in callbacks:
                if not isinstance(cb, Callback):
                    raise TypeError("When the 'callbacks' is a list, the elements in "
                                    "'callbacks' must be Callback functions.")
                self._callbacks.append(cb)
        elif callbacks is not None:
            raise TypeError("The 'callbacks' is not a Callback or a list of Callback.")

    def __enter__(self):
        if self._stack is None:
            entered, self._stack = [], ExitStack().__enter__()
            for cb in self._callbacks:
                target = self._stack.enter_context(cb)
                entered.append(target if isinstance(target, Callback) else cb)
            self._callbacks = entered
        return self

    def __exit__(self, *err):
        return self._stack.__exit__(*err)


for _stage in STAGES + LEGACY:
    setattr(CallbackManager, _stage, _make_dispatch(_stage))


class InternalCallbackParam(dict):
    """``cb_params``: a dict whose keys also read and write as attributes."""

    def __getattr__(self, key):
        try:
            return self[key]
        except KeyError:
            raise AttributeError(key) from None

    def __setattr__(self, key, value):
        self[key] = value


class RunContext:
    """What a callback receives: the run information and a way to stop the run.

    Args:
        original_args (dict): the run information (``cb_params``).
    """

    def __init__(self, original_args):
        if not isinstance(original_args, dict):
            raise TypeError("The argument 'original_args' of RunContext should be dict type, "
                            f"but got {type(original_args)}.")
        self._original_args = original_args
        self._stop_requested = False

    def original_args(self):
        """The run information: ``cur_epoch_num``, ``cur_step_num``, ``net_outputs``, ..."""
        return self._original_args

    def request_stop(self):
        """Stop training (or evaluation) after the current step."""
        self._stop_requested = True

    def get_stop_requested(self):
        """Whether a callback asked to stop."""
        return self._stop_requested


def handle_loss(loss):
    """The loss a monitor reports: the first output of a tuple, or the mean of a
    Tensor as a Python float."""
    if isinstance(loss, (tuple, list)):
        if isinstance(loss[0], Tensor):
            loss = loss[0]
    elif isinstance(loss, Tensor):
        loss = float(np.mean(loss.asnumpy()))
    return loss
