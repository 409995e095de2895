"""``mindspore.nn.optim``: the Optimizer base class and the built-in optimizers."""
from msxla.nn.optim.optimizer import Optimizer
from msxla.nn.optim.sgd import SGD
from msxla.nn.optim.momentum import Momentum
from msxla.nn.optim.adam import Adam, AdamWeightDecay
from msxla.nn.optim.rmsprop import RMSProp
from msxla.nn.optim.ada_grad import Adagrad
from msxla.nn.optim.lamb import Lamb

__all__ = ["Optimizer", "SGD", "Momentum", "Adam", "AdamWeightDecay", "RMSProp", "Adagrad",
           "Lamb"]
