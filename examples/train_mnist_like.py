"""Train a LeNet-style network on a small synthetic MNIST-like dataset.

512 random 1x28x28 "images" are labelled by a fixed random teacher,
and a student LeNet (Conv2d, ReLU, MaxPool2d, Flatten, Dense) learns them with
MindSpore 2.x's canonical loop: ``value_and_grad`` over the forward function,
``optimizer(grads)``, and the whole train step compiled with ``ms.jit``.

    python examples/train_mnist_like.py [--epochs 10] [--batch 64] [--lr 0.1]
"""
import argparse
import sys
import time

import numpy as np

import msxla as ms
from msxla import nn, ops


class LeNet(nn.Cell):
    def __init__(self, num_classes=10):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 6, 5, pad_mode="valid")
        self.conv2 = nn.Conv2d(6, 16, 5, pad_mode="valid")
        self.relu = nn.ReLU()
        self.pool = nn.MaxPool2d(2, 2)
        self.flatten = nn.Flatten()
        self.fc1 = nn.Dense(16 * 4 * 4, 64)
        self.fc2 = nn.Dense(64, num_classes)

    def construct(self, x):
        x = self.pool(self.relu(self.conv1(x)))
        x = self.pool(self.relu(self.conv2(x)))
        return self.fc2(self.relu(self.fc1(self.flatten(x))))


def make_dataset(n=512, num_classes=10, seed=0):
    """Smooth random images (7x7 blobs upsampled to 28x28, plus noise) with the labels a
    fixed random linear teacher gives their 7x7 version."""
    rng = np.random.default_rng(seed)
    coarse = rng.standard_normal((n, 7 * 7)).astype(np.float32)
    teacher = rng.standard_normal((7 * 7, num_classes)).astype(np.float32)
    labels = np.argmax(coarse @ teacher, axis=1).astype(np.int32)
    images = np.kron(coarse.reshape(n, 1, 7, 7), np.ones((4, 4), np.float32))
    images += 0.3 * rng.standard_normal(images.shape).astype(np.float32)
    return images.astype(np.float32), labels


def progress(epoch, step, steps, loss, width=30):
    done = int(width * step / steps)
    bar = "#" * done + "." * (width - done)
    sys.stdout.write(f"\repoch {epoch} [{bar}] {step}/{steps} loss {loss:.4f}")
    sys.stdout.flush()


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--lr", type=float, default=0.1)
    args = parser.parse_args(argv)

    ms.set_seed(1)
    images, labels = make_dataset()
    net = LeNet()
    loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    optimizer = nn.Momentum(net.trainable_params(), learning_rate=args.lr, momentum=0.9)

    def forward_fn(data, label):
        logits = net(data)
        return loss_fn(logits, label), logits

    grad_fn = ms.value_and_grad(forward_fn, None, optimizer.parameters, has_aux=True)

    @ms.jit
    def train_step(data, label):
        (loss, logits), grads = grad_fn(data, label)
        optimizer(grads)
        return loss, logits

    steps = len(images) // args.batch
    net.set_train()
    start = time.time()
    epoch_losses = []
    for epoch in range(1, args.epochs + 1):
        order = np.random.default_rng(epoch).permutation(len(images))
        total, correct = 0.0, 0
        for step in range(steps):
            idx = order[step * args.batch:(step + 1) * args.batch]
            loss, logits = train_step(ms.Tensor(images[idx]), ms.Tensor(labels[idx]))
            total += float(loss.asnumpy())
            correct += int((ops.argmax(logits, 1).asnumpy() == labels[idx]).sum())
            progress(epoch, step + 1, steps, total / (step + 1))
        epoch_losses.append(total / steps)
        print(f"  accuracy {correct / (steps * args.batch):.3f}")
    print(f"trained {args.epochs} epochs in {time.time() - start:.1f}s; "
          f"mean loss per epoch: {', '.join(f'{v:.4f}' for v in epoch_losses)}")
    return epoch_losses


if __name__ == "__main__":
    main()
