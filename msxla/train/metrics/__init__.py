"""``mindspore.train`` metrics (also ``mindspore.nn.Accuracy`` ...): what
``Model.eval`` and ``Model.fit`` report.

``names()`` lists the metric names ``Model(metrics={...})`` accepts and
``get_metric_fn(name)`` builds one. MindSpore's segmentation distances
(``hausdorff_distance``, ``mean_surface_distance``,
``root_mean_square_distance``) and ``occlusion_sensitivity`` are not implemented.
"""
from msxla.train.metrics.accuracy import Accuracy
from msxla.train.metrics.auc import auc
from msxla.train.metrics.bleu_score import BleuScore
from msxla.train.metrics.confusion_matrix import ConfusionMatrix
from msxla.train.metrics.confusion_matrix_metric import ConfusionMatrixMetric
from msxla.train.metrics.cosine_similarity import CosineSimilarity
from msxla.train.metrics.dice import Dice
from msxla.train.metrics.error import MAE, MSE
from msxla.train.metrics.fbeta import F1, Fbeta
from msxla.train.metrics.loss import Loss
from msxla.train.metrics.metric import Metric, rearrange_inputs
from msxla.train.metrics.perplexity import Perplexity
from msxla.train.metrics.precision import Precision
from msxla.train.metrics.recall import Recall
from msxla.train.metrics.roc import ROC
from msxla.train.metrics.topk import (Top1CategoricalAccuracy, Top5CategoricalAccuracy,
                                      TopKCategoricalAccuracy)

__all__ = ["names", "get_metric_fn", "Accuracy", "MAE", "MSE", "Metric", "rearrange_inputs",
           "Precision", "Recall", "Fbeta", "BleuScore", "CosineSimilarity", "F1", "Dice", "ROC",
           "auc", "TopKCategoricalAccuracy", "Top1CategoricalAccuracy", "Top5CategoricalAccuracy",
           "Loss", "Perplexity", "ConfusionMatrix", "ConfusionMatrixMetric"]

__factory__ = {
    "accuracy": Accuracy, "acc": Accuracy, "precision": Precision, "recall": Recall, "F1": F1,
    "dice": Dice, "roc": ROC, "auc": auc, "bleu_score": BleuScore,
    "cosine_similarity": CosineSimilarity, "topk": TopKCategoricalAccuracy,
    "top_1_accuracy": Top1CategoricalAccuracy, "top_5_accuracy": Top5CategoricalAccuracy,
    "mae": MAE, "mse": MSE, "loss": Loss, "perplexity": Perplexity,
    "confusion_matrix": ConfusionMatrix, "confusion_matrix_metric": ConfusionMatrixMetric,
}


def names():
    """The names ``get_metric_fn`` accepts, sorted."""
    return sorted(__factory__)


def get_metric_fn(name, *args, **kwargs):
    """A new metric of the given name (``"acc"``, ``"loss"``, ``"top_5_accuracy"`` ...)."""
    if name not in __factory__:
        raise KeyError(f"For 'get_metric_fn', unsupported metric {name}, please refer to official "
                       "website for more details about supported metrics.")
    return __factory__[name](*args, **kwargs)


def get_metrics(metrics):
    """``Model``'s ``metrics`` argument (a set of names or a dict of metrics) as a dict."""
    if metrics is None:
        return metrics
    if isinstance(metrics, dict):
        for name, metric in metrics.items():
            if not isinstance(name, str) or not isinstance(metric, Metric):
                raise TypeError("For 'get_metrics', if 'metrics' is dict, the key in 'metrics' "
                                "must be string and value in 'metrics' must be Metric, but got "
                                f"key:{type(name)}, value:{type(metric)}.")
        return metrics
    if isinstance(metrics, set):
        return {name: get_metric_fn(name) for name in metrics}
    raise TypeError("For 'get_metrics', the argument 'metrics' must be None, dict or set, but got "
                    f"{metrics}")
