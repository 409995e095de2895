"""The static-graph tutorial (seed 003), runnable as written.

Three ways to compile: the @jit decorator on a function, jit() at the call
site, jit on construct; and set_context(mode=GRAPH_MODE).
"""
import numpy as np

import msxla as ms
from msxla import Tensor, nn


class Network(nn.Cell):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.dense_relu_sequential = nn.SequentialCell(
            nn.Dense(28 * 28, 512),
            nn.ReLU(),
            nn.Dense(512, 512),
            nn.ReLU(),
            nn.Dense(512, 10)
        )

    def construct(self, x):
        x = self.flatten(x)
        logits = self.dense_relu_sequential(x)
        return logits


input = Tensor(np.ones([64, 1, 28, 28]).astype(np.float32))


@ms.jit  # the decorated function runs as a static graph
def run(x):
    model = Network()
    return model(x)


output = run(input)
print("decorator:", output.shape)


def run(x):  # noqa: F811 - the tutorial redefines it
    model = Network()
    return model(x)


run_with_jit = ms.jit(run)  # compile at the call site
output = run_with_jit(input)
print("jit(run):", output.shape)


class JitNetwork(Network):
    @ms.jit  # construct compiles when the Cell is called
    def construct(self, x):
        x = self.flatten(x)
        logits = self.dense_relu_sequential(x)
        return logits


net = JitNetwork()
print("jit construct:", net(input).shape)

ms.set_context(mode=ms.GRAPH_MODE)  # every top-level Cell call compiles
net = Network()
graph_out = net(input)
ms.set_context(mode=ms.PYNATIVE_MODE)
eager_out = net(input)
print("GRAPH_MODE:", graph_out.shape, "matches PyNative:",
      np.allclose(graph_out.asnumpy(), eager_out.asnumpy(), atol=1e-5))
