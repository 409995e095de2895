"""What msxla is for: one MindSpore function, run eagerly and compiled, with equal results.

    python -m msxla examples/quickstart.py     # on msxla (XLA), the script unchanged
    python examples/quickstart.py              # on MindSpore itself

The function runs in PyNative (op by op) and jitted in each capture mode;
each line shows the time per call and whether the result equals PyNative's.
"""
import time

import numpy as np
import mindspore
from mindspore import Tensor, ops


def f(x, w, b):
    for _ in range(4):  # a Python loop: unrolled into the compiled graph
        x = ops.tanh(ops.matmul(x, w) + b)
    return x.sum(axis=-1)


rng = np.random.default_rng(0)
args = [Tensor(rng.standard_normal(shape).astype(np.float32) * 0.1)
        for shape in ((32, 64), (64, 64), (64,))]


def per_call_ms(fn, calls=200):
    fn(*args).asnumpy()  # the first call compiles
    start = time.perf_counter()
    for _ in range(calls):
        out = fn(*args)
    out.asnumpy()
    return (time.perf_counter() - start) / calls * 1e3


expected = f(*args).asnumpy()
print(f"{'PyNative':<14} {per_call_ms(f):8.3f} ms per call")
for mode in ("ast", "bytecode", "trace"):
    jitted = mindspore.jit(f, capture_mode=mode)
    same = np.allclose(jitted(*args).asnumpy(), expected, rtol=1e-5, atol=1e-6)
    print(f"{'jit ' + mode:<14} {per_call_ms(jitted):8.3f} ms per call, same result: {same}")
