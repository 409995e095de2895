"""``mindspore.train``: checkpoint saving and loading (MindSpore's .ckpt format)."""
from msxla.train.serialization import load_checkpoint, load_param_into_net, save_checkpoint

__all__ = ["save_checkpoint", "load_checkpoint", "load_param_into_net"]
