"""``mindspore.export``: write a network's graph to a file.

    msxla.export(net, *inputs, file_name="net", file_format="AIR")

- ``"AIR"``: the GE model as a binary ``ModelDef`` (``net.air``), the file
  Ascend's ATC takes (``atc --framework=1 --model=net.air``). Parameters are
  embedded as ``Const`` weights (an inference graph: the network's Parameter
  updates, e.g. BatchNorm statistics in training mode, are not exported).
- ``"STABLEHLO"`` (msxla's own format): the StableHLO module as text
  (``net.mlir``), the common source of every msxla backend.
- ``"MINDIR"``: MindSpore's graph file (``net.mindir``), written by
  ``msxla/mindir/export.py``; ``mindspore.load`` + ``nn.GraphCell`` run it.
- ``"ONNX"`` is not written by msxla: ``NotImplementedError`` (``msxla/mindir/onnx.py``).

The network is captured like ``jit`` captures it (capture_mode "ast"), for
the shapes and dtypes of ``inputs``. A missing suffix is added, as MindSpore
does, and the file is left read-only.
"""
from __future__ import annotations

import os
import stat

import numpy as np

from msxla._log import LOG
from msxla.ge import Signature, convert
from msxla.ge.backend import variable_names
from msxla.jit.api import jit
from msxla.lower.lowering import lower
from msxla.nn.cell import Cell
FORMATS = ["AIR", "ONNX", "MINDIR", "STABLEHLO"]
_SUFFIX = {"AIR": ".air", "STABLEHLO": ".mlir"}


def export(net, *inputs, file_name, file_format, **kwargs):
    """Export ``net`` (a Cell or function) called on ``inputs`` to ``file_name``."""
    if file_format not in FORMATS:
        raise ValueError(f"For 'export', 'file_format' must be one of {FORMATS}, but got "
                         f"{file_format}.")
    if not isinstance(file_name, str):
        raise TypeError(f"The '{file_name}' must be string, but got {type(file_name)}.")
    if file_format == "MINDIR":
        from msxla.mindir.export import export_mindir
        return export_mindir(net, *inputs, file_name=file_name, **kwargs)
    if file_format == "ONNX":
        from msxla.mindir.onnx import onnx_unavailable
        raise onnx_unavailable()
    if file_format == "AIR":
        LOG.warning("AIR format is deprecated, and will be removed in a future version, please "
                    "use other format or use MindSpore Lite to do offline inference")
    graph, lowered = _capture(net, inputs)
    if file_format == "AIR":
        data = air_bytes(graph, lowered, _name(net))
    else:
        data = lowered.as_text().encode()
    path = os.path.realpath(file_name)
    if not path.endswith(_SUFFIX[file_format]):
        path += _SUFFIX[file_format]
    os.makedirs(os.path.dirname(path), exist_ok=True)
    if os.path.exists(path):
        os.chmod(path, stat.S_IWUSR | stat.S_IRUSR)
    with open(path, "wb") as f:
        f.write(data)
    os.chmod(path, stat.S_IRUSR)
    return path


def _name(net) -> str:
    if isinstance(net, Cell):
        return type(net).__name__
    return getattr(net, "__name__", None) or type(net).__name__


def _capture(net, inputs):
    # O1: an O0 capture would carry kernel boundaries, which mean nothing to GE
    graph = jit(net, capture_mode="ast", jit_level="O1").capture(*inputs)
    return graph, lower(graph)


def air_bytes(graph, lowered, name: str) -> bytes:
    """The AIR file of a captured graph: Parameters read become Const weights."""
    names = variable_names(list(graph.state_in) + list(graph.state_out))
    sig = Signature(n_data=graph.n_args,
                    variables=tuple(names[id(p)] for p in graph.state_in),
                    const_values=tuple(np.asarray(p._data) for p in graph.state_in),
                    n_outs=graph.n_outs,
                    assign_to=tuple(names[id(p)] for p in graph.state_out))
    return convert(lowered, name, sig).to_bytes()
