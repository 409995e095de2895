"""LeNet-5 trained with ``Model``, in the style of the MindSpore model zoo.

GRAPH_MODE, ``Model.train`` with ``LossMonitor``, ``TimeMonitor`` and
``ModelCheckpoint`` in dataset sink mode, then ``Model.eval`` with ``Accuracy``.
The data is a synthetic MNIST-like set (1x32x32 images of 4x4 random blocks,
labelled by a fixed random teacher), so the script needs no download.

The script is plain MindSpore; it runs unchanged on MindSpore 2.10 and on msxla:

    python examples/train_lenet.py                       # with MindSpore installed
    python -m msxla examples/train_lenet.py              # on msxla (XLA)
    python -m msxla examples/train_lenet.py --epochs 2 --sink_size 20 --ckpt_dir /tmp/lenet

(MindSpore's CPU build trains without sinking and says so; msxla sinks on every
device: each sink of ``sink_size`` steps is one XLA executable.)
"""
import argparse
import os

import numpy as np

import mindspore as ms
import mindspore.dataset as ds
from mindspore import nn
from mindspore.common.initializer import Normal
from mindspore.train import (Accuracy, CheckpointConfig, LossMonitor, Model, ModelCheckpoint,
                             TimeMonitor)


class LeNet5(nn.Cell):
    """LeNet-5 for 1x32x32 inputs (the model zoo's network)."""

    def __init__(self, num_class=10, num_channel=1):
        super().__init__()
        self.conv1 = nn.Conv2d(num_channel, 6, 5, pad_mode="valid")
        self.conv2 = nn.Conv2d(6, 16, 5, pad_mode="valid")
        self.fc1 = nn.Dense(16 * 5 * 5, 120, weight_init=Normal(0.02))
        self.fc2 = nn.Dense(120, 84, weight_init=Normal(0.02))
        self.fc3 = nn.Dense(84, num_class, weight_init=Normal(0.02))
        self.relu = nn.ReLU()
        self.max_pool2d = nn.MaxPool2d(kernel_size=2, stride=2)
        self.flatten = nn.Flatten()

    def construct(self, x):
        x = self.max_pool2d(self.relu(self.conv1(x)))
        x = self.max_pool2d(self.relu(self.conv2(x)))
        x = self.flatten(x)
        x = self.relu(self.fc1(x))
        x = self.relu(self.fc2(x))
        return self.fc3(x)


def synthetic_mnist(n, seed, num_class=10):
    """``n`` smooth 1x32x32 images and the labels a fixed linear teacher gives them."""
    rng = np.random.default_rng(seed)
    blobs = rng.standard_normal((n, 1, 4, 4)).astype(np.float32)
    images = blobs.repeat(8, axis=2).repeat(8, axis=3)
    images += 0.3 * rng.standard_normal(images.shape).astype(np.float32)
    teacher = np.random.default_rng(1234).standard_normal((16, num_class)).astype(np.float32)
    labels = (blobs.reshape(n, 16) @ teacher).argmax(axis=1).astype(np.int32)
    return images, labels


def create_dataset(n, batch_size, seed, shuffle):
    images, labels = synthetic_mnist(n, seed)
    data = ds.NumpySlicesDataset({"image": images, "label": labels}, shuffle=shuffle)
    return data.batch(batch_size, drop_remainder=True)


def main():
    parser = argparse.ArgumentParser(description="LeNet-5 with Model.train")
    parser.add_argument("--device_target", default="CPU", choices=["CPU", "GPU", "Ascend"])
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--batch_size", type=int, default=32)
    parser.add_argument("--train_size", type=int, default=1920)
    parser.add_argument("--sink_size", type=int, default=-1)
    parser.add_argument("--no_sink", action="store_true", help="train step by step")
    parser.add_argument("--lr", type=float, default=0.05)
    parser.add_argument("--ckpt_dir", default="./ckpt_lenet")
    args = parser.parse_args()

    ms.set_context(mode=ms.GRAPH_MODE, device_target=args.device_target)
    ms.set_seed(1)
    ds_train = create_dataset(args.train_size, args.batch_size, seed=0, shuffle=True)
    ds_eval = create_dataset(640, args.batch_size, seed=1, shuffle=False)

    net = LeNet5()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    opt = nn.Momentum(net.trainable_params(), learning_rate=args.lr, momentum=0.9)
    model = Model(net, loss, opt, metrics={"Accuracy": Accuracy()})

    # one checkpoint per epoch as Model.train counts them (a sink is an epoch)
    sinks = args.sink_size > 0 and not args.no_sink
    steps = args.sink_size if sinks else ds_train.get_dataset_size()
    config = CheckpointConfig(save_checkpoint_steps=steps, keep_checkpoint_max=3)
    ckpoint = ModelCheckpoint(prefix="checkpoint_lenet", directory=args.ckpt_dir, config=config)
    print("============== Starting Training ==============")
    model.train(args.epochs, ds_train, callbacks=[TimeMonitor(), LossMonitor(), ckpoint],
                dataset_sink_mode=not args.no_sink, sink_size=args.sink_size)
    print("============== Starting Testing ==============")
    acc = model.eval(ds_eval)
    print(f"============== Accuracy:{acc} ==============")
    print("checkpoints:", sorted(f for f in os.listdir(args.ckpt_dir) if f.endswith(".ckpt")))


if __name__ == "__main__":
    main()
