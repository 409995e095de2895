import pytest

from modes import available_modes

MODES = available_modes()


@pytest.fixture(params=MODES)
def mode(request):
    return request.param


@pytest.fixture(params=[m for m in MODES if m != "pynative"])
def jit_mode(request):
    return request.param
