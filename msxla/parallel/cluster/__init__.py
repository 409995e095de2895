"""``mindspore.parallel.cluster``: the ``msrun`` launcher (``msxla.launch``)."""
