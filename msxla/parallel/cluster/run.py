"""``mindspore.parallel.cluster.run``: msrun's entry point, on msxla (``msxla.launch``)."""
from msxla.launch import get_args, main, run  # noqa: F401

__all__ = ["get_args", "main", "run"]
