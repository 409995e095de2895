"""OpSpecs: binary arithmetic."""
import numpy as np

from optable import OpSpec

F = (np.float32, np.float64, np.float16)
N = F + (np.int32, np.int64)

SPECS = [
    OpSpec("add", np.add, ((2, 3), (3,)), dtypes=N, grad=True),
    OpSpec("sub", np.subtract, ((2, 3), (2, 3)), dtypes=N, grad=True),
    OpSpec("mul", np.multiply, ((2, 3), (1, 3)), dtypes=N, grad=True),
    OpSpec("div", np.true_divide, ((2, 3), (2, 3)), dtypes=F, grad=True, domain="positive"),
    OpSpec("floor_divide", np.floor_divide, ((2, 3), (2, 3)), dtypes=(np.float32, np.int32),
           domain="positive"),
    OpSpec("remainder", np.remainder, ((2, 3), (2, 3)), dtypes=(np.float32, np.int64),
           domain="positive"),
    OpSpec("pow", np.power, ((2, 3), (2, 3)), dtypes=(np.float32, np.float64), grad=True,
           domain="positive"),
    OpSpec("maximum", np.maximum, ((2, 3), (2, 3)), dtypes=N, grad=True),
    OpSpec("minimum", np.minimum, ((2, 3), (2, 3)), dtypes=N, grad=True),
    OpSpec("neg", np.negative, ((2, 3),), dtypes=N, grad=True),
]
