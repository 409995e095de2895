"""``mindspore.mint.optim``: the torch-style optimizers of ``mindspore.experimental.optim``
(same signatures and updates); ``FusedAdamW`` is AdamW computed the same way."""
from msxla.experimental.optim import SGD, Adam, AdamW
from msxla.experimental.optim.adam import AdamW as FusedAdamW

__all__ = ["Adam", "AdamW", "FusedAdamW", "SGD"]
