"""``mindspore.nn.utils.no_init_parameters``: build a network whose Parameters a
checkpoint will fill.

In MindSpore, Parameters created from an ``initializer`` inside this context
stay uninitialized (no memory) until a checkpoint or ``init_parameters_data``
gives them values. msxla's initializers draw their values at once; what a
script sees is the same: inside the context ``Parameter.init_param`` is False,
and after ``load_checkpoint`` every Parameter holds the checkpoint's value.
"""
from contextlib import contextmanager

from msxla.common.parameter import Parameter

@contextmanager
def no_init_parameters():
    """Mark the Parameters built inside the ``with`` block as filled later (``init_param``)."""
    Parameter.init_param = False
    try:
        yield
    finally:
        Parameter.init_param = True
