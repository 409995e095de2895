"""Golden cases for gradients with respect to integer and bool Tensors and
Parameters (see grad_cases.py).

MindSpore differentiates integer inputs and weights: each gradient comes back
in its input's dtype, truncated (``x * y`` with x int32 and y float32 2.5
gives x the gradient 2; a bool's gradient is True where it is not zero). An
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

    def int_params():
        return (ms.Parameter(T(np.array([6], np.int32)), name="iw"),
                ms.Parameter(T(np.array([2], np.int32)), name="ib"))

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

    @case
    def int_grad_int_weights():
        w, b = int_params()
        return ms.grad(lambda a, d: w * a + b * d, 0, (w, b))(T([10], ms.int32),
                                                              T([20], ms.int32))

    @case
    def int_grad_float_input_int_weight():
        w = ms.Parameter(T(np.array([1, 2, 3], np.int64)), name="iw64")
        return ms.grad(lambda a: a * w, None, w)(x)

    @case
    def int_grad_mixed_weights():
        wf = ms.Parameter(T(np.array([1.5, 2.5], np.float32)), name="wf")
        wi = ms.Parameter(T(np.array([2, 3], np.int32)), name="wi")
        return ms.grad(lambda a: (a * wf * wi).sum(), 0, (wf, wi))(
            T(np.array([1.0, 2.0], np.float32)))

    @case
    def int_grad_bool_input():
        return ms.grad(mixed, (0, 1))(T(np.array([1.0, 0.0, 2.0], np.float32)),
                                      T(np.array([True, False, False])))

    @case
    def int_grad_weight_written_keeps_dtype():
        w, _ = int_params()

        def step(a):
            ops.assign(w, w + 1)
            return a * w * 2

        g = ms.grad(step, 0, w)(T([3], ms.int32))
        return g, w + 0

    @case
    def grad_of_returned_parameter():
        # a Parameter returned as it is: its ones sens reaches its gradient
        w = ms.Parameter(T(np.array([2.0, 2.0], np.float32)), name="wret")
        a, b = T(np.array([1.0, 2.0], np.float32)), T(np.array([3.0, 3.0], np.float32))
        return ms.grad(lambda u, v: (u * v * w, u, w), 0, (w,))(a, b)

    class ReturnsWeight(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = ms.Parameter(T(np.array([5.0], np.float32)), name="wonly")

        def construct(self, a):
            return self.w

    @case
    def grad_by_list_of_returned_parameter():
        # the Cell's weights are found although it only returns one
        return ops.GradOperation(get_by_list=True)(ReturnsWeight())(T(np.array([2.0], np.float32)))

    @case
    def grad_sens_of_a_shape_output():
        # the output is Python ints: the sens given for it reaches no input
        return ops.GradOperation(get_all=True, sens_param=True)(lambda a: ops.shape(a))(
            T(np.arange(8, dtype=np.int32)), (8,))

    return c
