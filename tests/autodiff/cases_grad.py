"""Golden cases for grad, value_and_grad and GradOperation (see grad_cases.py)."""
import numpy as np


def grad_api_cases(ms, data):  # noqa: C901 - one flat table of cases
    T, P, ops = ms.Tensor, ms.Parameter, ms.ops
    x, y = T(data["x"]), T(data["y"])
    x64 = T(data["x"].astype(np.float64))
    x16 = T(data["x"].astype(np.float16))
    sens = T(data["s"])

    def params():
        return P(T(data["w"]), name="w"), P(T(data["b"]), name="b")

    c = {}

    def case(fn):
        c[fn.__name__] = fn
        return fn

    def fwb(w, b):
        def f(x, y):
            return x * y * w + b
        return f

    # ---------------------------------------------------------------- grad
    @case
    def g_pos0():
        w, b = params()

        def f(x, y):
            return x * y * w + b
        return ms.grad(f)(x, y)

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

    return c
