"""Golden cases for gradients with respect to integer Tensors (see grad_cases.py).

MindSpore differentiates integer inputs: the backward pass runs in the ops'
own dtypes and each gradient comes back in its input's dtype, truncated
(``x * y`` with x int32 and y float32 2.5 gives x the gradient 2). An
integer used as an integer (an index) gets zeros.
"""
import numpy as np


def int_grad_cases(ms, data):
    T, ops = ms.Tensor, ms.ops
    i5, i2 = T(5, ms.int32), T(2, ms.int32)
    vec = T(np.array([3, -4, 7], np.int64))
    x = T(data["x"])
    c = {}

    def case(fn):
        c[fn.__name__] = fn
        return fn

    def mul3(a, b):
        return a * b * 3

    def square(a):
        return a * a

    def scaled_sum(a):
        return (a.astype(ms.float32) * 1.5).sum()

    def mixed(a, b):
        return a * b

    def pick(i, t):
        return t[i] * 2

    def add_kw(a, b):
        return a + b

    @case
    def int_grad_scalars():
        return ms.grad(mul3, (0, 1))(i5, i2)

    @case
    def int_value_and_grad():
        return ms.value_and_grad(mul3, (0, 1))(i5, i2)

    @case
    def int_grad_int64_vector():
        return ms.grad(square)(vec)

    @case
    def int_grad_uint8():
        return ms.grad(square)(T(np.array([3, 4], np.uint8)))

    @case
    def int_grad_through_cast():
        return ms.grad(scaled_sum)(vec)

    @case
    def int_grad_mixed_truncates():
        return ms.grad(mixed, (0, 1))(T(np.array([2, 3], np.int32)),
                                      T(np.array([2.5, -1.75], np.float32)))

    @case
    def int_grad_float_and_int():
        return ms.grad(mixed, (0, 1))(x, T(np.array([1, 2, 3], np.int32)))

    @case
    def int_grad_index_is_zero():
        return ms.grad(pick, (0, 1))(T(1), x)

    @case
    def int_grad_operation_get_all():
        return ops.GradOperation(get_all=True)(add_kw)(T(1), T(2))

    @case
    def int_grad_sens():
        return ops.GradOperation(sens_param=True)(square)(vec, T(np.array([1, 2, -1], np.int64)))

    return c
