"""``Perplexity``: ``exp`` of the mean negative log probability of the labels
(labels equal to ``ignore_label`` are left out)."""
from __future__ import annotations

import math

import numpy as np

from msxla.nn import _checkparam as validator
from msxla.train.metrics.metric import Metric, rearrange_inputs

__all__ = ["Perplexity"]


class Perplexity(Metric):
    """Perplexity of predicted probabilities ``(..., classes)`` against labels."""

    def __init__(self, ignore_label=None):
        super().__init__()
        self.ignore_label = ignore_label if ignore_label is None else \
            validator.check_value_type("ignore_label", ignore_label, [int])
        self.clear()

    def clear(self):
        self._sum_metric = 0.0
        self._num_inst = 0

    @rearrange_inputs
    def update(self, *inputs):
        if len(inputs) != 2:
            raise ValueError("For 'Perplexity.update', it needs 2 inputs (predicted value, label), "
                             f"but got {len(inputs)}.")
        pred = self._convert_data(inputs[0])
        label = self._convert_data(inputs[1])
        if label.size != pred.size / pred.shape[-1]:
            raise RuntimeError("For 'Perplexity.update', predicted value (input[0]) and label "
                               "(input[1]) should have the same shape, but got predicted value "
                               f"shape {pred.shape}, label shape {label.shape}.")
        label = label.reshape((label.size,))
        rows = np.arange(label.size)[:, None]
        prob = np.squeeze(pred[rows, np.expand_dims(label.astype(int), axis=1)])
        num = 0
        if self.ignore_label is not None:
            ignore = (label == self.ignore_label).astype(prob.dtype)
            num -= np.sum(ignore)
            prob = prob * (1 - ignore) + ignore
        self._sum_metric -= np.sum(np.log(np.maximum(1e-10, prob)))
        self._num_inst += num + prob.size

    def eval(self):
        if self._num_inst == 0:
            raise RuntimeError("The 'Perplexity' can not be calculated, because the number of "
                               "samples is 0, please check whether the update method has been "
                               "called before calling eval method.")
        return math.exp(self._sum_metric / self._num_inst)
