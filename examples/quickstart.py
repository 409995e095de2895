"""The seed's first example: a*b+c, eagerly."""
import numpy as np

import msxla as mindspore
from msxla import Tensor


def f(a, b, c):
    return a * b + c


f_input = [Tensor(np.random.randn(2, 3), mindspore.float32) for _ in range(3)]
out = f(*f_input)
print(f"{out=}")
