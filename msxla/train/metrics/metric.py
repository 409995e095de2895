"""``Metric``: the base of evaluation metrics, and helpers they share.

A metric accumulates over ``update(*inputs)`` calls (predictions and labels as
Tensors, numpy arrays or lists) and reports with ``eval()``; ``clear()``
starts again and ``metric(*inputs)`` does all three at once.
``set_indexes([2, 1])`` picks and orders the inputs ``update`` receives (for
an evaluation network returning ``(loss, logits, label)``); ``update`` methods
decorated with ``rearrange_inputs`` honour it. Metrics compute in numpy, on
the host, as MindSpore's do.
"""
from __future__ import annotations

import functools
from abc import ABCMeta, abstractmethod

import numpy as np

from msxla.common.tensor import Tensor

__all__ = ["Metric", "rearrange_inputs"]
EVAL_TYPES = ("classification", "multilabel")


def rearrange_inputs(func):
    """Decorate ``update`` so that it receives ``inputs[i] for i in self.indexes``."""

    @functools.wraps(func)
    def wrapper(self, *inputs):
        indexes = self.indexes
        if indexes:
            inputs = [inputs[i] for i in indexes]
        return func(self, *inputs)
    return wrapper


class Metric(metaclass=ABCMeta):
    """Base class of metrics: override ``clear``, ``update`` and ``eval``."""

    def __init__(self):
        self._indexes = None

    def _convert_data(self, data):
        if isinstance(data, Tensor):
            return data.asnumpy()
        if isinstance(data, list):
            return np.array(data)
        if isinstance(data, np.ndarray):
            return data
        raise TypeError("For 'Metric' and its derived classes, the input data type must be tensor, "
                        f"list or numpy.ndarray, but got {type(data)}.")

    @property
    def indexes(self):
        """The input order ``update`` uses (None: as given)."""
        return getattr(self, "_indexes", None)

    def set_indexes(self, indexes):
        """Select and order the inputs of ``update``; returns the metric."""
        if not isinstance(indexes, list) or not all(isinstance(i, int) for i in indexes):
            raise ValueError("For 'set_indexes', the argument 'indexes' must be a list and all its "
                             "elements must be int, please check whether it is correct.")
        self._indexes = indexes
        return self

    def __call__(self, *inputs):
        self.clear()
        self.update(*inputs)
        return self.eval()

    @abstractmethod
    def clear(self):
        """Forget everything accumulated."""

    @abstractmethod
    def eval(self):
        """The metric over everything accumulated."""

    @abstractmethod
    def update(self, *inputs):
        """Accumulate one batch."""


class EvaluationBase(Metric):
    """A metric over predictions and labels that is either ``classification``
    (``y`` holds class indices or one-hot rows) or ``multilabel`` (0/1 arrays)."""

    def __init__(self, eval_type):
        super().__init__()
        if eval_type not in EVAL_TYPES:
            raise TypeError(f"The argument 'eval_type' must be in {set(EVAL_TYPES)}, but got "
                            f"{eval_type}")
        self._type = eval_type

    def _check_shape(self, y_pred, y):
        if self._type == "classification":
            if y_pred.ndim != y.ndim + 1:
                raise ValueError("In classification case, the dimension of y_pred (predicted "
                                 "value) should equal to the dimension of y (true value) add 1, "
                                 f"but got y_pred dimension: {y_pred.ndim} and y dimension: "
                                 f"{y.ndim}.")
            if y.shape != (y_pred.shape[0],) + y_pred.shape[2:]:
                raise ValueError("In classification case, y_pred (predicted value) shape and y "
                                 "(true value) shape can not match, y shape should be equal to "
                                 "y_pred shape that the value at index 1 is deleted. Such as "
                                 "y_pred shape (1, 2, 3), then y shape should be (1, 3). But got "
                                 f"y_pred shape {y_pred.shape} and y shape {y.shape}")
        elif y_pred.ndim != y.ndim:
            raise ValueError(f"In {self._type} case, the dimension of y_pred (predicted value) "
                             "should equal to the dimension of y (true value), but got y_pred "
                             f"dimension: {y_pred.ndim} and y dimension: {y.ndim}.")
        elif y_pred.shape != y.shape:
            raise ValueError(f"In {self._type} case, the shape of y_pred (predicted value) should "
                             "equal to the shape of y (true value), but got y_pred shape: "
                             f"{y_pred.shape} and y shape: {y.shape}.")

    def _check_value(self, y_pred, y):
        if self._type != "classification" and not (np.equal(y_pred ** 2, y_pred).all()
                                                   and np.equal(y ** 2, y).all()):
            raise ValueError("In multilabel case, all elements in y_pred (predicted value) and y "
                             "(true value) should be 0 or 1.Please check whether your inputs "
                             "y_pred and y are correct.")

    def _inputs(self, name, inputs):
        """``(y_pred, y)`` as numpy, one-hot labels turned into indices, checked."""
        if len(inputs) != 2:
            raise ValueError(f"For '{name}.update', it needs 2 inputs (predicted value, true "
                             f"value), but got {len(inputs)}.")
        y_pred = self._convert_data(inputs[0])
        y = self._convert_data(inputs[1])
        if self._type == "classification" and y_pred.ndim == y.ndim and is_onehot(y):
            y = y.argmax(axis=1)
        self._check_shape(y_pred, y)
        self._check_value(y_pred, y)
        return y_pred, y

    def clear(self):
        raise NotImplementedError

    def update(self, *inputs):
        raise NotImplementedError

    def eval(self):
        raise NotImplementedError


def is_onehot(data):
    """Whether ``data`` holds one-hot rows along axis 1."""
    if data.ndim > 1 and np.equal(data ** 2, data).all():
        shape = (data.shape[0],) + data.shape[2:]
        return bool(np.equal(np.ones(shape), data.sum(axis=1)).all())
    return False


def check_class_num(metric, name, y_pred):
    """Remember the class count of the first batch; later batches must match it."""
    if metric._class_num == 0:
        metric._class_num = y_pred.shape[1]
    elif y_pred.shape[1] != metric._class_num:
        raise ValueError(f"For '{name}.update', class number not match, last input predicted data "
                         f"contain {metric._class_num} classes, but current predicted data contain "
                         f"{y_pred.shape[1]} classes, please check your predicted "
                         "value(inputs[0]).")
    return metric._class_num


def binary_clf_curve(preds, target, sample_weights=None, pos_label=1):
    """False and true positives at each distinct score, highest score first."""
    if sample_weights is not None and not isinstance(sample_weights, np.ndarray):
        sample_weights = np.array(sample_weights)
    if preds.ndim > target.ndim:
        preds = preds[:, 0]
    order = np.argsort(-preds)
    preds, target = preds[order], target[order]
    weight = 1. if sample_weights is None else sample_weights[order]
    distinct = np.where(preds[1:] - preds[:-1])[0]
    ends = np.pad(distinct, (0, 1), constant_values=target.shape[0] - 1)
    target = np.array(target == pos_label).astype(np.int64)
    tps = np.cumsum(target * weight, axis=0)[ends]
    if sample_weights is not None:
        fps = np.cumsum((1 - target) * weight, axis=0)[ends]
    else:
        fps = 1 + ends - tps
    return fps, tps, preds[ends]
