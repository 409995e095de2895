"""``MAE`` and ``MSE``: mean absolute and mean squared error per sample (the
error summed over a sample's elements, averaged over samples)."""
from __future__ import annotations

import numpy as np

from msxla.train.metrics.metric import Metric, rearrange_inputs

__all__ = ["MAE", "MSE"]


class _ErrorMetric(Metric):
    _name = ""

    def __init__(self):
        super().__init__()
        self.clear()

    def clear(self):
        self._error_sum = 0
        self._samples_num = 0

    @staticmethod
    def _error(diff):
        raise NotImplementedError

    @rearrange_inputs
    def update(self, *inputs):
        if len(inputs) != 2:
            raise ValueError(f"For '{self._name}.update', it needs 2 inputs (predicted value, true "
                             f"value), but got {len(inputs)}.")
        y_pred = self._convert_data(inputs[0])
        y = self._convert_data(inputs[1])
        self._error_sum += self._error(y.reshape(y_pred.shape) - y_pred).sum()
        self._samples_num += y.shape[0]

    def eval(self):
        if self._samples_num == 0:
            raise RuntimeError(f"The '{self._name}' can not be calculated, because the number of "
                               "samples is 0, please check whether your inputs(predicted value, "
                               "true value) are empty, or has called update method before calling "
                               "eval method.")
        return float(self._error_sum / self._samples_num)


class MAE(_ErrorMetric):
    """Mean absolute error."""

    _name = "MAE"
    _error = staticmethod(np.abs)


class MSE(_ErrorMetric):
    """Mean squared error."""

    _name = "MSE"

    @staticmethod
    def _error(diff):
        return np.power(diff, 2)
