"""Data-parallel building blocks in one process (a world of one rank): where the training
cells insert DistributedGradReducer, its arguments and arithmetic, SyncBatchNorm's
arguments, and the checks that refuse a context the running world cannot honour."""
import numpy as np
import pytest

import msxla as ms
from msxla import Tensor, context, nn


@pytest.fixture(autouse=True)
def _reset():
    context.reset_auto_parallel_context()
    yield
    context.reset_auto_parallel_context()


def _step(cls=nn.TrainOneStepCell, *args):
    net = nn.Dense(3, 2)
    return cls(nn.WithLossCell(net, nn.MSELoss()), nn.Momentum(net.trainable_params(), 0.1, 0.9),
               *args)


@pytest.mark.parametrize("mode,inserted", [("stand_alone", False), ("data_parallel", True),
                                           ("hybrid_parallel", True),
                                           ("semi_auto_parallel", False)])
def test_reducer_is_inserted_where_mindspore_inserts_it(mode, inserted):
    context.set_auto_parallel_context(parallel_mode=mode)
    for step in (_step(), _step(nn.TrainOneStepWithLossScaleCell, Tensor(8.0, ms.float32))):
        assert step.reducer_flag is inserted
        assert isinstance(step.grad_reducer, nn.DistributedGradReducer) is inserted


def test_reducer_sums_casts_and_averages():
    params = nn.Dense(2, 2).trainable_params()
    grads = (Tensor(np.array([[1.0, 2.0], [3.0, 4.0]], np.float16)), Tensor([4.0, 8.0]))
    out = nn.DistributedGradReducer(params, mean=True, degree=4)(grads)
    np.testing.assert_allclose(out[0].asnumpy(), [[0.25, 0.5], [0.75, 1.0]])
    assert out[0].dtype == ms.float16 and out[1].dtype == ms.float32
    same = nn.DistributedGradReducer(params, mean=False)(grads)
    np.testing.assert_array_equal(same[1].asnumpy(), [4.0, 8.0])
    with pytest.raises(ValueError, match="'degree' in DistributedGradReducer should large than 0"):
        nn.DistributedGradReducer(params, degree=0)


def test_mean_follows_gradients_mean():
    params = nn.Dense(2, 2).trainable_params()
    context.set_auto_parallel_context(gradients_mean=True)
    assert nn.DistributedGradReducer(params).mean is True


def test_device_num_must_be_the_world():
    context.set_auto_parallel_context(parallel_mode="data_parallel", device_num=8)
    with pytest.raises(ValueError, match=r"device_num=8\) but the job runs 1 rank"):
        _step()


def test_sync_batch_norm_in_one_rank_is_batch_norm():
    x = Tensor(np.random.default_rng(0).standard_normal((6, 3, 2, 2)).astype(np.float32))
    sync, plain = nn.SyncBatchNorm(3), nn.BatchNorm2d(3)
    np.testing.assert_allclose(sync(x).asnumpy(), plain(x).asnumpy(), rtol=1e-6)
    np.testing.assert_allclose(sync.moving_variance.asnumpy(), plain.moving_variance.asnumpy())
    assert [p.name for p in sync.get_parameters()] == ["mean", "variance", "gamma", "beta"]
    with pytest.raises(ValueError, match="must have 2 dims or 4 dims"):
        sync(Tensor(np.ones((2, 3, 4), np.float32)))
    with pytest.raises(TypeError, match="'process_groups' must be list"):
        nn.SyncBatchNorm(3, process_groups=(0,))
    with pytest.raises(ValueError, match=r"must be in range of \[0, 1\)"):
        nn.SyncBatchNorm(3, process_groups=[[0, 1]])


def test_parameter_broadcast_refused_outside_data_parallel():
    context.set_auto_parallel_context(parallel_mode="semi_auto_parallel",
                                      parameter_broadcast=True)
    net = nn.Dense(3, 2)
    model = ms.Model(net, nn.MSELoss(), nn.Momentum(net.trainable_params(), 0.1, 0.9))
    with pytest.raises(ValueError, match="do not support parameter broadcast"):
        model.train(1, [(np.ones((2, 3), np.float32), np.ones((2, 2), np.float32))])
