"""``mindspore.train.callback``: what runs around each stage of ``Model.train``,
``Model.eval`` and ``Model.fit``."""
from msxla.train.callback._callback import Callback, RunContext
from msxla.train.callback._callback import CallbackManager as _CallbackManager  # noqa: F401
from msxla.train.callback._callback import InternalCallbackParam as _InternalCallbackParam  # noqa: F401,E501
from msxla.train.callback._checkpoint import ModelCheckpoint
from msxla.train.callback._checkpoint import CheckpointManager as _CheckpointManager  # noqa: F401
from msxla.train.callback._checkpoint_config import CheckpointConfig
from msxla.train.callback._early_stop import EarlyStopping
from msxla.train.callback._history import History
from msxla.train.callback._lambda_callback import LambdaCallback
from msxla.train.callback._loss_monitor import LossMonitor
from msxla.train.callback._lr_scheduler_callback import LearningRateScheduler
from msxla.train.callback._progress_bar import ProgressBar  # msxla's own
from msxla.train.callback._reduce_lr_on_plateau import ReduceLROnPlateau
from msxla.train.callback._summary_collector import SummaryCollector
from msxla.train.callback._time_monitor import TimeMonitor

__all__ = ["Callback", "LossMonitor", "TimeMonitor", "ModelCheckpoint", "CheckpointConfig",
           "RunContext", "LearningRateScheduler", "History", "LambdaCallback",
           "ReduceLROnPlateau", "EarlyStopping", "ProgressBar", "SummaryCollector"]
