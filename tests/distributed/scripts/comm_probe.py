"""Run under msrun (MindSpore 2.10) or python -m msxla.launch: each rank prints one
``RESULT {json}`` line with its communication facts and collective results.

Each entry is a value, or ``"ERR <type>: <first line>"`` when the call raised.
"""
import json

import numpy as np

import mindspore as ms
from mindspore import Tensor, nn, ops
from mindspore.communication import comm_func as cf
from mindspore.communication import (GlobalComm, create_group, get_comm_name, get_group_rank_from_world_rank,
                                     get_group_size, get_local_rank, get_local_rank_size,
                                     get_process_group_ranks, get_rank,
                                     get_world_rank_from_group_rank, init)

init()
r = get_rank()
out = {"rank": r, "size": get_group_size(), "local": [get_local_rank(), get_local_rank_size()],
       "backend": GlobalComm.BACKEND, "world": GlobalComm.WORLD_COMM_GROUP}


def rec(name, fn):
    try:
        v = fn()
        if isinstance(v, (tuple, list)):
            v = [x.asnumpy().tolist() if hasattr(x, "asnumpy") else x for x in v]
        elif hasattr(v, "asnumpy"):
            v = v.asnumpy().tolist()
        out[name] = v
    except Exception as e:  # recorded, compared by the test
        out[name] = "ERR " + type(e).__name__ + ": " + str(e).split("\n")[0]


x = Tensor(np.arange(4, dtype=np.float32).reshape(2, 2) + 10 * r)
rec("comm_name", get_comm_name)
rec("ranks", get_process_group_ranks)
rec("create", lambda: create_group("g10", [1, 0]))
rec("g_rank", lambda: get_rank("g10"))
rec("g_size", lambda: get_group_size("g10"))
rec("w2g", lambda: get_group_rank_from_world_rank(1, "g10"))
rec("g2w", lambda: get_world_rank_from_group_rank("g10", 0))
rec("allreduce_sum", lambda: ops.AllReduce()(x))
rec("allreduce_g10", lambda: ops.AllReduce(group="g10")(x))
rec("allgather", lambda: ops.AllGather()(x))
rec("allgather_g10", lambda: ops.AllGather(group="g10")(x))
rec("broadcast", lambda: ops.Broadcast(1)((x,)))
for op in ("max", "min", "prod", "avg"):
    rec(f"allreduce_{op}", lambda: ops.AllReduce(op)(x))
rec("reducescatter", lambda: ops.ReduceScatter()(x))
rec("reducescatter_max", lambda: ops.ReduceScatter("max")(x))
rec("alltoall", lambda: ops.AlltoAll(2, 1, 0)(x))
rec("cf_all_reduce", lambda: cf.all_reduce(x)[0])
rec("cf_all_gather", lambda: cf.all_gather_into_tensor(x)[0])
rec("cf_reduce_scatter", lambda: cf.reduce_scatter_tensor(x)[0])
rec("cf_broadcast", lambda: cf.broadcast(x, 1))
rec("cf_barrier", cf.barrier)
for capture in ("ast", "bytecode", "trace"):
    rec(f"jit_{capture}", lambda: ms.jit(lambda a: ops.AllReduce()(a * 2) + 1,
                                         capture_mode=capture)(x))
if r == 0:
    rec("cf_send", lambda: cf.send(x * 2, dst=1))
else:
    rec("cf_recv", lambda: cf.recv(Tensor(np.zeros((2, 2), np.float32)), src=0))


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.ar = ops.AllReduce()
        self.ag = ops.AllGather()

    def construct(self, a):
        return (self.ar(a * a) * (r + 1)).sum() + (self.ag(a) * 3).sum()


class Grads(nn.Cell):
    """Every collective's gradient at once (each term scaled by the rank)."""

    def __init__(self):
        super().__init__()
        self.ar = ops.AllReduce()
        self.armax = ops.AllReduce("max")
        self.ag = ops.AllGather()
        self.rs = ops.ReduceScatter()
        self.a2a = ops.AlltoAll(2, 1, 0)
        self.bc = ops.Broadcast(0)

    def construct(self, a):
        w = r + 1.0
        out = (self.ar(a * a) * w).sum() + (self.armax(a) * w).sum()
        out = out + (self.ag(a) * ops.arange(8.0).reshape(4, 2) * w).sum()
        out = out + (self.rs(a) * w).sum() + (self.a2a(a) * ops.arange(4.0).reshape(4, 1) * w).sum()
        return out + (self.bc((a,))[0] * w).sum()


rec("net_pynative", lambda: Net()(x))
rec("grad_pynative", lambda: ms.grad(Grads())(x))
ms.set_context(mode=ms.GRAPH_MODE)
rec("net_graph", lambda: Net()(x))
rec("grad_graph", lambda: ms.grad(Grads())(x))
rec("grad_in_jit", lambda: ms.jit(lambda a: ms.grad(Grads())(a))(x))
print("RESULT", json.dumps(out), flush=True)
