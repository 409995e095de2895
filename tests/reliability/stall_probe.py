"""Build and call the Transformer shapes of MindSpore's ``tests/st/nn`` again and
again, in PyNative and jit, training and inference, and fail loudly if a round
blocks.

    PYTHONPATH=$PWD .venv/bin/python tests/reliability/stall_probe.py --rounds 50

Each round builds every model afresh (as each of those tests does), calls it
``--calls`` times and checks the output's shape. A round that takes longer
than ``--round-timeout`` seconds makes ``faulthandler`` print every thread's
Python stack and exit with status 1, so a stall names where it waits instead
of hanging the run. Prints one line per round: its time and the slowest case.
"""
from __future__ import annotations

import argparse
import faulthandler
import sys
import time

import numpy as np

import msxla as ms
from msxla import Tensor, nn, ops


def _attention():
    model = nn.MultiheadAttention(128, 8)
    q, k, v = (Tensor(np.random.randn(10, 8, 128), ms.float32) for _ in range(3))
    return (lambda: model(q, k, v)[0]), q.shape


def _square_encoder():
    layer = nn.TransformerEncoderLayer(d_model=4, nhead=2, dim_feedforward=16, dropout=0.0,
                                       batch_first=True)
    model = nn.TransformerEncoder(layer, num_layers=2)
    x = ops.arange(0, 16).reshape(2, 2, 4).astype(ms.float32)
    mask = Tensor([[0, 1], [0, 0]]).to(ms.bool_)
    return (lambda: model(x, src_mask=mask)), (2, 2, 4)


def _decoder():
    model = nn.TransformerDecoder(nn.TransformerDecoderLayer(d_model=512, nhead=8), num_layers=6)
    memory = Tensor(np.random.rand(10, 32, 512), ms.float32)
    tgt = Tensor(np.random.rand(20, 32, 512), ms.float32)
    return (lambda: model(tgt, memory)), tgt.shape, model


def _transformer():
    model = nn.Transformer(nhead=16, num_encoder_layers=12)
    src = Tensor(np.random.rand(10, 32, 512), ms.float32)
    tgt = Tensor(np.random.rand(20, 32, 512), ms.float32)
    return (lambda: model(src, tgt)), tgt.shape, model


SMALL = {"attention": _attention, "square_encoder": _square_encoder}
LARGE = {"decoder": _decoder, "transformer": _transformer}


def _case(make, training, jit, calls):
    built = make()
    call, shape = built[0], built[1]
    if len(built) > 2:
        built[2].set_train(training)
    fn = ms.jit(call) if jit else call
    for _ in range(calls):
        out = fn()
        out.asnumpy()
        if tuple(out.shape) != tuple(shape):
            raise AssertionError(f"shape {out.shape}, expected {shape}")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--calls", type=int, default=2, help="calls of each model per round")
    parser.add_argument("--round-timeout", type=float, default=600.0)
    parser.add_argument("--small", action="store_true", help="leave out the 512-wide models")
    args = parser.parse_args(argv)
    cases = dict(SMALL) if args.small else dict(SMALL, **LARGE)
    for r in range(args.rounds):
        faulthandler.dump_traceback_later(args.round_timeout, exit=True)
        start, slowest = time.perf_counter(), (0.0, "")
        for name, make in cases.items():
            for training in (True, False):
                for jit in (False, True):
                    t = time.perf_counter()
                    _case(make, training, jit, args.calls)
                    took = time.perf_counter() - t
                    label = f"{name}-{'train' if training else 'eval'}-{'jit' if jit else 'pynative'}"
                    slowest = max(slowest, (took, label))
        faulthandler.cancel_dump_traceback_later()
        print(f"round {r}: {time.perf_counter() - start:.1f} s, slowest {slowest[1]} "
              f"{slowest[0]:.1f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
