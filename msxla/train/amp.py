"""Automatic mixed precision and ``build_train_network`` (``mindspore.amp``).

``auto_mixed_precision(net, level, dtype)`` applies one of MindSpore's levels
(see ``_amp_rules``) with float16 or bfloat16. ``build_train_network`` turns a
network, an optimizer and a loss into the training Cell ``Model`` runs:

====== ================== ==================== ===================================
level  network            keep_batchnorm_fp32  loss scale
====== ================== ==================== ===================================
O0     unchanged          -                    none
O1     white list low     -                    none
O2     float16            yes                  ``DynamicLossScaleManager()``
O3     float16            no                   none
auto   op lists           -                    none
====== ================== ==================== ===================================

``cast_model_type``, ``keep_batchnorm_fp32`` and ``loss_scale_manager``
override the level's choice. A loss-scale manager with an update Cell makes
the step a ``TrainOneStepWithLossScaleCell`` (MindSpore refuses that on CPU;
msxla runs it on every device); otherwise ``TrainOneStepCell`` with the
manager's scale as ``sens``.
"""
from __future__ import annotations

import logging

from msxla import nn
from msxla.common import dtype as mstype
from msxla.nn import _checkparam as validator
from msxla.ops.primitive import Primitive
from msxla.train import _amp_rules as rules
from msxla.train.loss_scale_manager import DynamicLossScaleManager, LossScaleManager

__all__ = ["auto_mixed_precision", "custom_mixed_precision", "build_train_network",
           "get_white_list", "get_black_list"]
LOG = logging.getLogger("msxla")
LEVELS = ("O0", "O1", "O2", "O3", "auto")
AMP_WHITE_LIST = rules.AMP_WHITE_LIST
AMP_BLACK_LIST = rules.AMP_BLACK_LIST


def _check_dtype(dtype):
    if dtype not in (mstype.float16, mstype.bfloat16):
        raise ValueError(f"The dtype should be one of (mstype.float16, mstype.bfloat16), but got "
                         f"{dtype}.")


def auto_mixed_precision(network, amp_level="O0", dtype=mstype.float16):
    """``network`` with the mixed precision of ``amp_level`` ('O0', 'O1', 'O2', 'O3',
    'auto') in ``dtype`` (float16 or bfloat16)."""
    if not isinstance(network, nn.Cell):
        if amp_level == "auto":
            raise TypeError("For amp_level 'auto', the network type should be Cell or function.")
        raise TypeError(f"For amp_level '{amp_level}', the network type should be Cell.")
    _check_dtype(dtype)
    if amp_level == "O0":
        return network
    if getattr(network, "_amp_level", None) in ("O1", "O2", "O3", "auto"):
        LOG.warning("The network's auto mixed-precision level is adjusted from %s to %s, and "
                    "repeated calls to mixed-precision interfaces can cause performance "
                    "degradation.", network._amp_level, amp_level)
    if amp_level == "O1":
        network = rules.apply_o1(network, dtype, AMP_WHITE_LIST)
    elif amp_level == "O2":
        network = rules._OutputTo32(rules.apply_black_list(network, AMP_BLACK_LIST, dtype))
    elif amp_level == "O3":
        network = rules._OutputTo32(network.to_float(dtype))
    elif amp_level == "auto":
        network = rules.apply_auto(network, dtype)
    else:
        raise ValueError(f"The amp level {amp_level} is not supported")
    network._amp_level = amp_level
    return network


def _list_check(custom_list, list_name):
    if not isinstance(custom_list, list):
        raise TypeError(f"The type of {list_name} should be list, but got {type(custom_list)}")
    for elem in custom_list:
        if not isinstance(elem, type):
            raise TypeError(f"The element in {list_name} should be a class, but got {elem}")
        if list_name == "white_list" and not issubclass(elem, (nn.Cell, Primitive)):
            raise TypeError(f"The subclass of element in {list_name} should be one of 'Cell' and "
                            f"'Primitive', but got {elem}")
        if list_name == "black_list" and not issubclass(elem, nn.Cell):
            raise TypeError(f"The subclass of element in {list_name} should be one of 'Cell', but "
                            f"got {elem}")
    if list_name == "black_list":
        for elem in AMP_BLACK_LIST:
            if elem not in custom_list:
                LOG.warning("%s is removed from internal black list.", elem)


def custom_mixed_precision(network, *, white_list=None, black_list=None,
                           dtype=mstype.float16):
    """Mixed precision from a user's white list (like O1) or black list (like O2)."""
    if not isinstance(network, nn.Cell):
        raise TypeError("The network type should be Cell.")
    if white_list is None and black_list is None:
        raise ValueError("For custom_mixed_precision, one of white_list and black_list must be "
                         "provided.")
    if white_list is not None and black_list is not None:
        raise ValueError("For custom_mixed_precision, the white_list or black_list cannot be "
                         "provided at the same time, please provide one or the other.")
    _check_dtype(dtype)
    if white_list is not None:
        _list_check(white_list, "white_list")
        return rules.apply_o1(network, dtype, white_list)
    _list_check(black_list, "black_list")
    return rules._OutputTo32(rules.apply_black_list(network, black_list, dtype))


def get_white_list():
    """A copy of the O1 white list (Cells and Primitives)."""
    return AMP_WHITE_LIST.copy()


def get_black_list():
    """A copy of the O2 black list."""
    return AMP_BLACK_LIST.copy()


def _level_config(level):
    fp16 = level in ("O2", "O3")
    return {"keep_batchnorm_fp32": level == "O2",
            "cast_model_type": mstype.float16 if fp16 else mstype.float32,
            "loss_scale_manager": DynamicLossScaleManager() if level == "O2" else None}


def _check_kwargs(kwargs):
    for arg in kwargs:
        if arg not in ("cast_model_type", "keep_batchnorm_fp32", "loss_scale_manager"):
            raise ValueError(f"Unsupported arg '{arg}'")
    if "cast_model_type" in kwargs and kwargs["cast_model_type"] not in (mstype.float16,
                                                                        mstype.float32):
        raise TypeError("For 'cast_model_type', the type of 'cast_model_type' should be in "
                        f"['Float16', 'Float32'], but got {kwargs['cast_model_type']}.")
    if "keep_batchnorm_fp32" in kwargs:
        validator.check_value_type("keep_batchnorm_fp32", kwargs["keep_batchnorm_fp32"], bool)
    manager = kwargs.get("loss_scale_manager")
    if manager:
        validator.check_value_type("loss_scale_manager", manager, [LossScaleManager])


def _check_level(level, boost_level):
    if not isinstance(level, str):
        raise TypeError("The argument `level` must be a string in ['O0', 'O1', 'O2', 'O3', "
                        f"'auto'],but got type {type(level)}.")
    if level not in LEVELS:
        raise ValueError(f"The `level` must be in {list(LEVELS)}, but got {level}.")
    if boost_level not in ("O0", "O1", "O2"):
        raise ValueError(f"The `boost_level` must be in ['O0', 'O1', 'O2'], but got "
                         f"{boost_level}.")
    if boost_level != "O0":
        LOG.warning("boost_level '%s' (MindSpore's boost mode for Ascend) is accepted and not "
                    "applied: training runs as with boost_level='O0'.", boost_level)


class _AmpWithLossCell(nn.Cell):
    """The loss of a low-precision network, computed in float32."""

    def __init__(self, backbone, loss_fn):
        super().__init__(auto_prefix=False)
        self._backbone = backbone
        self._loss_fn = loss_fn
        if backbone.jit_config_dict:
            self.__dict__["_jit_config_dict"] = dict(backbone.jit_config_dict)

    def construct(self, data, label):
        out = self._backbone(data)
        label = rules.cast_float(label, mstype.float32)
        return self._loss_fn(rules.cast_float(out, mstype.float32), label)

    @property
    def backbone_network(self):
        return self._backbone


def _mixed_precision(network, config, level):
    if config["cast_model_type"] == mstype.float16:
        network.to_float(mstype.float16)
        if config["keep_batchnorm_fp32"]:
            rules.keep_batchnorm_fp32(network)
    elif not config["keep_batchnorm_fp32"] and level == "O2":
        network.to_float(mstype.float16)
    elif not (config["cast_model_type"] == mstype.float32 and level in ("O2", "O3")):
        network = auto_mixed_precision(network, level)
    return network


def build_train_network(network, optimizer, loss_fn=None, level="O0", boost_level="O0",
                        **kwargs):
    """The training Cell for ``network`` + ``loss_fn`` + ``optimizer`` at ``level``."""
    validator.check_value_type("optimizer", optimizer, (nn.Optimizer,))
    _check_level(level, boost_level)
    _check_kwargs(kwargs)
    config = dict(_level_config(level), **kwargs)
    network = _mixed_precision(network, config, level)
    if loss_fn:
        validator.check_value_type("loss_fn", loss_fn, nn.Cell)
        if config["cast_model_type"] in (mstype.float16, mstype.bfloat16) or \
                getattr(network, "_amp_level", None) in ("O2", "O3", "auto"):
            network = _AmpWithLossCell(network, loss_fn)
        else:
            network = nn.WithLossCell(network, loss_fn)
    manager = config["loss_scale_manager"]
    if manager is not None:
        update_cell = manager.get_update_cell()
        if update_cell is not None:
            return nn.TrainOneStepWithLossScaleCell(network, optimizer,
                                                    scale_sense=update_cell).set_train()
        return nn.TrainOneStepCell(network, optimizer, manager.get_loss_scale()).set_train()
    return nn.TrainOneStepCell(network, optimizer, None).set_train()
