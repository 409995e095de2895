"""Top-k categorical accuracy: a sample counts when its label is among the k
highest-scored classes."""
from __future__ import annotations

import numpy as np

from msxla.train.metrics.metric import Metric, is_onehot, rearrange_inputs

__all__ = ["TopKCategoricalAccuracy", "Top1CategoricalAccuracy", "Top5CategoricalAccuracy"]


class TopKCategoricalAccuracy(Metric):
    """Top-k accuracy (``k >= 1``)."""

    def __init__(self, k):
        super().__init__()
        if not isinstance(k, int):
            raise TypeError("For 'TopKCategoricalAccuracy', the type of the argument 'k' should be "
                            f"int, but got 'k' type: {type(k)}.")
        if k < 1:
            raise ValueError("For 'TopKCategoricalAccuracy', the argument 'k' must be at least 1, "
                             f"but got 'k' value: {k}.")
        self.k = k
        self.clear()

    def clear(self):
        self._correct_num = 0
        self._samples_num = 0

    @rearrange_inputs
    def update(self, *inputs):
        if len(inputs) != 2:
            raise ValueError("For 'TopKCategoricalAccuracy.update', it needs 2 inputs (predicted "
                             f"value, true value), but got 'inputs' size: {len(inputs)}.")
        y_pred = self._convert_data(inputs[0])
        y = self._convert_data(inputs[1])
        if y_pred.ndim == y.ndim and is_onehot(y):
            y = y.argmax(axis=1)
        top = np.argsort(-y_pred, axis=1)[:, :self.k]
        labels = y.reshape(-1, 1).repeat(self.k, axis=1)
        self._correct_num += np.equal(top, labels).sum(axis=1).sum()
        self._samples_num += labels.shape[0]

    def eval(self):
        if self._samples_num == 0:
            raise RuntimeError("The 'TopKCategoricalAccuracy' can not be calculated, because the "
                               "number of samples is 0, please check whether your inputs "
                               "(predicted value, true value) are empty, or has called update "
                               "method before calling eval method.")
        return float(self._correct_num / self._samples_num)


class Top1CategoricalAccuracy(TopKCategoricalAccuracy):
    """Top-1 accuracy."""

    def __init__(self):
        super().__init__(1)


class Top5CategoricalAccuracy(TopKCategoricalAccuracy):
    """Top-5 accuracy."""

    def __init__(self):
        super().__init__(5)
