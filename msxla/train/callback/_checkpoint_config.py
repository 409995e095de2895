"""``CheckpointConfig``: when ``ModelCheckpoint`` saves and how many files it keeps.

Save every ``save_checkpoint_steps`` steps (or, with steps 0, every
``save_checkpoint_seconds``); keep the newest ``keep_checkpoint_max`` files
(or, with max 0, one file per ``keep_checkpoint_per_n_minutes``). A steps
setting disables the seconds one and a max setting the minutes one, as in
MindSpore. ``append_info`` adds ``"epoch_num"``, ``"step_num"`` and one dict of
extra entries to every file; ``exception_save`` writes a ``_breakpoint.ckpt``
when training raises.
"""
from __future__ import annotations

from msxla.common.parameter import Parameter
from msxla.common.tensor import Tensor
from msxla.nn import _checkparam as validator

__all__ = ["CheckpointConfig"]
_INFO = ["epoch_num", "step_num"]


def check_async_save(async_save):
    if not isinstance(async_save, (bool, str)):
        raise TypeError("For 'save_checkpoint', the parameter 'async_save' must be bool or str, "
                        f"but got {type(async_save)}.")
    if isinstance(async_save, str) and async_save not in ("process", "thread"):
        raise ValueError("For 'save_checkpoint', the argument 'async_save' can only be 'process' "
                         f"or 'thread',but got {async_save}.")
    return async_save


def _non_negative(value):
    return value if value is None else validator.check_non_negative_int(value)


class CheckpointConfig:
    """The checkpoint policy of ``ModelCheckpoint`` (see the module doc)."""

    def __init__(self, save_checkpoint_steps=1, save_checkpoint_seconds=0, keep_checkpoint_max=5,
                 keep_checkpoint_per_n_minutes=0, integrated_save=True, async_save=False,
                 saved_network=None, append_info=None, enc_key=None, enc_mode="AES-GCM",
                 exception_save=False, crc_check=False, remove_redundancy=False,
                 format="ckpt", **kwargs):  # noqa: A002 - MindSpore's name
        from msxla.nn.cell import Cell
        steps = _non_negative(save_checkpoint_steps)
        seconds = _non_negative(save_checkpoint_seconds)
        keep_max = _non_negative(keep_checkpoint_max)
        minutes = _non_negative(keep_checkpoint_per_n_minutes)
        if saved_network is not None and not isinstance(saved_network, Cell):
            raise TypeError("For 'CheckpointConfig', the type of 'saved_network' must be None or "
                            f"Cell, but got {str(type(saved_network))}.")
        if not steps and not seconds and not keep_max and not minutes:
            raise ValueError("For 'CheckpointConfig', the input arguments 'save_checkpoint_steps', "
                             "'save_checkpoint_seconds', 'keep_checkpoint_max' and "
                             "'keep_checkpoint_per_n_minutes' can't be all None or 0.")
        self.exception_save = validator.check_bool(exception_save)
        self._save_checkpoint_steps = steps
        self._save_checkpoint_seconds = None if steps and steps > 0 else seconds
        self._keep_checkpoint_max = keep_max
        self._keep_checkpoint_per_n_minutes = minutes
        if keep_max and keep_max > 0:
            self._keep_checkpoint_per_n_minutes = None
        elif not minutes:
            self._keep_checkpoint_max = 1
        self._integrated_save = validator.check_bool(integrated_save)
        self._async_save = check_async_save(async_save)
        self._saved_network = saved_network
        self._append_dict = self._handle_append_info(append_info)
        self._enc_key = validator.check_isinstance("enc_key", enc_key, (type(None), bytes))
        self._enc_mode = validator.check_isinstance("enc_mode", enc_mode, str)
        self._crc_check = validator.check_isinstance("crc_check", crc_check, bool)
        self._format = validator.check_isinstance("format", format, str)
        self._map_param_inc = kwargs.get("incremental", False)
        self.enable_redundance = kwargs.get("enable_redundance", False)
        self.remove_redundancy = validator.check_isinstance("remove_redundancy",
                                                            remove_redundancy, bool)
        if format == "safetensors" and (enc_key is not None or enc_mode != "AES-GCM" or crc_check
                                        or exception_save or self._map_param_inc):
            raise ValueError("For 'save_checkpoint', when format is 'safetensors', other param "
                             "must be default.")

    save_checkpoint_steps = property(lambda self: self._save_checkpoint_steps)
    save_checkpoint_seconds = property(lambda self: self._save_checkpoint_seconds)
    keep_checkpoint_max = property(lambda self: self._keep_checkpoint_max)
    keep_checkpoint_per_n_minutes = property(lambda self: self._keep_checkpoint_per_n_minutes)
    integrated_save = property(lambda self: self._integrated_save)
    async_save = property(lambda self: self._async_save)
    saved_network = property(lambda self: self._saved_network)
    enc_key = property(lambda self: self._enc_key)
    enc_mode = property(lambda self: self._enc_mode)
    crc_check = property(lambda self: self._crc_check)
    format = property(lambda self: self._format)  # noqa: A003 - MindSpore's name
    append_dict = property(lambda self: self._append_dict)
    map_param_inc = property(lambda self: self._map_param_inc)

    def get_checkpoint_policy(self):
        """The policy as a dict."""
        return {"save_checkpoint_steps": self.save_checkpoint_steps,
                "save_checkpoint_seconds": self.save_checkpoint_seconds,
                "keep_checkpoint_max": self.keep_checkpoint_max,
                "keep_checkpoint_per_n_minutes": self.keep_checkpoint_per_n_minutes,
                "saved_network": self.saved_network}

    @staticmethod
    def _handle_append_info(append_info):
        if append_info is None or append_info == []:
            return None
        if not isinstance(append_info, list):
            raise TypeError("For 'CheckpointConfig', the type of 'append_info' must be list,"
                            f"but got {str(type(append_info))}.")
        out = {key: 0 for key in _INFO if key in append_info}
        dicts = 0
        for element in append_info:
            if not isinstance(element, (str, dict)):
                raise TypeError("For 'CheckpointConfig', the type of 'append_info' element must be "
                                f"str or dict,but got {str(type(element))}.")
            if isinstance(element, str) and element not in _INFO:
                raise ValueError("For 'CheckpointConfig', the value of element in the argument "
                                 f"'append_info' must be in {_INFO}, but got {element}.")
            if isinstance(element, dict):
                dicts += 1
                if dicts > 1:
                    raise TypeError("For 'CheckpointConfig', the element of 'append_info' must has "
                                    "only one dict, but got {dict_num}")
                for key, value in element.items():
                    if not isinstance(key, str) or not isinstance(
                            value, (int, float, bool, str, Parameter, Tensor)):
                        raise TypeError("For 'CheckpointConfig', the key type of the dict "
                                        "'append_info' must be string, the value type must be "
                                        f"int or float or bool, but got key type {type(key)}, "
                                        f"value type {type(value)}")
                    out[key] = value
        return out
