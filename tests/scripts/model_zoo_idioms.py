"""Model-zoo style: old module paths, Primitives, GradOperation, GRAPH_MODE, checkpoints."""
import os
import sys
import tempfile

import numpy as np
import mindspore.common.dtype as mstype
import mindspore.nn as nn
from mindspore import context
from mindspore.common.api import jit
from mindspore.common.parameter import Parameter, ParameterTuple
from mindspore.common.tensor import Tensor
from mindspore.common import set_seed
from mindspore.nn.layer.basic import Dense
from mindspore.ops import composite as C
from mindspore.ops import functional as F
from mindspore.ops import operations as P
from mindspore.train.serialization import load_checkpoint, load_param_into_net, save_checkpoint

context.set_context(mode=context.GRAPH_MODE, device_target="CPU")
set_seed(1)


class Net(nn.Cell):
    def __init__(self):
        super(Net, self).__init__()
        self.matmul = P.MatMul(transpose_b=True)
        self.relu = P.ReLU()
        self.reduce_sum = P.ReduceSum(keep_dims=False)
        self.w = Parameter(Tensor(np.linspace(-1, 1, 12).reshape(3, 4), mstype.float32), name="w")
        self.head = Dense(3, 2, weight_init=Tensor(np.ones((2, 3)) * 0.5, mstype.float32),
                          bias_init="zeros")

    def construct(self, x):
        h = self.relu(self.matmul(x, self.w))
        return self.reduce_sum(F.cast(self.head(h), mstype.float32), -1)


class GradNet(nn.Cell):
    def __init__(self, net):
        super(GradNet, self).__init__()
        self.net = net
        self.weights = ParameterTuple(net.trainable_params())
        self.grad = C.GradOperation(get_by_list=True)

    def construct(self, x):
        return self.grad(self.net, self.weights)(x)


@jit
def scale(a, b):
    return a * b + 1


net = Net()
x = Tensor(np.arange(8, dtype=np.float32).reshape(2, 4) / 8)
print("out", net(x).asnumpy().round(6).tolist())
grads = GradNet(net)(x)
print("grad_w", grads[0].asnumpy().round(6).tolist())
print("scale", scale(Tensor(2.0, mstype.float32), Tensor(3.0, mstype.float32)).asnumpy().item())
path = os.path.join(tempfile.mkdtemp(), "net.ckpt")
save_checkpoint(net, path)
other = Net()
other.w.set_data(Tensor(np.zeros((3, 4)), mstype.float32))
not_loaded = load_param_into_net(other, load_checkpoint(path))
print("reloaded", other(x).asnumpy().round(6).tolist(), "not loaded", list(not_loaded[0]) if isinstance(not_loaded, tuple) else list(not_loaded))
print("argv", sys.argv[1:])
