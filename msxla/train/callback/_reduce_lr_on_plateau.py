"""``ReduceLROnPlateau``: multiplies the learning rate by ``factor`` when the
monitored value has not improved for ``patience`` epochs (then waits
``cooldown`` epochs; never below ``min_lr``)."""
from __future__ import annotations

from msxla import ops
from msxla.common.parameter import Parameter
from msxla.common.tensor import Tensor
from msxla.nn import _checkparam as validator
from msxla.train.callback._callback import Callback
from msxla.train.callback._monitor import Plateau, monitor_value

__all__ = ["ReduceLROnPlateau"]


class ReduceLROnPlateau(Callback):
    """Reduce the learning rate when a monitored value has stopped improving."""

    def __init__(self, monitor="eval_loss", factor=0.1, patience=10, verbose=False, mode="auto",
                 min_delta=1e-4, cooldown=0, min_lr=0):
        super().__init__()
        self.monitor = validator.check_value_type("monitor", monitor, str)
        if isinstance(factor, bool) or not isinstance(factor, (int, float)) or \
                not 0.0 < factor < 1.0:
            raise ValueError(f"The 'factor' must be in range of (0.0, 1.0), but got {factor}.")
        self.factor = factor
        self.patience = validator.check_non_negative_int(patience)
        self.verbose = validator.check_bool(verbose)
        self.mode = validator.check_value_type("mode", mode, str)
        min_delta = validator.check_value_type("min_delta", min_delta, [float, int])
        self.min_delta = abs(min_delta)
        self.cooldown = validator.check_non_negative_int(cooldown)
        self.min_lr = validator.check_value_type("min_lr", min_lr, [float, int])
        self._plateau = Plateau(self.monitor, self.mode, self.min_delta)
        self.cooldown_counter = 0
        self.wait = 0
        self.best = self._plateau.start()

    def is_improvement(self, current, best):
        return self._plateau.better(current, best)

    def on_train_begin(self, run_context):
        self.cooldown_counter = 0
        self.wait = 0
        self.best = self._plateau.start()

    def on_train_epoch_end(self, run_context):
        cb_params = run_context.original_args()
        lr = cb_params.optimizer.learning_rate
        if not isinstance(lr, Parameter):
            raise ValueError("ReduceLROnPlateau does not support dynamic learning rate and group "
                             "learning rate now.")
        current = monitor_value(cb_params, self.monitor, "Learning rate reduction",
                                "ReduceLROnPlateau")
        if current is None:
            return
        if self.cooldown_counter > 0:
            self.cooldown_counter -= 1
            self.wait = 0
        if self.is_improvement(current, self.best):
            self.best = current
            self.wait = 0
        elif self.cooldown_counter <= 0:
            self.wait += 1
            if self.wait >= self.patience:
                if float(lr.asnumpy()) > self.min_lr:
                    new_lr = max(lr * self.factor, self.min_lr)  # a Tensor, printed as one
                    ops.assign(lr, Tensor(new_lr, lr.dtype))
                    if self.verbose:
                        print("Epoch %05d: ReduceLROnPlateau reducing learning rate to %s."
                              % (cb_params.cur_epoch_num, new_lr))
                self.cooldown_counter = self.cooldown
                self.wait = 0
