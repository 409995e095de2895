import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "jit"))

import pytest  # noqa: E402

from modes import any_modes, available_modes  # noqa: E402

MODES = available_modes()


@pytest.fixture(params=MODES)
def mode(request):
    """PyNative and every jit capture mode x O0/O1 of this build."""
    return request.param


@pytest.fixture(params=[m for m in MODES if m != "pynative"])
def jit_mode(request):
    """Every jit capture mode x O0/O1 of this build."""
    return request.param


@pytest.fixture(params=any_modes())
def any_mode(request):
    """Every jit capture mode x O0/O1, and GRAPH_MODE at O0/O1 (O1 marked slow)."""
    return request.param
