"""Golden cases for vjp, jvp, jacobians, higher order, Cells, state and errors.

See grad_cases.py."""
import numpy as np


def transform_cases(ms, data):  # noqa: C901 - one flat table of cases
    T, P, ops, nn = ms.Tensor, ms.Parameter, ms.ops, ms.nn
    x, y = T(data["x"]), T(data["y"])
    X, Y, V = T(data["X"]), T(data["Y"]), T(data["V"])
    x64 = T(data["x"].astype(np.float64))

    def params():
        return P(T(data["w"]), name="w"), P(T(data["b"]), name="b")

    c = {}

    def case(fn):
        c[fn.__name__] = fn
        return fn


    # ----------------------------------------------------------- vjp / jvp
    def cube_plus(x, y):
        return x ** 3 + y

    def two_out(x, y):
        return 2 * x + y, y ** 3

    def with_aux(x, y):
        return x ** 3 + y, y

    def with_aux3(x, y):
        return x ** 3 + y, y, x

    @case
    def vjp_plain():
        out, fn = ms.vjp(cube_plus, X, Y)
        return out, fn(V)

    @case
    def vjp_one_input():
        def cube(x):
            return x ** 3
        out, fn = ms.vjp(cube, X)
        return out, fn(V)

    @case
    def vjp_two_out():
        out, fn = ms.vjp(two_out, X, Y)
        return out, fn(V, V)

    @case
    def vjp_has_aux():
        out, fn, aux = ms.vjp(with_aux, X, Y, has_aux=True)
        return out, aux, fn(V)

    @case
    def vjp_has_aux3():
        out, fn, aux = ms.vjp(with_aux3, X, Y, has_aux=True)
        return out, aux, fn(V)

    @case
    def vjp_weights():
        w = P(T(data["w2"]), name="w")

        def f(x):
            return x * w
        out, fn = ms.vjp(f, X, weights=w)
        out2, fn2 = ms.vjp(f, X, weights=[w])
        return out, fn(V), fn2(V)

    @case
    def jvp_plain():
        return ms.jvp(cube_plus, (X, Y), (V, V))

    @case
    def jvp_list():
        return ms.jvp(cube_plus, [X, Y], [V, V])

    @case
    def jvp_two_out():
        return ms.jvp(two_out, (X, Y), (V, V))

    @case
    def jvp_has_aux():
        return ms.jvp(with_aux, (X, Y), (V, V), has_aux=True)

    @case
    def jvp_has_aux3():
        return ms.jvp(with_aux3, (X, Y), (V, V), has_aux=True)

    # ------------------------------------------------------------ jacobians
    def sq_times(x, y):
        return x ** 2 * y

    for name, jac in (("jacfwd", ms.jacfwd), ("jacrev", ms.jacrev)):
        c[f"{name}_pos0"] = (lambda jac: lambda: jac(sq_times)(X, Y))(jac)
        c[f"{name}_pos01"] = (lambda jac: lambda: jac(sq_times, (0, 1))(X, Y))(jac)
        c[f"{name}_has_aux"] = (lambda jac: lambda: jac(with_aux, 0, has_aux=True)(X, Y))(jac)
        c[f"{name}_has_aux3"] = (lambda jac: lambda: jac(with_aux3, 0, has_aux=True)(X, Y))(jac)
        c[f"{name}_two_out"] = (lambda jac: lambda: jac(two_out, 0)(X, Y))(jac)
        c[f"{name}_two_out_two_in"] = (lambda jac: lambda: jac(two_out, (0, 1))(X, Y))(jac)

    # --------------------------------------------------------- higher order
    def cubic(w):
        def f(x):
            return x * x * x * w
        return f

    @case
    def hi_grad_grad():
        w, _ = params()
        return ms.grad(ms.grad(cubic(w)))(x)

    @case
    def hi_grad_grad_weights():
        w, _ = params()
        return ms.grad(ms.grad(cubic(w)), None, w)(x)

    @case
    def hi_grad_of_value_and_grad():
        w, _ = params()
        f = cubic(w)

        def h(x):
            v, g = ms.value_and_grad(f)(x)
            return g * x + v
        return ms.grad(h)(x)

    @case
    def hi_third_order():
        w, _ = params()
        return ms.grad(ms.grad(ms.grad(cubic(w))))(x)

    # ------------------------------------------------------ Cells and state
    class Affine(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = P(T(data["w"]), name="w")
            self.b = P(T(data["b"]), name="b")

        def construct(self, x):
            return x * self.w + self.b

    @case
    def cell_grad():
        net = Affine()
        return ms.grad(net, 0, net.trainable_params())(x)

    @case
    def cell_grad_operation():
        net = Affine()
        return ops.GradOperation(get_by_list=True)(net, net.trainable_params())(x)

    @case
    def cell_train_three_sgd_steps():
        net = Affine()
        params_ = net.trainable_params()

        def forward_fn(data, label):
            logits = net(data)
            loss = (logits - label) ** 2
            return loss, logits
        grad_fn = ms.value_and_grad(forward_fn, None, params_, has_aux=True)
        losses = []
        for _ in range(3):
            (loss, logits), grads = grad_fn(x, y)
            for p, g in zip(params_, grads):
                ops.assign(p, p - 0.05 * g)
            losses.append(loss)
        return tuple(losses), logits, net.w.value(), net.b.value()

    class BpropNet(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = P(T(data["w"]), name="w")

        def construct(self, x, y):
            return x * y * self.w

        def bprop(self, x, y, out, dout):
            return dout * 10, dout * y * 0 + 1

    class BpropOut(nn.Cell):
        def construct(self, x, y):
            return x * y

        def bprop(self, x, y, out, dout):
            return dout * out, dout * 2

    @case
    def cell_custom_bprop():
        net = BpropNet()
        return ms.grad(net, (0, 1), net.trainable_params())(x, y), net(x, y)

    @case
    def cell_custom_bprop_out():
        return ms.grad(BpropOut(), (0, 1))(x, y)

    @case
    def state_assign_inside_grad():
        w, _ = params()
        m = P(T(np.zeros(3, np.float32)), name="m")

        def f(x):
            ops.assign(m, m * 0.9 + x * 0.1)
            return x * w * m
        g = ms.grad(f, 0, w)(x)
        return g, m.value()

    @case
    def state_assign_weight():
        m = P(T(np.ones(3, np.float32)), name="m")

        def f(x):
            ops.assign(m, m * 2 + x)
            return x * m
        return ms.grad(f, 0, m)(x), m.value()

    @case
    def state_set_data_weight():
        m = P(T(np.ones(3, np.float32)), name="m")

        def f(x):
            m.set_data(m * 2 + x)
            return x * m
        return ms.value_and_grad(f, 0, m)(x), m.value()

    def square(x):
        return x * x

    @case
    def float64_jvp_vjp():
        out, fn = ms.vjp(square, x64)
        return ms.jvp(square, x64, x64), out, fn(x64)

    # --------------------------------------------------------------- errors
    def simple(x, y):
        return x * y

    def in_graph_mode(thunk):
        ms.set_context(mode=ms.GRAPH_MODE)
        try:
            return thunk()
        finally:
            ms.set_context(mode=ms.PYNATIVE_MODE)

    errors = {
        "err_position_out_of_range": lambda: ms.grad(simple, 2)(x, y),
        # MindSpore's graph compiler raises IndexError where PyNative raises RuntimeError
        "err_position_out_of_range_graph_mode":
            lambda: in_graph_mode(lambda: ms.grad(simple, 2)(x, y)),
        "err_position_negative": lambda: ms.grad(simple, -1)(x, y),
        "err_position_duplicate": lambda: ms.grad(simple, (0, 0))(x, y),
        "err_position_float": lambda: ms.grad(simple, 1.0)(x, y),
        "err_position_list": lambda: ms.grad(simple, [0])(x, y),
        "err_position_element": lambda: ms.grad(simple, (0, "a"))(x, y),
        "err_position_empty": lambda: ms.grad(simple, ())(x, y),
        "err_both_none": lambda: ms.grad(simple, None)(x, y),
        "err_not_callable": lambda: ms.grad(3)(x),
        "err_vg_not_callable": lambda: ms.value_and_grad(3)(x),
        "err_has_aux_not_bool": lambda: ms.grad(simple, 0, has_aux=1)(x, y),
        "err_return_ids_not_bool": lambda: ms.grad(simple, 0, return_ids=1)(x, y),
        "err_weights_str": lambda: ms.grad(simple, 0, "a")(x, y),
        "err_has_aux_single_output": lambda: ms.grad(simple, 0, has_aux=True)(x, y),
        "err_go_flag": lambda: ops.GradOperation(get_all=1),
        "err_go_not_callable": lambda: ops.GradOperation()(3)(x),
        "err_vjp_input": lambda: ms.vjp(simple, 3.0, y),
        "err_jvp_length": lambda: ms.jvp(cube_plus, (X, Y), (V,)),
        "err_jvp_type": lambda: ms.jvp(cube_plus, 1.0, V),
        "err_jacfwd_position": lambda: ms.jacfwd(sq_times, 2)(X, Y),
        "err_jacrev_has_aux": lambda: ms.jacrev(sq_times, 0, 1)(X, Y),
    }
    c.update(errors)
    return c
