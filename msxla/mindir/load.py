"""``mindspore.load`` and the MindIR file helpers.

    graph = mindspore.load("net.mindir")         # a FuncGraph; nn.GraphCell(graph) runs it
    model = mindspore.load_mindir("net.mindir")  # the ModelProto message (deprecated in 2.5)
    mindspore.save_mindir(model, "net2")         # writes net2.mindir, read-only

``mindspore.train.serialization.load_mindir`` (MindSpore's C++ loader, what
``load`` calls) is ``load_graph``: the FuncGraph of a file. Encrypted files
(``dec_key``) are not supported.
"""
from __future__ import annotations

import logging
import os
import stat

from google.protobuf.message import DecodeError

from msxla.mindir.graph import FuncGraph
from msxla.mindir.schema import pb

LOG = logging.getLogger("msxla")


def load(file_name, **kwargs):
    """Load a MindIR file as a graph that ``nn.GraphCell`` runs."""
    if "obf_func" in kwargs:
        raise NotImplementedError("Dynamic model structure obfuscation is no longer supported.")
    if not isinstance(file_name, str):
        raise ValueError("For 'load', the argument 'file_name' must be string, but got "
                         f"{type(file_name)}.")
    if not file_name.endswith(".mindir"):
        raise ValueError("For 'load', the argument 'file_name'(MindIR file) should end with "
                         "'.mindir', please input the correct 'file_name'.")
    if not os.path.exists(file_name):
        raise ValueError("For 'load', the argument 'file_name'(MindIR file) does not exist, "
                         "please check whether the 'file_name' is correct.")
    if "dec_key" in kwargs:
        raise NotImplementedError("For 'load', encrypted MindIR files (dec_key) are not "
                                  "supported by msxla.")
    graph = load_graph(os.path.realpath(file_name))
    if graph is None:
        raise RuntimeError("Load MindIR failed.")
    return graph


def load_graph(file_name, **kwargs):
    """The FuncGraph of a MindIR file, or None if the file is not MindIR."""
    with open(file_name, "rb") as f:
        data = f.read()
    try:
        return FuncGraph.from_bytes(data)
    except DecodeError:
        LOG.error("Load MindIR failed: '%s' is not a MindIR file.", file_name)
        return None


def load_mindir(file_name):
    """The ``ModelProto`` of a MindIR file (``mindspore.load_mindir``, deprecated)."""
    LOG.warning("The interface 'mindspore.load_mindir' is deprecated from version 2.5 and will be "
                "removed in a future version.")
    _check_file_name(file_name)
    model = pb.ModelProto()
    try:
        with open(os.path.realpath(file_name), "rb") as f:
            model.ParseFromString(f.read())
    except BaseException as e:  # noqa: BLE001 - MindSpore reports every failure as ValueError
        raise ValueError(str(e)) from e
    return model


def save_mindir(model, file_name):
    """Write a ``ModelProto`` to ``file_name`` (``.mindir`` added), read-only
    (``mindspore.save_mindir``, deprecated)."""
    LOG.warning("The interface 'mindspore.save_mindir' is deprecated from version 2.5 and will be "
                "removed in a future version.")
    _check_file_name(file_name)
    file_name = os.path.realpath(file_name)
    if not file_name.endswith(".mindir"):
        file_name += ".mindir"
    os.makedirs(os.path.dirname(file_name), mode=0o700, exist_ok=True)
    if not isinstance(model, pb.ModelProto):
        raise TypeError("For 'save_mindir', the argument 'model' must be ModelProto, but got "
                        f"{type(model)}.")
    write_read_only(file_name, model.SerializeToString())


def write_read_only(path: str, data: bytes):
    if os.path.exists(path):
        os.chmod(path, stat.S_IWUSR | stat.S_IRUSR)
    with open(path, "wb") as f:
        f.write(data)
    os.chmod(path, stat.S_IRUSR)


def _check_file_name(file_name):
    if not isinstance(file_name, str):
        raise TypeError(f"The '{file_name}' must be string, but got {type(file_name)}.")
    if file_name.endswith("/") or os.path.basename(file_name) == "":
        raise ValueError(f"The '{file_name}' is an invalid file name.")
