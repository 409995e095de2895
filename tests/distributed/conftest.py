import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))


@pytest.fixture
def fresh_comm():
    """The communication state as before ``init()``; restored afterwards."""
    from msxla.communication import _world
    from msxla.communication.management import GlobalComm
    saved = dict(vars(_world.STATE)), {k: getattr(GlobalComm, k) for k in
                                      ("BACKEND", "WORLD_COMM_GROUP", "INITED")}
    _world.STATE.__init__()
    GlobalComm.BACKEND, GlobalComm.WORLD_COMM_GROUP, GlobalComm.INITED = \
        "hccl", "hccl_world_group", False
    yield
    vars(_world.STATE).update(saved[0])
    for k, v in saved[1].items():
        setattr(GlobalComm, k, v)
