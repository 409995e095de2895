"""``EarlyStopping``: stops training when the monitored value stops improving.

At the end of each epoch the monitored value (``eval_loss`` of ``Model.fit`` by
default, a metric, or the training ``loss``) is compared with the best so far;
after ``patience`` epochs without an improvement larger than ``min_delta``
training stops, optionally restoring the best epoch's weights.
"""
from __future__ import annotations

import copy

from msxla.nn import _checkparam as validator
from msxla.train._load_net import load_param_into_net
from msxla.train.callback._callback import Callback
from msxla.train.callback._monitor import Plateau, monitor_value

__all__ = ["EarlyStopping"]


class EarlyStopping(Callback):
    """Stop training when a monitored value has stopped improving."""

    def __init__(self, monitor="eval_loss", min_delta=0, patience=0, verbose=False, mode="auto",
                 baseline=None, restore_best_weights=False):
        super().__init__()
        self.monitor = validator.check_value_type("monitor", monitor, str)
        min_delta = validator.check_value_type("min_delta", min_delta, [float, int])
        self.min_delta = abs(min_delta)
        self.patience = validator.check_non_negative_int(patience)
        self.verbose = validator.check_bool(verbose)
        self.mode = validator.check_value_type("mode", mode, str)
        self.baseline = validator.check_value_type("min_delta", min_delta, [float, int]) \
            if baseline else None
        self.restore_best_weights = validator.check_bool(restore_best_weights)
        self._plateau = Plateau(self.monitor, self.mode, self.min_delta)
        self.wait = 0
        self.stopped_epoch = 0
        self.best = self._plateau.start()
        self.best_weights_param_dict = None

    def is_improvement(self, current, best):
        return self._plateau.better(current, best)

    def on_train_begin(self, run_context):
        self.wait = 0
        self.stopped_epoch = 0
        self.best = self._plateau.start()
        self.best_weights_param_dict = None

    def on_train_epoch_end(self, run_context):
        cb_params = run_context.original_args()
        current = monitor_value(cb_params, self.monitor, "Early stopping", "EarlyStopping")
        if current is None:
            return
        net = cb_params.train_network
        if self.restore_best_weights and self.best_weights_param_dict is None:
            self.best_weights_param_dict = copy.deepcopy(net.parameters_dict())
        self.wait += 1
        if self.is_improvement(current, self.best):
            self.best = current
            if self.restore_best_weights:
                self.best_weights_param_dict = copy.deepcopy(net.parameters_dict())
            if self.baseline is None or self.is_improvement(current, self.baseline):
                self.wait = 0
        if self.wait >= self.patience:
            self.stopped_epoch = cb_params.get("cur_epoch_num")
            run_context.request_stop()
            if self.restore_best_weights and self.best_weights_param_dict is not None:
                if self.verbose:
                    print("Restoring model weights from the end of the best epoch.")
                load_param_into_net(net, self.best_weights_param_dict)

    def on_train_end(self, run_context):
        if self.stopped_epoch > 0 and self.verbose:
            print("Epoch %05d: early stopping" % self.stopped_epoch)
