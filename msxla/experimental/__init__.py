"""``mindspore.experimental``: MindSpore's torch-style APIs (``experimental.optim``)."""
