"""ast coverage programs: sources, calls, Python data, syntax levels, Parameter state.

Each program is a plain function or Cell of ``ms`` (MindSpore or msxla); see
``ast_cases.py``.
"""
import functools

import numpy as np

GLOBAL_SCALE = 2.0


def _twice(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        return fn(*args, **kwargs) * 2
    return wrapper


def data_cases(ms, Case, f32):
    Tensor, ops, nn, Parameter = ms.Tensor, ms.ops, ms.nn, ms.Parameter
    pos, neg = f32(1.0, 2.0), f32(-1.0, -3.0)
    out = {}

    def case(calls, **kw):
        def deco(make):
            out[make.__name__] = Case(make, calls, **kw)
            return make
        return deco

    # ------------------------------------------------------------ sources
    @case([(pos,), (neg,)])
    def source_method(ms):
        class Scaler:
            def __init__(self):
                self.k = 3.0

            def apply(self, x):
                if x.sum() > 0:
                    return x * self.k
                return x / self.k
        return Scaler().apply

    @case([(pos,), (neg,)])
    def source_nested_closure(ms):
        offset = 5.0
        bias = Tensor(f32(0.5, 0.25))

        def outer(x):
            def inner(v):
                return v + offset if v.sum() > 0 else v - offset
            return inner(x) + bias
        return outer

    @case([(pos,)])
    def source_lambda(ms):
        return lambda x: x * 2 + 1

    @case([(pos,), (neg,)])
    def source_decorated(ms):
        @_twice
        def f(x):
            if x.sum() > 0:
                return x + 1
            return x - 1
        return f

    # -------------------------------------------------------------- calls
    @case([(pos,), (neg,)])
    def call_helper_and_sub_cell(ms):
        def clip_sign(v, k=1.0):
            if v.sum() > 0:
                return v * k
            return -v * k

        class Inner(nn.Cell):
            def construct(self, x):
                return clip_sign(x, 2.0) + 1

        class Outer(nn.Cell):
            def __init__(self):
                super().__init__()
                self.inner = Inner()

            def helper(self, x):
                return x * GLOBAL_SCALE

            def construct(self, x):
                return self.helper(self.inner(x)) + clip_sign(x)
        return Outer()

    @case([(pos, (1, 2), [3, 4])])
    def call_builtins(ms):
        def f(x, tup, lst):
            n = len(x.shape) + len(tup) + len(lst)
            ok = isinstance(x, Tensor) and isinstance(tup, tuple)
            r = list(range(3))
            m = max(tup) + min(lst) + abs(-2)
            t = tuple(lst) + tuple(r)
            d = dict(a=1, b=2)  # noqa: C408 - the built-in is the point
            c = int(2.7) + float("1.5") + bool(0)
            g = getattr(x, "shape")[0]  # noqa: B009 - the built-in is the point
            return x * n, ok, m, t, d["b"], c, g
        return f

    @case([(pos, neg)])
    def call_tensor_builtins(ms):
        def f(x, y):
            t = x.sum()
            a = max(t, y.sum())
            b = min(t, y.sum())
            c = abs(y.sum())
            return a, b, c, x * int(t), x * float(t)
        return f

    @case([(pos,), (neg,)])
    def call_inner_jit(ms):
        @ms.jit
        def inner(v):
            if v.sum() > 0:
                return v * 10
            return v
        def f(x):
            return inner(x) + inner(x * -1)
        return f

    # ---------------------------------------------------------- Python data
    @case([(pos, (pos, 2), [neg, "s"], {"k": pos, "n": None}, 3, 0.5, "tag", None)])
    def data_inputs_outputs(ms):
        def f(x, tup, lst, dct, i, fl, s, none):
            y = x + tup[0] * tup[1] + lst[0] + dct["k"] * i * fl
            return (y, None, s + "!", i + 1, fl * 2, dct["n"] is None and none is None,
                    [y, len(lst)], {"out": y, "tag": s})
        return f

    @case([(pos,), (pos, neg, pos), (pos,)],
          kwargs=[{}, {"scale": 3.0, "shift": 1.0}, {"bias": neg}])
    def data_args_kwargs_defaults(ms):
        def f(x, *args, scale=2.0, **kwargs):
            y = x * scale
            for a in args:
                y = y + a
            for k in kwargs:  # noqa: PLC0206 - keys, then items, on purpose
                y = y - kwargs[k]
            return y, len(args), len(kwargs)
        return f

    @case([(pos,)])
    def data_augmented_assignment(ms):
        def f(x):
            i = 1
            i += 2
            i *= 3
            y = x * 1
            y += x
            y *= 2
            y -= 1
            y /= 2
            return y, i
        return f

    @case([(pos,), (neg,)])
    def data_tensor_setitem(ms):
        def f(x):
            y = x * 1
            y[0] = 7.0
            y[1] += 1.0
            if x.sum() > 0:
                y[0] = -1.0
            return y
        return f

    @case([(pos,)])
    def data_list_append(ms):
        def f(x):
            outs = []
            for i in range(3):
                outs.append(x * i)
            outs.append(x.sum())
            return outs[0] + outs[1] + outs[2], len(outs)
        return f

    @case([(f32(1.0, 2.0, 3.0, 4.0, 5.0, 6.0),)])
    def data_shape_in_computation(ms):
        def f(x):
            n = x.shape[0]
            y = x.reshape((n // 2, 2))
            return y * n, y.shape, x.shape[0] * 2
        return f

    # -------------------------------------------------------- syntax levels
    @case([(pos,)])
    def level_numpy_runtime(ms):
        def f(x):
            return Tensor(np.sin(x.asnumpy())) + 1
        return f

    @case([(pos,)])
    def level_numpy_constant(ms):
        def f(x):
            return x + np.sqrt(4.0) + np.array([1.0, 2.0]).sum()
        return f

    @case([(pos,)])
    def level_fstring_len(ms):
        def f(x):
            return x + len(f"v={x}")
        return f

    @case([(pos,)])
    def level_try_except(ms):
        def f(x):
            try:
                y = x + {"a": 1}["b"]
            except KeyError:
                y = x - 1
            return y
        return f

    @case([(pos,)], graph_mode=True)
    def level_graph_mode_context(ms):
        class Net(nn.Cell):
            def construct(self, x):
                try:
                    y = x * 2
                except ValueError:
                    y = x
                return y
        return Net()

    # ---------------------------------------------------------- Parameters
    @case([(pos,), (neg,), (pos,)])
    def param_assign_in_tensor_if(ms):
        class Net(nn.Cell):
            def __init__(self):
                super().__init__()
                self.w = Parameter(Tensor(f32(1.0, 1.0)), name="w")

            def construct(self, x):
                if x.sum() > 0:
                    ops.assign_add(self.w, x)
                else:
                    ops.assign(self.w, self.w * 2)
                return self.w + 0
        net = Net()
        return net, lambda: net.w

    @case([(pos,), (f32(20.0, 20.0),)])
    def param_assign_in_tensor_while(ms):
        acc = Parameter(Tensor(f32(0.0, 0.0)), name="acc")

        def f(x):
            while x.sum() < 20:
                ops.assign_add(acc, x)
                x = x + 1
            return x, acc + 0
        return f, lambda: acc

    @case([(pos,), (neg,)])
    def param_setattr_in_branch(ms):
        class Net(nn.Cell):
            def __init__(self):
                super().__init__()
                self.w = Parameter(Tensor(f32(1.0, 2.0)), name="w")

            def construct(self, x):
                if x.sum() > 0:
                    self.w = self.w + x
                return self.w * 2
        net = Net()
        return net, lambda: net.w

    return out
