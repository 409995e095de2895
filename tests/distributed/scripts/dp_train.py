"""Data parallelism on N workers against one worker on the global batch (run by msrun /
python -m msxla.launch). Each rank prints ``RESULT {json}``: per scenario, the largest
difference between its parameters after training and those of a stand-alone run of the
same network on the global batch, computed in this process after resetting the context.

Scenarios: TrainOneStepCell in PyNative and GRAPH_MODE (the reducer MindSpore inserts),
SyncBatchNorm, TrainOneStepWithLossScaleCell, Model.train on a sharded GeneratorDataset
(per step and in sink mode).
Every rank starts from different random weights; parameter_broadcast makes them rank 0's.
"""
import json
import sys

import numpy as np

import mindspore as ms
from mindspore import Tensor, context, nn, ops
from mindspore.communication import get_group_size, get_rank, init
import mindspore.dataset as ds

init()
RANK, SIZE = get_rank(), get_group_size()
LOCAL = 4                      # rows per rank and step
STEPS = 3
rng = np.random.default_rng(0)
DATA = rng.standard_normal((STEPS, SIZE * LOCAL, 6)).astype(np.float32)
LABEL = rng.standard_normal((STEPS, SIZE * LOCAL, 2)).astype(np.float32)
out = {"rank": RANK, "size": SIZE}


def mlp(bn=None):
    layers = [nn.Dense(6, 5), nn.ReLU()]
    if bn is not None:
        layers.append(bn(5))
    layers.append(nn.Dense(5, 2))
    return nn.SequentialCell(layers)


def data_parallel():
    context.reset_auto_parallel_context()
    context.set_auto_parallel_context(parallel_mode=context.ParallelMode.DATA_PARALLEL,
                                      gradients_mean=True, parameter_broadcast=True)


def stand_alone():
    context.reset_auto_parallel_context()


def params(net):
    return {p.name: p.asnumpy() for p in net.get_parameters()}


def make(seed, bn=None):
    ms.set_seed(seed)
    return mlp(bn)


def train_steps(net, step_cell, local):
    for s in range(STEPS):
        rows = slice(RANK * LOCAL, (RANK + 1) * LOCAL) if local else slice(None)
        step_cell(Tensor(DATA[s, rows]), Tensor(LABEL[s, rows]))
    return params(net)


def compare(name, dp_params, ref_params):
    diff = max(float(np.abs(dp_params[k] - ref_params[k]).max()) for k in ref_params)
    moved = max(float(np.abs(ref_params[k] - start[k]).max()) for k in ref_params)
    out[name] = {"diff": diff, "moved": moved,
                 "sum": float(sum(v.sum() for v in dp_params.values()))}


def run(name, mode, bn_dp=None, bn_ref=None, scale=None):
    global start
    context.set_context(mode=mode)
    ref = make(0, bn_ref)
    start = params(ref)

    def cell(net):
        loss = nn.WithLossCell(net, nn.MSELoss())
        opt = nn.Momentum(net.trainable_params(), 0.1, 0.9)
        if scale is not None:
            return nn.TrainOneStepWithLossScaleCell(loss, opt, Tensor(scale, ms.float32))
        return nn.TrainOneStepCell(loss, opt)

    stand_alone()
    ref_params = train_steps(ref, cell(ref), local=False)
    data_parallel()
    net = make(100 * RANK, bn_dp)          # ranks other than 0 start elsewhere ...
    from mindspore.parallel._broadcast import broadcast_parameters
    broadcast_parameters(net)              # ... until parameter_broadcast (Model does this)
    step = cell(net)
    out[name + "_reducer"] = type(step.grad_reducer).__name__
    compare(name, train_steps(net, step, local=True), ref_params)


def run_model(name="model", sink=False):
    global start
    context.set_context(mode=ms.GRAPH_MODE)

    def dataset(shards, shard):
        rows = [(DATA[s, i], LABEL[s, i]) for s in range(STEPS) for i in range(SIZE * LOCAL)]
        order = [rows[s * SIZE * LOCAL + r * LOCAL + j] for s in range(STEPS) for r in range(SIZE)
                 for j in range(LOCAL)]
        # shard r of the dataset must hold rank r's rows of every step, in step order
        mine = [order[s * SIZE * LOCAL + shard * LOCAL + j] for s in range(STEPS)
                for j in range(LOCAL)] if shards > 1 else order
        return ds.GeneratorDataset(mine, ["x", "y"], shuffle=False).batch(
            LOCAL if shards > 1 else SIZE * LOCAL)

    stand_alone()
    ref = make(0)
    start = params(ref)
    ms.Model(ref, nn.MSELoss(), nn.Momentum(ref.trainable_params(), 0.1, 0.9)).train(
        1, dataset(1, 0), dataset_sink_mode=sink)
    data_parallel()
    net = make(100 * RANK)
    model = ms.Model(net, nn.MSELoss(), nn.Momentum(net.trainable_params(), 0.1, 0.9))
    model.train(1, dataset(SIZE, RANK), dataset_sink_mode=sink)
    compare(name, params(net), params(ref))


run("pynative", ms.PYNATIVE_MODE)
run("graph", ms.GRAPH_MODE)
run("sync_bn", ms.GRAPH_MODE, nn.SyncBatchNorm, nn.BatchNorm1d)
run_model()
if "--all" in sys.argv:  # the longer variants (the four-worker test runs them)
    run("loss_scale", ms.GRAPH_MODE, scale=1024.0)
    run_model("model_sink", sink=True)
context.reset_auto_parallel_context()  # a device_num that is not the world size is refused
context.set_auto_parallel_context(parallel_mode="data_parallel", device_num=SIZE + 1)
try:
    nn.TrainOneStepCell(nn.WithLossCell(mlp(), nn.MSELoss()),
                        nn.Momentum(mlp().trainable_params(), 0.1, 0.9))
    out["device_num_error"] = None
except ValueError as e:
    out["device_num_error"] = str(e)
print("RESULT", json.dumps(out), flush=True)
