"""Run under msrun (MindSpore 2.10) or python -m msxla.launch: each rank prints one
``RESULT {json}`` line with its communication facts and collective results.

Each entry is a value, or ``"ERR <type>: <first line>"`` when the call raised.
"""
import json

import numpy as np

import mindspore as ms
from mindspore import Tensor, nn, ops
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


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.ar = ops.AllReduce()
        self.ag = ops.AllGather()

    def construct(self, a):
        return (self.ar(a * a) * (r + 1)).sum() + (self.ag(a) * 3).sum()


rec("net_pynative", lambda: Net()(x))
ms.set_context(mode=ms.GRAPH_MODE)
rec("net_graph", lambda: Net()(x))
print("RESULT", json.dumps(out), flush=True)
