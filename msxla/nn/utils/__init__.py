"""``mindspore.nn.utils``: helpers for building networks."""
from msxla.nn.utils.init import no_init_parameters

__all__ = ["no_init_parameters"]
