"""``save_checkpoint``, ``load_checkpoint``, ``load_param_into_net``.

Checkpoints use MindSpore's ``.ckpt`` format (``checkpoint.proto``), so files
move both ways between msxla and MindSpore. Saving writes a temporary file in
the target's directory, fsyncs it and renames it over the target: a crash
mid-write leaves the previous checkpoint intact. Loading only parses
protobuf messages and copies raw tensor bytes; nothing in a file is ever
executed.
"""
from __future__ import annotations

import atexit
import binascii
import logging
import os
import stat
import tempfile
import threading
from collections import OrderedDict
from io import BytesIO

import numpy as np
from google.protobuf.message import DecodeError

from msxla import context  # noqa: F401 - mindspore.train.serialization.context
from msxla.common.parameter import Parameter
from msxla.common.tensor import Tensor
from msxla.nn import _checkparam as validator
from msxla.train import _ckpt_format as fmt
from msxla.train._load_net import load_param_into_net
from msxla.mindir.load import load, load_graph as load_mindir  # noqa: F401 - MindIR graphs

__all__ = ["save_checkpoint", "load_checkpoint", "load_param_into_net"]

LOG = logging.getLogger("msxla")
_ASYNC = {"thread": None}


# ------------------------------------------------------------------ saving
def _check_save_args(save_obj, ckpt_file_name, format):  # noqa: A002 - MindSpore's name
    from msxla.nn.cell import Cell
    if format not in ("safetensors", "ckpt"):
        raise ValueError("For 'save_checkpoint', the format must be 'safetensors' or 'ckpt', but "
                         f"got {format}.")
    if not isinstance(save_obj, (Cell, list, dict)):
        raise TypeError("For 'save_checkpoint', the parameter 'save_obj' must be nn.Cell, list or "
                        f"dict, but got {type(save_obj)}.")
    if not isinstance(ckpt_file_name, str):
        raise TypeError(f"For 'save_checkpoint', the parameter {ckpt_file_name} for checkpoint "
                        "file name is invalid,'ckpt_file_name' must be string, but got "
                        f"{type(ckpt_file_name)}.")
    ckpt_file_name = os.path.realpath(ckpt_file_name)
    if os.path.isdir(ckpt_file_name):
        raise IsADirectoryError(f"For 'save_checkpoint', the parameter `ckpt_file_name`: "
                                f"{ckpt_file_name} is a directory, it must be a file name.")
    if not ckpt_file_name.endswith(format):
        ckpt_file_name += f".{format}"
    return ckpt_file_name


def _check_append_dict(append_dict):
    if append_dict is None:
        return None
    if not isinstance(append_dict, dict):
        raise TypeError("For 'save_checkpoint', the argument 'append_dict' must be dict, but got "
                        f"{type(append_dict)}.")
    for key, value in append_dict.items():
        if not isinstance(key, str) or not isinstance(value, (int, float, bool, str, Tensor)):
            raise TypeError("For 'save_checkpoint', the type of dict 'append_info' must be key: "
                            "string, value: int, float, bool or Generator, but got key: "
                            f"{type(key)}, value: {type(value)}")
    return append_dict


def _items_to_save(save_obj, choice_func):
    """``[(name, Tensor or str)]`` from a Cell, a list or a dict."""
    from msxla.nn.cell import Cell
    keep = (lambda name: True) if choice_func is None else choice_func
    items = []
    if isinstance(save_obj, Cell):
        for _, param in save_obj.parameters_and_names():
            if keep(param.name):
                items.append((param.name, param))
    elif isinstance(save_obj, dict):
        for key, value in save_obj.items():
            if not isinstance(key, str):
                raise TypeError("For save_checkpoint, when save_obj is made up by dict, the key "
                                "should be str andvalue should be Parameter, but got the type of "
                                f"key is {type(key)} andthe type of value is {type(value)}")
            if not keep(key):
                continue
            if isinstance(value, np.ndarray):
                value = Tensor(value)
            items.append((key, value))
    elif save_obj and isinstance(save_obj[0], dict):
        for item in save_obj:
            if not (isinstance(item, dict) and "name" in item and "data" in item):
                raise TypeError("For save_checkpoint, save_obj should be a list of dict items, "
                                "and the dict should have key values 'name' and 'value', but got "
                                f"{type(item)} and {item}.")
            if not isinstance(item["name"], str):
                raise TypeError("For save_checkpoint, when save_obj is a list of dict items, the "
                                f"name in dict should be string, but got {type(item['name'])}.")
            if not isinstance(item["data"], Tensor):
                raise TypeError("For save_checkpoint, when save_obj is a list of dict items, the "
                                "data in dict should be parameter, but got "
                                f"{type(item['data'])}.")
            if keep(item["name"]):
                items.append((item["name"], item["data"]))
    else:
        for param in save_obj:
            if not isinstance(param, Parameter):
                raise TypeError("For save_checkpoint, when save_obj is made up by list of "
                                f"Parameter,the param should be parameter, but got {type(param)}")
            if keep(param.name):
                items.append((param.name, param))
    return items


def _rank_slice(value):
    from msxla.parallel import _sharding, _slices
    sharding = getattr(value, "sharding", None)
    if not isinstance(value, Parameter) or sharding is None or not _sharding.active():
        return value
    layout = _slices.layout_of(sharding, len(value.shape))
    return Tensor(_slices.rank_slice(value.asnumpy(), *layout, _slices.this_rank()))


def save_checkpoint(save_obj, ckpt_file_name, integrated_save=True, async_save=False,
                    append_dict=None, enc_key=None, enc_mode="AES-GCM", choice_func=None,
                    crc_check=False, format="ckpt", **kwargs):  # noqa: A002
    """Save the Parameters of ``save_obj`` (a Cell, a list or a dict) to a checkpoint file.

    ``append_dict`` adds extra entries (numbers, bools, strings, Tensors);
    ``choice_func(name)`` selects Parameters; ``crc_check`` appends a CRC-32."""
    ckpt_file_name = _check_save_args(save_obj, ckpt_file_name, format)
    validator.check_bool(integrated_save)
    if not isinstance(async_save, (bool, str)):
        raise TypeError("For 'save_checkpoint', the parameter 'async_save' must be bool or str, "
                        f"but got {type(async_save)}.")
    if isinstance(async_save, str) and async_save not in ("process", "thread"):
        raise ValueError("For 'save_checkpoint', the argument 'async_save' can only be 'process' "
                         f"or 'thread',but got {async_save}.")
    append_dict = _check_append_dict(append_dict)
    enc_key = validator.check_isinstance("enc_key", enc_key, (type(None), bytes))
    validator.check_isinstance("enc_mode", enc_mode, str)
    crc_check = validator.check_isinstance("crc_check", crc_check, bool)
    validator.check_isinstance("remove_redundancy", kwargs.get("remove_redundancy"),
                               (type(None), bool))
    if enc_key is not None:
        raise NotImplementedError("For 'save_checkpoint', encrypted checkpoints (enc_key) are not "
                                  "supported; save without 'enc_key'.")
    items = _items_to_save(save_obj, choice_func)
    if not integrated_save:  # semi-auto parallel: this rank's slice of each sharded Parameter
        items = [(name, _rank_slice(value)) for name, value in items]
    for key, value in (append_dict or {}).items():
        items.append((key, value if isinstance(value, (str, Tensor)) else Tensor(value)))
    # Snapshot every value now: later updates must not leak into the file.
    records = OrderedDict((name, fmt.to_record(value)) for name, value in items)
    if async_save:
        _wait_async_save()
        thread = threading.Thread(target=_write, args=(ckpt_file_name, records, crc_check, format),
                                  name="asyn_save_ckpt")
        _ASYNC["thread"] = thread
        thread.start()
        return
    _write(ckpt_file_name, records, crc_check, format)


def _wait_async_save():
    thread = _ASYNC["thread"]
    if thread is not None and thread.is_alive():
        thread.join()
    _ASYNC["thread"] = None


atexit.register(_wait_async_save)


def _write(ckpt_file_name, records, crc_check, format):  # noqa: A002
    """Write atomically: temp file in the same directory, fsync, rename over the target."""
    directory = os.path.dirname(ckpt_file_name) or "."
    os.makedirs(directory, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=os.path.basename(ckpt_file_name) + ".",
                                    suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "wb") as f:
            if format == "safetensors":
                from msxla.train import _safetensors
                _safetensors.write(f, records, crc_check)
            else:
                crc = 0
                for chunk in fmt.serialize(records):
                    crc = binascii.crc32(chunk, crc)
                    f.write(chunk)
                if crc_check:
                    f.write(b"crc_num" + crc.to_bytes(10, byteorder="big"))
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp_name, stat.S_IRUSR)
        os.replace(tmp_name, ckpt_file_name)
    except BaseException:
        LOG.critical("Failed to save the checkpoint file %s. Maybe don't have the permission to "
                     "write files, or the disk space is insufficient and so on.", ckpt_file_name)
        if os.path.exists(tmp_name):
            os.remove(tmp_name)
        raise
    _fsync_dir(directory)


def _fsync_dir(directory):
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


# ----------------------------------------------------------------- loading
def _check_prefix(prefix):
    if prefix is None:
        return None
    if not isinstance(prefix, (str, list, tuple)):
        raise TypeError("For 'load_checkpoint', the type of 'specify_prefix' or 'filter_prefix' "
                        f"must be string, list[string] or tuple[string], but got {type(prefix)}.")
    if isinstance(prefix, str):
        prefix = (prefix,)
    if not prefix:
        raise ValueError("For 'load_checkpoint', the argument 'specify_prefix' or 'filter_prefix' "
                         "can't be empty when 'specify_prefix' or 'filter_prefix' is list or "
                         "tuple.")
    for index, pre in enumerate(prefix):
        if not isinstance(pre, str):
            raise TypeError("For 'load_checkpoint', when 'specify_prefix' or 'filter_prefix' is "
                            "list or tuple, the element in it must be string, but got "
                            f"{type(pre)} at index {index}.")
        if pre == "":
            raise ValueError("For 'load_checkpoint', the value of 'specify_prefix' or "
                             "'filter_prefix' can't include ''.")
    return prefix


def _check_file(file, file_format):
    if file_format not in ("ckpt", "safetensors"):
        raise ValueError("For 'load_checkpoint', the checkpoint file should end with '.ckpt' or "
                         "'.safetensors', please input the correct 'format'.")
    if isinstance(file, BytesIO):
        if file_format == "ckpt":
            raise TypeError("ckpt don't support BytesIO as input type, please change to "
                            "safetensors.")
        return file
    if not isinstance(file, str):
        raise TypeError("For 'load_checkpoint', the argument 'ckpt_file_name' must be string, but "
                        f"got {type(file)}.")
    if not file.endswith(file_format):
        raise ValueError("For 'load_checkpoint', the checkpoint file format must same with "
                         f"'format', but got file_name:'{file}', format:'{file_format}'")
    file = os.path.realpath(file)
    if not os.path.exists(file):
        raise ValueError(f"For 'load_checkpoint', the checkpoint file: {file} does not exist, "
                         "please check whether the 'ckpt_file_name' is correct.")
    return file


def _wanted(name, specify_prefix, filter_prefix, choice_func):
    if specify_prefix and not any(name.startswith(p) for p in specify_prefix):
        return False
    if filter_prefix and any(name.startswith(p) for p in filter_prefix):
        return False
    if specify_prefix is None and filter_prefix is None and choice_func is not None:
        return bool(choice_func(name))
    return True


def _read_ckpt(file, crc_check):
    """The file's Checkpoint message (a clear ValueError naming the file otherwise)."""
    try:
        with open(file, "rb") as f:
            content = f.read()
    except OSError as err:
        raise ValueError(f"Failed to read the checkpoint file {file}. May not have permission to "
                         "read it, please check the correct of the file.") from err
    if crc_check and content[-17:-10] != b"crc_num":
        LOG.warning("For 'load_checkpoint', the ckpt file do not contain the crc code, please "
                    "check the file.")
    if content[-17:-10] == b"crc_num":
        crc_bytes, content = content[-10:], content[:-17]
        if crc_check and binascii.crc32(content, 0) != int.from_bytes(crc_bytes, "big"):
            raise ValueError("For 'load_checkpoint', the crc check is failed, please check whether "
                             "the ckpt file is damaged.")
    try:
        records = fmt.parse(content)
    except DecodeError as err:
        raise ValueError(f"Failed to read the checkpoint file {file}. The file may be corrupted, "
                         "and the content cannot be parsed.") from err
    if not records:
        raise ValueError(f"Failed to read the checkpoint file {file}. The file may be corrupted, "
                         "and the content cannot be parsed: it holds no parameters.")
    return records


def load_checkpoint(ckpt_file_name, net=None, strict_load=False, filter_prefix=None,
                    dec_key=None, dec_mode="AES-GCM", specify_prefix=None, choice_func=None,
                    crc_check=False, remove_redundancy=False, format="ckpt"):  # noqa: A002
    """Load a checkpoint file: ``{name: Parameter}`` (strings stay ``str``).

    With ``net``, the Parameters are also loaded into it (``load_param_into_net``)."""
    specify_prefix = _check_prefix(specify_prefix)
    filter_prefix = _check_prefix(filter_prefix)
    dec_key = validator.check_isinstance("dec_key", dec_key, (type(None), bytes))
    validator.check_isinstance("dec_mode", dec_mode, str)
    crc_check = validator.check_isinstance("crc_check", crc_check, bool)
    remove_redundancy = validator.check_isinstance("remove_redundancy", remove_redundancy, bool)
    if format == "safetensors" and (dec_key is not None or dec_mode != "AES-GCM"):
        name = "dec_key" if dec_key is not None else "dec_mode"
        default = None if dec_key is not None else "AES-GCM"
        raise ValueError(f"For 'load_checkpoint', when format is 'safetensors', the parameter "
                         f"'{name}' must be set to default value '{default}', but got "
                         f"'{dec_key if dec_key is not None else dec_mode}'.")
    _wait_async_save()  # a pending asynchronous save finishes first
    file = _check_file(ckpt_file_name, format)
    if dec_key is not None:
        raise NotImplementedError("For 'load_checkpoint', encrypted checkpoints (dec_key) are "
                                  "not supported.")
    if format == "safetensors":
        from msxla.train import _safetensors
        records = _safetensors.read(file, crc_check)
    else:
        records = _read_ckpt(file, crc_check)
    parameter_dict = {}
    try:
        for name, record in records:
            if _wanted(name, specify_prefix, filter_prefix, choice_func):
                parameter_dict[name] = fmt.from_record(name, record)
    except (ValueError, TypeError, KeyError) as err:
        raise ValueError(f"{err}\nFor 'load_checkpoint', failed to load the checkpoint file "
                         f"{file}.") from err
    if not parameter_dict:
        raise ValueError("The loaded parameter dict is empty after filter or specify, please "
                         "check whether 'filter_prefix' or 'specify_prefix' are set correctly.")
    if net is not None:
        load_param_into_net(net, parameter_dict, strict_load, remove_redundancy)
    return parameter_dict


def load_distributed_checkpoint(network, checkpoint_filenames=None, predict_strategy=None,
                                train_strategy_filename=None, strict_load=False, **kwargs):
    """``mindspore.parallel.load_distributed_checkpoint`` (the ranks' files merged into
    ``network``)."""
    from msxla.parallel.checkpoint_transform import load_distributed_checkpoint as load
    return load(network, checkpoint_filenames, predict_strategy, train_strategy_filename,
                strict_load, **kwargs)


_TENSOR_TO_NP_TYPE = {
    "Int8": np.int8, "UInt8": np.uint8, "Int16": np.int16, "UInt16": np.uint16,
    "Int32": np.int32, "UInt32": np.uint32, "Int64": np.int64, "UInt64": np.uint64,
    "Float16": np.float16, "Float32": np.float32, "Float64": np.float64, "Bool": np.bool_,
    "str": "U"}


def tensor_to_np_type(tensor_type_str):
    """The numpy type of a checkpoint's tensor type name (``"Float32"`` -> ``np.float32``,
    ``"BFloat16"`` -> ml_dtypes' bfloat16); None for a name checkpoints do not use."""
    if tensor_type_str == "BFloat16":
        import ml_dtypes
        return ml_dtypes.bfloat16
    return _TENSOR_TO_NP_TYPE.get(tensor_type_str)
