"""``export(net, *inputs, file_name=..., file_format="MINDIR")``: a network as a MindIR file.

The network is captured as ``jit`` captures it (capture_mode "ast") for the
shapes and dtypes of ``inputs``, lowered to StableHLO, and each StableHLO op
is written as MindSpore primitives (``convert.py`` and the ``convert_*``
families). The Parameters the network reads become MindIR parameters under
their names, holding their current values; the graph is an inference graph
(Parameter updates, such as BatchNorm statistics in training mode, are not
written). MindSpore 2.10 loads the file with ``mindspore.load`` and runs it
with ``nn.GraphCell``; so does msxla.

The file is ``file_name`` plus ``.mindir`` (unless it ends so already), and is
left read-only, as MindSpore leaves it. ``custom_func`` is applied to the
ModelProto before writing; encryption and ``dataset`` are not supported.
"""
from __future__ import annotations

import os
import re

import numpy as np

from msxla.mindir.load import write_read_only


def model_proto(net, *inputs):
    """The MindIR ``ModelProto`` of ``net`` called on ``inputs``."""
    from msxla.jit.api import jit
    from msxla.lower.lowering import lower
    from msxla.mindir.convert import convert_module
    # O1: an O0 capture would carry kernel boundaries, which mean nothing to MindSpore
    graph = jit(net, capture_mode="ast", jit_level="O1").capture(*inputs)
    lowered = lower(graph)
    names = _unique_names(graph.state_in)
    params = [(names[id(p)], np.asarray(p._data)) for p in graph.state_in]
    return convert_module(lowered.stablehlo(), graph_name(net), graph.n_args, params,
                          graph.n_outs, graph.out_spec)


def export_mindir(net, *inputs, file_name: str, **kwargs):
    """Write ``net`` called on ``inputs`` to ``file_name`` (``.mindir`` added).
    ``custom_func(model)`` may edit the ModelProto before it is written."""
    if "enc_key" in kwargs:
        raise NotImplementedError("For 'export', encrypted MindIR files (enc_key) are not "
                                  "supported by msxla.")
    if kwargs.get("dataset") is not None:
        raise NotImplementedError("For 'export', saving a dataset's preprocessing into MindIR "
                                  "(dataset=...) is not supported by msxla.")
    model = model_proto(net, *inputs)
    if kwargs.get("custom_func") is not None:
        kwargs["custom_func"](model)
    data = model.SerializeToString()
    path = os.path.realpath(file_name)
    if not path.endswith(".mindir"):
        path += ".mindir"
    os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
    write_read_only(path, data)
    return path


def graph_name(net) -> str:
    from msxla.nn.cell import Cell
    base = type(net).__name__ if isinstance(net, Cell) else \
        getattr(net, "__name__", None) or type(net).__name__
    return re.sub(r"\W", "_", base) + "_construct"


def _unique_names(params) -> dict:
    """A unique MindIR parameter name per Parameter (by identity): its own name, numbered
    when two Parameters share one."""
    names, taken = {}, set()
    for p in params:
        if id(p) in names:
            continue
        base = getattr(p, "name", "") or "Parameter"
        name, k = base, 1
        while name in taken:
            name = f"{base}_{k}"
            k += 1
        taken.add(name)
        names[id(p)] = name
    return names
