"""MindIR, MindSpore's graph file: loading it into a runnable Cell, and exporting to it.

    graph = mindspore.load("net.mindir")            # load.py -> graph.py (FuncGraph)
    out = mindspore.nn.GraphCell(graph)(x)           # graph_cell.py, interpret.py, load_ops.py
    mindspore.export(net, x, file_name="net", file_format="MINDIR")   # export.py

The file format is MindSpore's protobuf (``schema/``); MindSpore 2.10's
operator layouts, enums and type ids come from ``optable.py``.
"""
from msxla.mindir.load import load, load_graph, load_mindir, save_mindir
from msxla.mindir.graph import FuncGraph
from msxla.mindir.interpret import MindIRLoadError
from msxla.mindir.registry import MindIRExportError

__all__ = ["load", "load_graph", "load_mindir", "save_mindir", "FuncGraph", "MindIRLoadError",
           "MindIRExportError"]
