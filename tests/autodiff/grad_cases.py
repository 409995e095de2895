"""The grad-API cases shared by the golden generator and the golden test.

``cases(ms, data)`` returns ``{name: thunk}``; each thunk builds its own
Parameters and calls the grad APIs of ``ms`` — MindSpore when run by
``tests/golden/make_grad_api.py`` in the oracle venv, msxla in the test — so
both sides run the very same code. Functions are named ``def``s (MindSpore
compiles jacfwd/jacrev/jvp bodies and cannot parse lambdas there) and use
only elementwise arithmetic and ``ops.assign``.
"""
import numpy as np


def cases(ms, data):  # noqa: C901 - one flat table of cases
    T, P, ops, nn = ms.Tensor, ms.Parameter, ms.ops, ms.nn
    x, y = T(data["x"]), T(data["y"])
    X, Y, V = T(data["X"]), T(data["Y"]), T(data["V"])
    x64 = T(data["x"].astype(np.float64))
    x16 = T(data["x"].astype(np.float16))
    sens = T(data["s"])

    def params():
        return P(T(data["w"]), name="w"), P(T(data["b"]), name="b")

    c = {}

    def case(fn):
        c[fn.__name__] = fn
        return fn

    # ---------------------------------------------------------------- grad
    @case
    def g_pos0():
        w, b = params()

        def f(x, y):
            return x * y * w + b
        return ms.grad(f)(x, y)

    def fwb(w, b):
        def f(x, y):
            return x * y * w + b
        return f

    @case
    def g_pos01():
        return ms.grad(fwb(*params()), (0, 1))(x, y)

    @case
    def g_pos_tuple0():
        return ms.grad(fwb(*params()), (0,))(x, y)

    @case
    def g_weights_single():
        w, b = params()
        return ms.grad(fwb(w, b), None, w)(x, y)

    @case
    def g_weights_list1():
        w, b = params()
        return ms.grad(fwb(w, b), None, [w])(x, y)

    @case
    def g_weights_ptuple():
        w, b = params()
        return ms.grad(fwb(w, b), None, ms.ParameterTuple([w, b]))(x, y)

    @case
    def g_pos0_weight():
        w, b = params()
        return ms.grad(fwb(w, b), 0, w)(x, y)

    @case
    def g_pos01_weights():
        w, b = params()
        return ms.grad(fwb(w, b), (0, 1), [w, b])(x, y)

    @case
    def g_has_aux():
        w, _ = params()

        def f(x, y):
            return x * y * w, x + y
        return ms.grad(f, 0, has_aux=True)(x, y)

    @case
    def g_has_aux3():
        w, _ = params()

        def f(x, y):
            return x * y * w, x + y, x - y
        return ms.grad(f, 0, has_aux=True)(x, y)

    @case
    def g_has_aux_list():
        def f(x):
            return x * 2, [x, 1]
        return ms.grad(f, has_aux=True)(x)

    @case
    def g_multi_out():
        w, _ = params()

        def f(x, y):
            return x * y * w, x + y
        return ms.grad(f, 0)(x, y)

    @case
    def g_multi_out3():
        w, _ = params()

        def f(x, y):
            return x * y * w, x + y, x - y
        return ms.grad(f, (0, 1))(x, y)

    @case
    def g_out_list():
        def f(x):
            return [x * 2, x * 3]
        return ms.grad(f)(x)

    @case
    def g_out_nested():
        def f(x):
            return (x * 2, (x * 3, x))
        return ms.grad(f)(x)

    @case
    def g_out_const():
        def f(x):
            return T(np.array([1.0, 2.0], np.float32))
        return ms.grad(f)(x)

    @case
    def g_out_none():
        def f(x):
            return None
        return ms.grad(f)(x)

    @case
    def g_ids0():
        return ms.grad(fwb(*params()), 0, return_ids=True)(x, y)

    @case
    def g_ids01():
        return ms.grad(fwb(*params()), (0, 1), return_ids=True)(x, y)

    @case
    def g_ids_weights():
        w, b = params()
        return ms.grad(fwb(w, b), None, [w, b], return_ids=True)(x, y)

    @case
    def g_ids_weight_single():
        w, b = params()
        return ms.grad(fwb(w, b), None, w, return_ids=True)(x, y)

    @case
    def g_ids0_weights():
        w, b = params()
        return ms.grad(fwb(w, b), 0, [w, b], return_ids=True)(x, y)

    @case
    def g_ids01_weights():
        w, b = params()
        return ms.grad(fwb(w, b), (0, 1), [w, b], return_ids=True)(x, y)

    @case
    def g_get_grad():
        w, b = params()
        out = ms.grad(fwb(w, b), (0, 1), [w, b], return_ids=True)(x, y)
        return ms.get_grad(out, 1), ms.get_grad(out, b)

    @case
    def g_sens():
        return ms.grad(fwb(*params()), 0, sens_param=True)(x, y, sens)

    @case
    def g_sens_kw():
        return ms.grad(fwb(*params()), 0, sens_param=True)(x, y, sens=sens)

    @case
    def g_sens_multi():
        w, _ = params()

        def f(x, y):
            return x * y * w, x + y
        return ms.grad(f, 0, sens_param=True)(x, y, (sens, x))

    @case
    def g_unused_input():
        def f(x, y):
            return x * 2
        return ms.grad(f, (0, 1))(x, y)

    @case
    def g_unused_weight():
        w, _ = params()

        def f(x, y):
            return x * 2
        return ms.grad(f, 0, [w])(x, y)

    @case
    def g_requires_grad_false():
        w, _ = params()
        wn = P(T(data["w"]), name="wn", requires_grad=False)

        def f(x):
            return x * wn * w
        return ms.grad(f, None, [wn, w])(x)

    @case
    def g_empty_weights():
        w, _ = params()

        def f(x):
            return x * w
        return ms.grad(f, 0, [])(x), ms.grad(f, None, [])(x)

    @case
    def g_float64():
        def f(x):
            return x * x
        return ms.grad(f)(x64)

    @case
    def g_float16():
        def f(x):
            return x * x
        return ms.grad(f)(x16)

    @case
    def g_kwarg():
        def f(x, y=None):
            return x * y
        return ms.grad(f)(x, y=y), ms.grad(f, 1)(x, y=y)

    @case
    def g_pyscalar_dropped():
        def f(x, s):
            return x * s

        def h(x, s, y):
            return x * s * y
        return (ms.grad(f, (0, 1))(x, 3.0), ms.grad(h, (0, 1, 2))(x, 3.0, y),
                ms.grad(h, (1, 2))(x, 3.0, y))

    @case
    def g_none_arg_dropped():
        def f(x, s, y):
            return x * y
        return ms.grad(f, (0, 1, 2))(x, None, y)

    # ------------------------------------------------------ value_and_grad
    @case
    def vg_plain():
        return ms.value_and_grad(fwb(*params()))(x, y)

    @case
    def vg_has_aux():
        w, _ = params()

        def f(x, y):
            return x * y * w, x + y
        return ms.value_and_grad(f, 0, has_aux=True)(x, y)

    @case
    def vg_has_aux3_weights():
        w, _ = params()

        def f(x, y):
            return x * y * w, x + y, x - y
        return ms.value_and_grad(f, 0, [w], has_aux=True)(x, y)

    @case
    def vg_multi_out():
        w, _ = params()

        def f(x, y):
            return x * y * w, x + y
        return ms.value_and_grad(f, (0, 1))(x, y)

    @case
    def vg_out_pyscalar():
        def f(x):
            return x * 2, 5
        return ms.value_and_grad(f)(x)

    @case
    def vg_sens():
        return ms.value_and_grad(fwb(*params()), 0, sens_param=True)(x, y, sens)

    @case
    def vg_weights_only_empty():
        w, _ = params()

        def f(x):
            return x * w * w
        return ms.value_and_grad(f, None, [])(x)

    # ------------------------------------------------------- GradOperation
    G = ops.GradOperation

    @case
    def go_default():
        return G()(fwb(*params()))(x, y)

    @case
    def go_get_all():
        return G(get_all=True)(fwb(*params()))(x, y)

    @case
    def go_get_all_one_input():
        w, _ = params()

        def f(x):
            return x * w
        return G(get_all=True)(f)(x)

    @case
    def go_by_list_ptuple():
        w, b = params()
        return G(get_by_list=True)(fwb(w, b), ms.ParameterTuple([w, b]))(x, y)

    @case
    def go_by_list_single():
        w, b = params()
        return G(get_by_list=True)(fwb(w, b), w)(x, y)

    @case
    def go_by_list_discovered():
        return G(get_by_list=True)(fwb(*params()))(x, y)

    @case
    def go_all_by_list():
        w, b = params()
        return G(get_all=True, get_by_list=True)(fwb(w, b), [w, b])(x, y)

    @case
    def go_sens():
        return G(sens_param=True)(fwb(*params()))(x, y, sens)

    @case
    def go_all_list_sens():
        w, b = params()
        return G(True, True, True)(fwb(w, b), [w, b])(x, y, sens)

    @case
    def go_multi_out():
        w, b = params()

        def f(x, y):
            return x * y * w, x + b
        return G()(f)(x, y)

    @case
    def go_no_args():
        w, _ = params()

        def f():
            return w * 2
        return G()(f)(), G(get_by_list=True)(f, [w])()

    @case
    def go_pyscalar_dropped():
        def f(x, s):
            return x * s
        return G(get_all=True)(f)(x, 3.0)

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

    errors = {
        "err_position_out_of_range": lambda: ms.grad(simple, 2)(x, y),
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


def make_data():
    rng = np.random.default_rng(20240601)
    f32 = np.float32
    return {
        "x": rng.uniform(0.5, 2.0, 3).astype(f32),
        "y": rng.uniform(-1.0, 1.0, 3).astype(f32),
        "w": rng.uniform(0.5, 1.5, 3).astype(f32),
        "b": rng.uniform(-0.5, 0.5, 1).astype(f32),
        "s": rng.uniform(0.5, 2.0, 3).astype(f32),
        "X": rng.uniform(0.5, 2.0, (2, 2)).astype(f32),
        "Y": rng.uniform(-1.0, 1.0, (2, 2)).astype(f32),
        "V": rng.uniform(-1.0, 1.0, (2, 2)).astype(f32),
        "w2": rng.uniform(0.5, 1.5, 2).astype(f32),
    }


def encode(value, tensor_type):
    """A JSON-able description of a result (Tensors, tuples, lists, Python values)."""
    if isinstance(value, tensor_type):
        arr = value.asnumpy()
        return {"tensor": arr.astype(np.float64).tolist() if arr.dtype != np.bool_
                else arr.tolist(), "dtype": str(value.dtype), "shape": list(arr.shape)}
    if isinstance(value, tuple):
        return {"tuple": [encode(v, tensor_type) for v in value]}
    if isinstance(value, list):
        return {"list": [encode(v, tensor_type) for v in value]}
    return {"py": value}
