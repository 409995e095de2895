"""``ProgressBar``: a progress bar of each training epoch, for interactive use.

Not a MindSpore callback (msxla's own): a ``tqdm`` bar per epoch that advances
with the steps (by ``sink_size`` per sink in sink mode) and shows the latest
loss, and the evaluation metrics of ``Model.fit`` when an epoch ends.
"""
from __future__ import annotations

from msxla.train.callback._callback import Callback, handle_loss

__all__ = ["ProgressBar"]


class ProgressBar(Callback):
    """A ``tqdm`` progress bar per training epoch.

    Args:
        file: where the bar is drawn (default: stderr).
        leave (bool): keep each epoch's finished bar on screen. Default True.
    """

    def __init__(self, file=None, leave=True):
        super().__init__()
        try:
            import tqdm  # noqa: F401 - fail at construction, not mid-training
        except ImportError as err:
            raise ImportError("ProgressBar draws with tqdm: pip install tqdm") from err
        self.file, self.leave = file, leave
        self._bar = None
        self._last_step = 0

    def on_train_epoch_begin(self, run_context):
        from tqdm.auto import tqdm
        cb_params = run_context.original_args()
        self._bar = tqdm(total=cb_params.batch_num, file=self.file, leave=self.leave,
                         desc=f"epoch {cb_params.cur_epoch_num}/{cb_params.epoch_num}",
                         unit="step")
        self._last_step = cb_params.cur_step_num

    def on_train_step_end(self, run_context):
        cb_params = run_context.original_args()
        if self._bar is None:
            return
        self._bar.update(cb_params.cur_step_num - self._last_step)
        self._last_step = cb_params.cur_step_num
        loss = handle_loss(cb_params.net_outputs)
        if hasattr(loss, "asnumpy"):
            loss = float(loss.asnumpy().mean())
        self._bar.set_postfix(loss=f"{loss:.4f}")

    def on_train_epoch_end(self, run_context):
        if self._bar is None:
            return
        metrics = run_context.original_args().get("metrics")
        if metrics:
            self._bar.set_postfix({k: f"{v:.4f}" if isinstance(v, float) else v
                                   for k, v in metrics.items()})
        self._bar.close()
        self._bar = None

    def on_train_end(self, run_context):
        if self._bar is not None:
            self._bar.close()
            self._bar = None
