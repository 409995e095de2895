"""``mindspore.nn``: Cells, layers, losses, optimizers and wrappers."""
from msxla.nn.cell import Cell
from msxla.nn.container import CellDict, CellList, SequentialCell
from msxla.nn import learning_rate_schedule, dynamic_lr, optim  # noqa: E402
from msxla.nn.learning_rate_schedule import *  # noqa: E402,F401,F403
from msxla.nn.dynamic_lr import *  # noqa: E402,F401,F403
from msxla.nn.optim import *  # noqa: E402,F401,F403
from msxla.nn import layer, loss, wrap  # noqa: E402
from msxla.nn.layer import *  # noqa: E402,F401,F403
from msxla.nn.loss import *  # noqa: E402,F401,F403
from msxla.nn.wrap import *  # noqa: E402,F401,F403
from msxla.train.metrics import *  # noqa: E402,F401,F403 - mindspore.nn.Accuracy ...
from msxla.mindir.graph_cell import GraphCell  # noqa: E402,F401 - runs a loaded MindIR
