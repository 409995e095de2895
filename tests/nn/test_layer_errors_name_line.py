"""A layer called with an input it cannot take raises MindSpore's exception with
the user's file and line, in PyNative, every capture mode and GRAPH_MODE."""
import numpy as np
import pytest

from msxla import Tensor, nn
from modes import ANY_MODES, make


@pytest.mark.parametrize("mode", ["pynative"] + ANY_MODES)
def test_dense_with_the_wrong_input_width_names_the_callers_line(mode):
    net = nn.Dense(4, 3)

    def forward(x):
        return net(x) * 2  # the line the error names

    run = make(forward, mode)
    with pytest.raises(ValueError) as info:
        run(Tensor(np.ones((2, 5), np.float32)))
    text = str(info.value)
    assert "'x1_col': 5 and 'x2_row': 4" in text
    line = forward.__code__.co_firstlineno + 1
    assert f'{__file__}", line {line}' in text, text
    assert "in_channels (4)" in text
