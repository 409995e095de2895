"""The "ms_function" tutorial (seed 004), runnable as written.

Differs from MindSpore in scenario 2 on purpose: after ``func.value = 1`` the
jitted construct sees the new value (MindSpore keeps the cached graph and
prints 6; msxla recompiles and prints 2, as PyNative would).
"""
import numpy as np

import msxla.nn as nn
import msxla.ops as ops
from msxla import Tensor, context, ms_function


@ms_function
def add_func(x, y):
    return ops.add(x, y)


context.set_context(mode=context.PYNATIVE_MODE)
x = Tensor(np.ones([3, 3], dtype=np.float32))
y = Tensor(np.ones([3, 3], dtype=np.float32))
out = add_func(x, y)
print(out)


class Add(nn.Cell):
    def __init__(self):
        super(Add, self).__init__()

    @ms_function
    def construct(self, x, y):
        out = x * y
        return out


grad_ops = ops.GradOperation(get_all=True)
net = Add()
grad_out = grad_ops(net)(x, y)
print(grad_out)


class AddTwice(nn.Cell):
    def construct(self, x):
        x = x + x
        x = x + x
        return x


class Mul(nn.Cell):
    @ms_function
    def construct(self, x):
        x = x * x
        x = x * x
        return x


class Test(nn.Cell):
    def __init__(self):
        super(Test, self).__init__()
        self.add = AddTwice()
        self.mul = Mul()

    def construct(self, x):
        x = self.add(x)
        x = self.mul(x)
        x = self.add(x)
        return x


out = Test()(x)
print(out)

value = 5


@ms_function
def func(x, y):
    out = x + y
    value = 1  # noqa: F841 - a local: the global stays 5
    return out


func(x, y)
print(value)


class Func(nn.Cell):
    def __init__(self):
        super(Func, self).__init__()
        self.value = 5

    @ms_function
    def construct(self, x):
        out = self.value + x
        return out


x = Tensor(np.ones([3, 3], dtype=np.float32))
func = Func()
out = func(x)
func.value = 1
out = func(x)
print(out)
