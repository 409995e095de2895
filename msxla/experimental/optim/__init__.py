"""``mindspore.experimental.optim``: torch-style optimizers (``param_groups``,
``optimizer(grads)``) and their learning-rate schedulers."""
from msxla.experimental.optim import lr_scheduler
from msxla.experimental.optim.adam import Adam, AdamW
from msxla.experimental.optim.optimizer import Optimizer
from msxla.experimental.optim.sgd import SGD

__all__ = ["Optimizer", "Adam", "AdamW", "SGD", "lr_scheduler"]
