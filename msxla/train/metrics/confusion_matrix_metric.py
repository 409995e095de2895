"""``ConfusionMatrixMetric``: scores computed from binary confusion matrices
(sensitivity, specificity, precision, F1, MCC, ... 17 measures, under their
usual names and abbreviations) of one-hot predictions against one-hot labels
shaped (batch, classes, ...).

With ``calculation_method=False`` the counts (tp, fp, tn, fn) are summed over
every sample and class of every update and the measure is computed once. With
``True`` the measure is computed per sample and class, reduced by
``decrease`` ('mean', 'sum', 'mean_batch', ...; NaN entries are skipped) and
averaged over the updates. ``skip_channel=False`` leaves out class 0.
"""
from __future__ import annotations

import numpy as np

from msxla.nn import _checkparam as validator
from msxla.train.metrics.metric import Metric, rearrange_inputs

__all__ = ["ConfusionMatrixMetric"]

_ALIASES = {
    "tpr": ("sensitivity", "recall", "hit_rate", "true_positive_rate"),
    "tnr": ("specificity", "selectivity", "true_negative_rate"),
    "ppv": ("precision", "positive_predictive_value"), "npv": ("negative_predictive_value",),
    "fnr": ("miss_rate", "false_negative_rate"), "fpr": ("fall_out", "false_positive_rate"),
    "fdr": ("false_discovery_rate",), "for": ("false_omission_rate",),
    "pt": ("prevalence_threshold",), "ts": ("threat_score", "critical_success_index", "csi"),
    "acc": ("accuracy",), "ba": ("balanced_accuracy",), "f1": ("f1_score",),
    "mcc": ("matthews_correlation_coefficient",), "fm": ("fowlkes_mallows_index",),
    "bm": ("informedness", "bookmaker_informedness"), "mk": ("markedness", "deltap"),
}
_CANONICAL = {alias: key for key, names in _ALIASES.items() for alias in names + (key,)}
_DECREASES = ("none", "mean", "sum", "mean_batch", "sum_batch", "mean_channel", "sum_channel")


def _canonical(name):
    key = _CANONICAL.get(name.replace(" ", "_").lower())
    if key is None:
        raise NotImplementedError("The metric is not implemented.")
    return key


def _counts(y_pred, y, skip_channel):
    """(..., 4) counts tp, fp, tn, fn per sample and class."""
    if not np.all(y.astype(np.uint8) == y):
        raise ValueError("For 'ConfusionMatrix.update', the true value (input[1]) must be a "
                         "binarized ndarray.")
    if y_pred.ndim < 2:
        raise ValueError("For 'ConfusionMatrix.update', the predicted value (input[0]) must have "
                         f"at least 2 dimensions, but got {y_pred.ndim}.")
    if not skip_channel and y.shape[1] > 1:
        y, y_pred = y[:, 1:], y_pred[:, 1:]
    if y.shape != y_pred.shape:
        raise ValueError(f"For 'ConfusionMatrixMetric', y_pred {y_pred.shape} and y {y.shape} "
                         "must have the same shape.")
    b, c = y_pred.shape[:2]
    yp, yt = y_pred.reshape(b, c, -1).astype(float), y.reshape(b, c, -1).astype(float)
    tp = ((yp + yt) == 2).sum(2).astype(float)
    tn = ((yp + yt) == 0).sum(2).astype(float)
    pos = yt.sum(2)
    neg = yt.shape[-1] - pos
    return np.stack([tp, neg - tn, tn, pos - tp], axis=-1)


def _ratio(num, den):
    num, den = np.asarray(num, float), np.asarray(den, float)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(den != 0, num / np.where(den != 0, den, 1), np.nan)


def _measure(key, counts):
    counts = counts[None] if counts.ndim == 1 else counts
    tp, fp, tn, fn = (counts[..., i] for i in range(4))
    p, n = tp + fn, fp + tn
    tpr, tnr = _ratio(tp, p), _ratio(tn, n)
    ppv, npv = _ratio(tp, tp + fp), _ratio(tn, tn + fn)
    with np.errstate(invalid="ignore"):
        table = {
            "tpr": lambda: tpr, "tnr": lambda: tnr, "ppv": lambda: ppv, "npv": lambda: npv,
            "fnr": lambda: _ratio(fn, p), "fpr": lambda: _ratio(fp, n),
            "fdr": lambda: _ratio(fp, fp + tp), "for": lambda: _ratio(fn, fn + tn),
            "pt": lambda: _ratio(np.sqrt(tpr * (1 - tnr)) + tnr - 1, tpr + tnr - 1),
            "ts": lambda: _ratio(tp, tp + fn + fp), "acc": lambda: _ratio(tp + tn, p + n),
            "ba": lambda: (tpr + tnr) / 2, "f1": lambda: _ratio(2 * tp, 2 * tp + fn + fp),
            "mcc": lambda: _ratio(tp * tn - fp * fn,
                                  np.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn))),
            "fm": lambda: np.sqrt(ppv * tpr), "bm": lambda: tpr + tnr - 1,
            "mk": lambda: ppv + _ratio(tn, tn + fn) - 1,
        }
        return table[key]()


def _reduce(scores, decrease):
    """(reduced scores, count of the entries that were not NaN), NaN entries as 0."""
    valid = (~np.isnan(scores)).astype(float)
    scores = np.where(np.isnan(scores), 0.0, scores)
    if decrease == "none":
        return scores, valid
    if decrease in ("sum", "sum_batch", "sum_channel"):
        axis = {"sum": (0, 1), "sum_batch": 0, "sum_channel": 1}[decrease]
        return scores.sum(axis=axis), valid.sum(axis=axis)
    if decrease in ("mean_batch", "mean_channel"):
        axis = 0 if decrease == "mean_batch" else 1
        count = valid.sum(axis=axis)
        return _mean(scores.sum(axis=axis), count), count
    count = valid.sum(axis=1)  # mean: over classes per sample, then over samples
    per_sample = _mean(scores.sum(axis=1), count)
    samples = (count > 0).astype(float).sum(axis=0)
    return _mean(per_sample.sum(axis=0), samples), samples


def _mean(total, count):
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(count > 0, total / np.where(count > 0, count, 1), 0.0)


class ConfusionMatrixMetric(Metric):
    """A confusion-matrix measure (``metric_name``) of one-hot predictions and labels."""

    def __init__(self, skip_channel=True, metric_name="sensitivity", calculation_method=False,
                 decrease="mean"):
        super().__init__()
        self.skip_channel = validator.check_value_type("skip_channel", skip_channel, [bool])
        self.calculation_method = validator.check_value_type("calculation_method",
                                                             calculation_method, [bool])
        self.metric_name = validator.check_value_type("metric_name", metric_name, [str])
        self._key = _canonical(metric_name)
        validator.check_value_type("decrease", decrease, [str])
        if decrease not in _DECREASES:
            raise ValueError(f"The 'decrease' must be str and must be in '{list(_DECREASES)}', "
                             f"but got '{decrease}'.")
        self.decrease = decrease
        self.clear()

    def clear(self):
        self._total_num, self._class_num = 0.0, 0
        self._totals = np.zeros(4)

    @rearrange_inputs
    def update(self, *inputs):
        if len(inputs) != 2:
            raise ValueError("For 'ConfusionMatrixMetric.update', it needs 2 inputs (predicted "
                             f"value, true value), but got {len(inputs)}.")
        y_pred, y = self._convert_data(inputs[0]), self._convert_data(inputs[1])
        counts = _counts(y_pred, y, self.skip_channel)
        per_pixel = not (y_pred.ndim == 2 or (y_pred.ndim == 3 and y_pred.shape[-1] == 1))
        if self.calculation_method and per_pixel:
            score, valid = _reduce(_measure(self._key, counts), self.decrease)
            valid = int(np.asarray(valid).item())
            self._total_num += float(np.asarray(score).item()) * valid
            self._class_num += valid
        else:
            self._totals += counts.reshape(-1, 4).sum(axis=0)

    def eval(self):
        if self.calculation_method:
            if self._class_num == 0:
                raise RuntimeError("The 'ConfusionMatrixMetric' can not be calculated, because "
                                   "the number of samples is 0, please check whether your "
                                   "inputs(predicted value, true value) are empty, or has called "
                                   "update method before calling eval method.")
            return self._total_num / self._class_num
        return _measure(self._key, self._totals)
