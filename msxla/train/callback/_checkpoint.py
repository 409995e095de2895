"""``ModelCheckpoint``: saves the training network's Parameters during training.

File names are MindSpore's: ``<prefix>-<epoch>_<step in epoch>.ckpt``; when a
file with the same prefix is already in the directory the prefix becomes
``<prefix>_<n>`` (one more than the highest such suffix). Before each save the
files of this prefix are listed and, when ``keep_checkpoint_max`` of them
exist, the oldest (by modification time) is removed; with
``keep_checkpoint_per_n_minutes`` only the first file of each window of n
minutes is kept. The last step is saved again at the end of training.
With ``exception_save`` a run that raises leaves
``<prefix>-<epoch>_<step>_breakpoint.ckpt`` (see ``save_breakpoint``).

Every file is written atomically (``save_checkpoint`` writes a temporary file
and renames it), so a crash never leaves a partial checkpoint. MindSpore's
GRAPH_MODE also writes ``<prefix>-graph.meta`` (its MindIR graph); msxla has
no MindIR, so that file is not written.
"""
from __future__ import annotations

import logging
import os
import stat
import time

from msxla.train.callback._callback import Callback
from msxla.train.callback._checkpoint_config import CheckpointConfig
from msxla.train.serialization import _wait_async_save, save_checkpoint

__all__ = ["ModelCheckpoint"]
LOG = logging.getLogger("msxla")
BREAKPOINT = "_breakpoint.ckpt"


def make_directory(path):
    """The directory's real path, created if missing."""
    if not isinstance(path, str) or not path.strip():
        raise ValueError(f"The 'directory' must be a non-empty string, but got {path!r}.")
    path = os.path.realpath(path)
    os.makedirs(path, exist_ok=True)
    return path


def unique_prefix(directory, prefix, exception=False):
    """``prefix``, or ``prefix_<n>`` when files of that prefix exist (MindSpore's rule)."""
    if callable(prefix) or callable(directory):
        return prefix
    suffix = 0
    for name in os.listdir(directory):
        breakpoint_file = name.endswith(BREAKPOINT)
        if exception != breakpoint_file:
            continue
        if not exception and os.path.splitext(name)[1] not in (".ckpt", ".safetensors"):
            continue
        if not name.startswith(prefix) or len(name) <= len(prefix) or \
                name[len(prefix)].isalpha():
            continue
        rest = name[len(prefix):]
        dash = rest.find("-")
        if dash == 0:
            suffix = max(suffix, 1)
        elif dash != -1 and rest[1:dash].isdigit():
            suffix = max(suffix, int(rest[1:dash]) + 1)
    return f"{prefix}_{suffix}" if suffix else prefix


class CheckpointManager:
    """The checkpoint files of one prefix in one directory."""

    def __init__(self, format="ckpt"):  # noqa: A002
        self._files = []
        self._format = format

    @property
    def ckpoint_filelist(self):
        return self._files

    @property
    def ckpoint_num(self):
        return len(self._files)

    def update_ckpoint_filelist(self, directory, prefix):
        ext = f".{self._format}"
        self._files = []
        for name in os.listdir(directory):
            if os.path.splitext(name)[-1] == ext and name.startswith(prefix + "-"):
                middle = name[len(prefix):-len(ext)]
                if not any(c.isalpha() for c in middle):
                    self._files.append(os.path.join(directory, name))

    def remove_ckpoint_file(self, file_name):
        try:
            os.chmod(file_name, stat.S_IWRITE)
            os.remove(file_name)
            self._files.remove(file_name)
        except (OSError, ValueError) as err:
            LOG.warning("%s, failed to remove the older ckpt file %s.", type(err).__name__,
                        file_name)

    def remove_oldest_ckpoint_file(self):
        self.remove_ckpoint_file(sorted(self._files, key=os.path.getmtime)[0])

    def keep_one_ckpoint_per_minutes(self, minutes, cur_time):
        recent = [f for f in self._files if cur_time - os.path.getmtime(f) < 60 * minutes]
        oldest = min(recent, key=os.path.getmtime, default=None)
        for name in recent:
            if name != oldest:
                self.remove_ckpoint_file(name)


class ModelCheckpoint(Callback):
    """Save checkpoints during training.

    Args:
        prefix (Union[str, Callable]): file name prefix (or ``cb_params -> str``). Default "CKP".
        directory (Union[str, Callable]): where to save (default: the current directory).
        config (CheckpointConfig): the checkpoint policy.
    """

    def __init__(self, prefix="CKP", directory=None, config=None):
        super().__init__()
        self._latest_ckpt_file_name = ""
        self._last_time = self._last_time_for_keep = time.time()
        self._last_triggered_step = 0
        self._prefix_func = prefix if callable(prefix) else None
        self._directory_func = directory if callable(directory) else None
        if not callable(prefix) and (not isinstance(prefix, str) or "/" in prefix):
            raise ValueError("For 'ModelCheckpoint', the argument 'prefix' for checkpoint file "
                             "name is invalid, it must be callable or string that does not "
                             f"contain '/', but got {prefix}.")
        self._prefix = self._exception_prefix = prefix
        if directory is None:
            self._directory = os.getcwd()
        elif not callable(directory):
            self._directory = make_directory(directory)
        if config is None:
            config = CheckpointConfig()
        elif not isinstance(config, CheckpointConfig):
            raise TypeError("For 'ModelCheckpoint', the type of argument 'config' should be "
                            f"'CheckpointConfig', but got {type(config)}.")
        self._config = config
        self._manager = CheckpointManager(config.format)
        if not callable(directory) and not callable(prefix):
            self._prefix = unique_prefix(self._directory, self._prefix)
        self._append_dict = config.append_dict or {}
        self._append_epoch_num = self._append_dict.get("epoch_num", 0)
        self._append_step_num = self._append_dict.get("step_num", 0)

    def step_end(self, run_context):
        cb_params = run_context.original_args()
        if self._prefix_func is not None:
            self._prefix = self._prefix_func(cb_params)
            if not isinstance(self._prefix, str) or "/" in self._prefix:
                raise ValueError("For 'ModelCheckpoint', the argument 'prefix' for checkpoint file "
                                 "name is callable, it must return a string that does not contain "
                                 f"'/', but got {self._prefix}.")
        if self._directory_func is not None:
            self._directory = make_directory(self._directory_func(cb_params))
        self._save_ckpt(cb_params)

    def end(self, run_context):
        self._save_ckpt(run_context.original_args(), force_to_save=True)
        if self._config.async_save:
            _wait_async_save()

    def _should_save(self, cb_params, force):
        steps = self._config.save_checkpoint_steps
        if steps and steps > 0:
            return force or cb_params.cur_step_num >= self._last_triggered_step + steps
        seconds = self._config.save_checkpoint_seconds
        if seconds and seconds > 0:
            now = time.time()
            if now - self._last_time > seconds or force:
                self._last_time = now
                return True
        return False

    def _save_ckpt(self, cb_params, force_to_save=False):
        if cb_params.cur_step_num == self._last_triggered_step:
            return
        if not self._should_save(cb_params, force_to_save):
            return
        config = self._config
        if config.async_save:  # the previous file must exist before the rotation looks
            _wait_async_save()
        step_in_epoch = int((cb_params.cur_step_num - 1) % cb_params.batch_num + 1)
        if self._prefix_func is not None:
            name = f"{self._prefix}.{config.format}"
        else:
            name = f"{self._prefix}-{cb_params.cur_epoch_num}_{step_in_epoch}.{config.format}"
        self._manager.update_ckpoint_filelist(self._directory, self._prefix)
        keep_max, minutes = config.keep_checkpoint_max, config.keep_checkpoint_per_n_minutes
        if keep_max and 0 < keep_max <= self._manager.ckpoint_num:
            self._manager.remove_oldest_ckpoint_file()
        elif minutes and minutes > 0:
            now = time.time()
            if now - self._last_time_for_keep < minutes * 60:
                self._manager.keep_one_ckpoint_per_minutes(minutes, now)
        path = os.path.join(self._directory, name)
        self._last_time_for_keep = time.time()
        self._last_triggered_step = cb_params.cur_step_num
        self._update_append_dict(cb_params.cur_epoch_num, cb_params.cur_step_num)
        network = config.saved_network if config.saved_network is not None \
            else cb_params.train_network
        save_checkpoint(network, path, config.integrated_save, config.async_save,
                        self._append_dict or None, config.enc_key, config.enc_mode,
                        crc_check=config.crc_check, format=config.format)
        self._latest_ckpt_file_name = path

    def _update_append_dict(self, epoch_num, step_num):
        if "epoch_num" in self._append_dict:
            self._append_dict["epoch_num"] = self._append_epoch_num + epoch_num
        if "step_num" in self._append_dict:
            self._append_dict["step_num"] = self._append_step_num + step_num

    def save_breakpoint(self, network, epoch, step):
        """``exception_save``: the network as ``<prefix>-<epoch>_<step>_breakpoint.ckpt``."""
        prefix = unique_prefix(self._directory, self._exception_prefix, exception=True)
        path = os.path.join(self._directory, f"{prefix}-{epoch}_{step}{BREAKPOINT}")
        self._update_append_dict(epoch, step)
        save_checkpoint(network, path, self._config.integrated_save, self._config.async_save,
                        self._append_dict or None, self._config.enc_key, self._config.enc_mode)
        return path

    @property
    def latest_ckpt_file_name(self):
        """The path of the newest checkpoint file written."""
        return self._latest_ckpt_file_name

    @property
    def _get_save_checkpoint_steps(self):
        return self._config.save_checkpoint_steps

    @property
    def _get_last_trigger_step(self):
        return self._last_triggered_step
