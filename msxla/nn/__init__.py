"""``mindspore.nn``: Cells, layers, losses, optimizers and wrappers."""
from msxla.nn.cell import Cell
from msxla.nn.container import CellDict, CellList, SequentialCell
