"""``mindspore.train``: ``Model``, callbacks, metrics, loss scaling, checkpoints."""
from msxla.train import callback, metrics  # noqa: F401
from msxla.train.amp import build_train_network
from msxla.train.callback import *  # noqa: F401,F403
from msxla.train.callback import __all__ as _callback_all
from msxla.train.data_sink import data_sink
from msxla.train.dataset_helper import DatasetHelper, connect_network_with_dataset
from msxla.train.loss_scale_manager import (DynamicLossScaleManager, FixedLossScaleManager,
                                            LossScaleManager)
from msxla.train.metrics import *  # noqa: F401,F403
from msxla.train.metrics import __all__ as _metrics_all
from msxla.train.model import Model
from msxla.train.serialization import load_checkpoint, load_param_into_net, save_checkpoint
from msxla.train.summary import SummaryRecord

__all__ = ["Model", "DatasetHelper", "connect_network_with_dataset", "build_train_network",
           "LossScaleManager", "FixedLossScaleManager", "DynamicLossScaleManager",
           "save_checkpoint", "load_checkpoint", "load_param_into_net", "data_sink", "SummaryRecord"]
__all__ += list(_callback_all) + list(_metrics_all)
