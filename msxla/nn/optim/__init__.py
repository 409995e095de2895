"""``mindspore.nn.optim``: the Optimizer base class and the built-in optimizers."""
from msxla.nn.optim.optimizer import Optimizer
from msxla.nn.optim.sgd import SGD
from msxla.nn.optim.momentum import Momentum
from msxla.nn.optim.adam import Adam, AdamWeightDecay
from msxla.nn.optim.rmsprop import RMSProp
from msxla.nn.optim.ada_grad import Adagrad
from msxla.nn.optim.lamb import Lamb
from msxla.nn.optim.adamax import AdaMax
from msxla.nn.optim.adadelta import Adadelta
from msxla.nn.optim.asgd import ASGD
from msxla.nn.optim.rprop import Rprop

__all__ = ["Optimizer", "SGD", "Momentum", "Adam", "AdamWeightDecay", "RMSProp", "Adagrad",
           "Lamb", "AdaMax", "Adadelta", "ASGD", "Rprop"]
