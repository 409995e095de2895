"""``LossMonitor``: prints the training loss every ``per_print_times`` steps.

The line is MindSpore's, ``epoch: 1 step: 3, loss is 0.6931471824645996``
(the step counts within the epoch; in sink mode the step is the last of the
sink). A NaN or infinite loss stops training with a ValueError naming the
epoch and step. Under ``Model.fit`` the evaluation results are printed at the
end of each epoch that evaluated.
"""
from __future__ import annotations

import numpy as np

from msxla.nn import _checkparam as validator
from msxla.train.callback._callback import Callback, handle_loss

__all__ = ["LossMonitor"]


class LossMonitor(Callback):
    """Print the loss during training.

    Args:
        per_print_times (int): print every this many steps (0: never). Default 1.
    """

    def __init__(self, per_print_times=1):
        super().__init__()
        validator.check_non_negative_int(per_print_times)
        self._per_print_times = per_print_times
        self._last_print_time = 0

    def step_end(self, run_context):
        cb_params = run_context.original_args()
        epoch = cb_params.get("cur_epoch_num", 1)
        loss = handle_loss(cb_params.net_outputs)
        step_in_epoch = (cb_params.cur_step_num - 1) % cb_params.batch_num + 1
        if isinstance(loss, float) and (np.isnan(loss) or np.isinf(loss)):
            raise ValueError(f"In epoch: {epoch} step: {step_in_epoch}, loss is NAN or INF, "
                             "training process cannot continue, terminating training.")
        every = self._per_print_times
        if every == 0:
            return
        # a resumed run may count from an earlier step: move the last print back
        while cb_params.cur_step_num <= self._last_print_time:
            self._last_print_time -= max(every, cb_params.batch_num
                                         if cb_params.dataset_sink_mode else 1)
        if cb_params.cur_step_num - self._last_print_time >= every:
            self._last_print_time = cb_params.cur_step_num
            print(f"epoch: {epoch} step: {step_in_epoch}, loss is {loss}", flush=True)

    def on_train_epoch_end(self, run_context):
        cb_params = run_context.original_args()
        metrics = cb_params.get("metrics")
        if metrics:
            print(f"Eval result: epoch {int(cb_params.cur_epoch_num)}, metrics: {metrics}")
