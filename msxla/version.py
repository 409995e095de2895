"""``mindspore.version``: the version string (``mindspore.version.__version__``, also
``mindspore.__version__``)."""

__version__ = "0.1.0"
