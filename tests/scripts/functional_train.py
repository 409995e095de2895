"""Tutorial style: a Dense network trained by a jitted value_and_grad step."""
import numpy as np
import mindspore
from mindspore import nn, ops, Tensor

rng = np.random.default_rng(0)
x = Tensor(rng.standard_normal((16, 8)).astype(np.float32))
y = Tensor(rng.integers(0, 4, 16).astype(np.int32))
w1 = rng.standard_normal((32, 8)).astype(np.float32) * 0.3
w2 = rng.standard_normal((4, 32)).astype(np.float32) * 0.3


class Network(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense_relu_sequential = nn.SequentialCell(
            nn.Dense(8, 32, weight_init=Tensor(w1), bias_init="zeros"),
            nn.ReLU(),
            nn.Dense(32, 4, weight_init=Tensor(w2), bias_init="zeros"),
        )

    def construct(self, x):
        return self.dense_relu_sequential(x)


model = Network()
loss_fn = nn.CrossEntropyLoss()
optimizer = nn.SGD(model.trainable_params(), learning_rate=0.1)


def forward_fn(data, label):
    logits = model(data)
    loss = loss_fn(logits, label)
    return loss, logits


grad_fn = mindspore.value_and_grad(forward_fn, None, optimizer.parameters, has_aux=True)


@mindspore.jit
def train_step(data, label):
    (loss, _), grads = grad_fn(data, label)
    optimizer(grads)
    return loss


for step in range(5):
    loss = train_step(x, y)
    print(f"step {step} loss {loss.asnumpy():.6f}")
pred = model(x).argmax(1)
print("accuracy", float((pred == y).asnumpy().mean()))
