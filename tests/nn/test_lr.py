"""Learning-rate schedules (Cells) and per-step lists against MindSpore 2.10's values."""
import json
import os
import sys

import numpy as np
import pytest

import msxla as ms
from msxla import nn

GOLDEN = os.path.join(os.path.dirname(__file__), "..", "golden")
sys.path.insert(0, GOLDEN)

import make_optim  # noqa: E402

with open(os.path.join(GOLDEN, "optim.json")) as fh:
    DATA = json.load(fh)


@pytest.mark.parametrize("name", sorted(make_optim.SCHEDULES))
def test_schedule_matches_mindspore(name):
    values = make_optim.schedule_values(ms, make_optim.SCHEDULES[name])
    np.testing.assert_allclose(values, DATA["schedules"][name], rtol=2e-6)


@pytest.mark.parametrize("name", sorted(make_optim.DYNAMIC_LR))
def test_dynamic_lr_matches_mindspore(name):
    values = eval(make_optim.DYNAMIC_LR[name], {"nn": nn})  # noqa: S307 - fixed strings
    assert isinstance(values, list)
    np.testing.assert_allclose(values, DATA["dynamic_lr"][name], rtol=1e-12)


def test_schedule_output_is_float32_and_keeps_step_shape():
    sched = nn.ExponentialDecayLR(0.1, 0.9, 2)
    out = sched(ms.Tensor([3], ms.int32))
    assert out.dtype == ms.float32 and out.shape == (1,)
    scalar = sched(ms.Tensor(3, ms.int32))
    assert scalar.shape == ()
    np.testing.assert_allclose(scalar.asnumpy(), 0.1 * 0.9 ** 1.5, rtol=1e-6)


def test_schedules_are_exported_like_mindspore():
    assert nn.learning_rate_schedule.LearningRateSchedule is not None
    assert not hasattr(nn, "LearningRateSchedule")
    for name in nn.learning_rate_schedule.__all__ + nn.dynamic_lr.__all__:
        assert getattr(nn, name) is getattr(nn.learning_rate_schedule, name, None) or \
            getattr(nn, name) is getattr(nn.dynamic_lr, name)


def test_schedule_runs_under_jit():
    sched = nn.CosineDecayLR(0.01, 0.1, 5)
    step = ms.jit(lambda s: sched(s), capture_mode="trace")
    for s in range(7):
        t = ms.Tensor([s], ms.int32)
        np.testing.assert_allclose(step(t).asnumpy(), sched(t).asnumpy(), rtol=1e-6)
