"""``CosineSimilarity``: the matrix of pairwise similarities of the rows of the
input (cosine or dot), its diagonal zeroed, optionally summed or averaged."""
from __future__ import annotations

import numpy as np

from msxla.nn import _checkparam as validator
from msxla.train.metrics.metric import Metric, rearrange_inputs

__all__ = ["CosineSimilarity"]


def _choice(name, value, choices):
    validator.check_value_type(name, value, [str])
    if value not in choices:
        raise ValueError(f"The '{name}' must be in {choices}, but got {value}.")
    return value


class CosineSimilarity(Metric):
    """Pairwise similarity of the rows of one input."""

    def __init__(self, similarity="cosine", reduction="none", zero_diagonal=True):
        super().__init__()
        self.similarity = _choice("similarity", similarity, ["dot", "cosine"])
        self.reduction = _choice("reduction", reduction, ["none", "sum", "mean"])
        self.zero_diagonal = validator.check_value_type("zero_diagonal", zero_diagonal, [bool])
        self.clear()

    def clear(self):
        self.sqr_mtx_res = 0
        self._is_update = False

    @rearrange_inputs
    def update(self, inputs):
        data = self._convert_data(inputs)
        if self.similarity == "cosine":
            data = data / np.expand_dims(np.linalg.norm(data, ord=2, axis=1), 1)
        self.sqr_mtx_res = np.dot(data, data.transpose(1, 0))
        self._is_update = True

    def eval(self):
        if not self._is_update:
            raise RuntimeError("Please call the 'update' method before calling 'eval' method.")
        if self.zero_diagonal:
            np.fill_diagonal(self.sqr_mtx_res, 0)
        if self.reduction == "mean":
            self.sqr_mtx_res = np.mean(self.sqr_mtx_res, axis=-1)
        elif self.reduction == "sum":
            self.sqr_mtx_res = np.sum(self.sqr_mtx_res, axis=-1)
        return self.sqr_mtx_res
