"""Semi-auto parallelism against a stand-alone run (one process on N devices, or one process
per rank through the launcher). Prints ``RESULT {json}``: for each case the largest
difference between the sharded run and the stand-alone run, and what XLA was given.

Cases: a MatMul / BiasAdd / ReLU network with Primitive.shard strategies trained by
TrainOneStepCell in GRAPH_MODE; the same with Layout strategies; Cell.shard and
mindspore.shard with a parameter_plan; AUTO_PARALLEL (propagation from the strategies).
"""
import json
import sys

import numpy as np

import mindspore as ms
from mindspore import Layout, Parameter, Tensor, context, nn, ops
from mindspore.communication import get_rank, init

init()
DEVICES = 8 if "--devices=8" in sys.argv else 2
FULL = "--full-batch" in sys.argv
rng = np.random.default_rng(0)
X = rng.standard_normal((4, 16, 8)).astype(np.float32)
Y = rng.standard_normal((4, 16, 4)).astype(np.float32)
W1 = rng.standard_normal((8, 8)).astype(np.float32) * 0.3
W2 = rng.standard_normal((8, 4)).astype(np.float32) * 0.3
out = {"rank": get_rank(), "devices": len(__import__("jax").devices())}
context.set_context(mode=ms.GRAPH_MODE)


class Net(nn.Cell):
    def __init__(self, strategies=None, layouts=False):
        super().__init__()
        self.w1 = Parameter(Tensor(W1), name="w1")
        self.b1 = Parameter(Tensor(np.zeros(8, np.float32)), name="b1")
        self.w2 = Parameter(Tensor(W2), name="w2")
        self.mm1, self.add, self.relu, self.mm2 = ops.MatMul(), ops.BiasAdd(), ops.ReLU(), \
            ops.MatMul()
        if strategies == "tuple":
            d = DEVICES
            self.mm1.shard(((d // 2, 2), (2, 1)))
            self.add.shard(((d, 1), (1,)))
            self.relu.shard(((d // 2, 2),))
            self.mm2.shard(((1, 2), (2, 1)), out_strategy=((2, 1),))
        elif strategies == "layout":
            lay = Layout((DEVICES // 2, 2), ("dp", "mp"))
            self.mm1.shard((lay("dp", "mp"), lay("mp", "None")))
            self.mm2.shard((lay("dp", "None"), lay("None", "mp")))

    def construct(self, x):
        h = self.relu(self.add(self.mm1(x, self.w1), self.b1))
        return self.mm2(h, self.w2)


def train(net, steps=4):
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()),
                               nn.Momentum(net.trainable_params(), 0.05, 0.9))
    losses = [float(step(Tensor(x), Tensor(y)).asnumpy()) for x, y in zip(X, Y)][:steps]
    return losses, {p.name: p.asnumpy() for p in net.get_parameters()}, step


def compare(name, make, mode=ms.ParallelMode.SEMI_AUTO_PARALLEL):
    context.reset_auto_parallel_context()
    ref = make()
    ref_losses, ref_params, _ = train(ref)
    want = ref(Tensor(X[0]))
    context.set_auto_parallel_context(parallel_mode=mode, full_batch=FULL)
    net = make()
    losses, params, step = train(net)
    pred = net(Tensor(X[0]))
    context.reset_auto_parallel_context()
    out[name] = {
        "loss_diff": max(abs(a - b) for a, b in zip(losses, ref_losses)),
        "param_diff": max(float(np.abs(params[k] - ref_params[k]).max()) for k in ref_params),
        "pred_diff": float(np.abs(pred.asnumpy() - want.asnumpy()).max()),
        "moved": float(np.abs(ref_params["w1"] - W1).max()),
        "w1_spec": str(getattr(net.w1, "sharding", None) and net.w1.sharding.spec),
    }


compare("tuple", lambda: Net("tuple"))
compare("layout", lambda: Net("layout"))


def cell_shard():
    net = Net()
    return ms.shard(net, in_strategy=((DEVICES, 1),), out_strategy=((DEVICES, 1),),
                    parameter_plan={"w1": (1, 2)})


compare("cell_shard", cell_shard)
compare("auto", lambda: Net("tuple"), ms.ParallelMode.AUTO_PARALLEL)



def checkpoints():
    """Per-rank slices, the strategy file, merging and re-slicing. The ranks' slices are
    where XLA put the data (each device's shard of the sharded Parameters)."""
    import os
    context.reset_auto_parallel_context()
    context.set_auto_parallel_context(parallel_mode=ms.ParallelMode.SEMI_AUTO_PARALLEL,
                                      strategy_ckpt_config={"save_file": "strategy.json"},
                                      full_batch=FULL)
    net = Net("tuple")
    train(net, steps=2)
    whole = {p.name: p.asnumpy() for p in net.get_parameters()}
    rank = get_rank()
    ms.save_checkpoint(net, f"slices/rank_{rank}/net.ckpt", integrated_save=False)
    ms.save_checkpoint(net, "whole.ckpt")
    res = {"whole_ok": all(np.array_equal(ms.load_checkpoint("whole.ckpt")[k].asnumpy(), v)
                           for k, v in whole.items())}
    strategy = ms.build_searched_strategy("strategy.json")
    res["w1_layout"] = [list(strategy["w1"].dev_matrix[0].dim),
                        list(strategy["w1"].tensor_map[0].dim)]
    if DEVICES == 8:  # one process: write every device's shard as that rank's file
        mine = ms.load_checkpoint(f"slices/rank_{rank}/net.ckpt")["w1"].asnumpy()
        shards = {s.device.id: np.asarray(s.data) for s in net.w1._data.addressable_shards}
        res["slice_is_device_0s"] = bool(np.array_equal(mine, shards[0]))
        for r, dev in enumerate(__import__("jax").devices()):
            params = [{"name": p.name, "data": Tensor(np.asarray(next(
                s.data for s in p._data.addressable_shards if s.device == dev)))}
                for p in net.get_parameters()]
            ms.save_checkpoint(params, f"slices/rank_{r}/net.ckpt")
    else:
        from mindspore.communication.comm_func import barrier
        barrier()
    files = [f"slices/rank_{r}/net.ckpt" for r in range(DEVICES)]
    fresh = Net()
    ms.load_distributed_checkpoint(fresh, files, train_strategy_filename="strategy.json")
    res["load_distributed"] = max(float(np.abs(p.asnumpy() - whole[p.name]).max())
                                  for p in fresh.get_parameters())
    if rank == 0:
        ms.transform_checkpoints("slices", "merged", "net", "strategy.json", None)
        back = ms.load_checkpoint("merged/rank_0/net0.ckpt")
        res["transform_whole"] = max(float(np.abs(back[k].asnumpy() - v).max())
                                     for k, v in whole.items())
        res["files"] = sorted(os.listdir("merged"))
        two = {n: {"dev_matrix": [2], "tensor_map": [0] + [-1] * (v.ndim - 1) if n == "w1"
                   else [-1] * v.ndim} for n, v in whole.items()}
        with open("two.json", "w") as f:
            json.dump({"parallel_layout_item": two}, f)
        ms.transform_checkpoints("slices", "resliced", "net", "strategy.json", "two.json")
        halves = [ms.load_checkpoint(f"resliced/rank_{r}/net{r}.ckpt")["w1"].asnumpy()
                  for r in range(2)]
        res["transform_two"] = bool(np.array_equal(halves[0], whole["w1"][:4]) and
                                    np.array_equal(halves[1], whole["w1"][4:]))
        ms.parallel.transform_checkpoint_by_rank(
            1, {r: files[r] for r in range(DEVICES)}, "by_rank.ckpt", "strategy.json", "two.json")
        res["by_rank"] = bool(np.array_equal(ms.load_checkpoint("by_rank.ckpt")["w1"].asnumpy(),
                                             whole["w1"][4:]))
    pieces = [ms.Parameter(Tensor(X[0][i * 4:(i + 1) * 4]), "x") for i in range(4)]
    res["merge_dim0"] = bool(np.array_equal(ms.merge_sliced_parameter(pieces).asnumpy(), X[0]))
    out["checkpoints"] = res


checkpoints()
context.reset_auto_parallel_context()
context.set_auto_parallel_context(parallel_mode=ms.ParallelMode.SEMI_AUTO_PARALLEL)
try:
    bad = ops.MatMul().shard(((3, 1), (1, 1)))
    bad(Tensor(X[0]), Tensor(W1))
    out["bad_strategy"] = None
except ValueError as e:
    out["bad_strategy"] = str(e)
print("RESULT", json.dumps(out), flush=True)
