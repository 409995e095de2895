"""ast coverage programs: control flow on Tensors and on Python values.

Each program is a plain function or Cell of ``ms`` (MindSpore or msxla); see
``ast_cases.py``. Calls with positive and negative inputs take both sides of
every Tensor condition.
"""


def control_cases(ms, Case, f32):
    nn = ms.nn
    pos, neg = f32(1.0, 2.0), f32(-1.0, -3.0)
    out = {}

    def case(calls, **kw):
        def deco(make):
            out[make.__name__] = Case(make, calls, **kw)
            return make
        return deco

    # ------------------------------------------------ Tensor control flow
    @case([(pos,), (neg,), (f32(0.0, 0.0),)])
    def if_elif_else(ms):
        def f(x):
            if x.sum() > 1:
                y = x * 2
            elif x.sum() < -1:
                y = x - 10
            else:
                y = x + 100
            return y
        return f

    @case([(pos,), (neg,)])
    def conditional_expression(ms):
        def f(x):
            y = x * 3 if x.sum() > 0 else x - 3
            return y + 1
        return f

    @case([(pos,), (f32(40.0, 50.0),)])
    def while_tensor(ms):
        def f(x):
            while x.sum() < 100:
                x = x * 2 + 1
            return x
        return f

    @case([(pos,), (f32(30.0, 40.0),)])
    def while_break(ms):
        def f(x):
            i = 0
            while x.sum() < 1000:
                x = x * 2
                i = i + 1
                if x.sum() > 50:
                    break
            return x, i
        return f

    @case([(pos,), (neg,)])
    def for_break_tensor(ms):
        def f(x):
            s = x * 0
            for k in range(6):
                s = s + x * k
                if s.sum() > 10:
                    break
            return s
        return f

    @case([(pos,), (neg,)])
    def continue_tensor(ms):
        def f(x):
            s = x * 0
            for k in range(5):
                if (x * k).sum() > 4:
                    continue
                s = s + k
            return s
        return f

    @case([(pos,), (neg,)])
    def return_in_branch(ms):
        def f(x):
            if x.sum() > 0:
                return x * 2
            y = x - 1
            return y
        return f

    @case([(pos,), (f32(60.0, 60.0),)])
    def return_in_loop(ms):
        def f(x):
            s = x * 0
            while x.sum() < 100:
                x = x * 2
                if x.sum() > 20:
                    return x + 1000
                s = s + x
            return s
        return f

    @case([(pos, neg), (pos, pos), (neg, pos)])
    def and_or_not(ms):
        def f(x, y):
            a = x.sum() > 0 and y.sum() > 0
            b = x.sum() > 0 or y.sum() > 0
            c = not x.sum() > 0
            if a or c:
                z = x + y
            else:
                z = x - y
            return a, b, c, z
        return f

    @case([(pos,), (neg,)])
    def nested_if_in_while(ms):
        def f(x):
            i = 0
            while i < 4:
                if x.sum() > 0:
                    if x.max() > 1:
                        x = x + 1
                    else:
                        x = x * 2
                else:
                    x = x - 1
                i += 1
            return x
        return f

    # ------------------------------------------- Python-valued control flow
    @case([(pos,)])
    def if_on_constants_and_shapes(ms):
        flag = True

        def f(x):
            if flag:
                x = x + 1
            if x.shape[0] == 2:
                x = x * 10
            if len(x.shape) > 3:
                x = x.sum()
            return x
        return f

    @case([(pos,)])
    def if_on_training_flag(ms):
        class Drop(nn.Cell):
            def __init__(self):
                super().__init__()
                self.scale = 3.0

            def construct(self, x):
                if self.training:
                    return x * self.scale
                return x

        net = Drop()
        net.set_train(True)
        return net

    @case([(pos,)])
    def for_range_constant(ms):
        def f(x):
            for i in range(3):
                x = x + i
            for i in range(1, 7, 2):
                x = x * i
            return x
        return f

    @case([(pos, (pos, neg), [1.0, 2.0], {"a": 2.0, "b": 3.0})])
    def for_containers(ms):
        def f(x, tup, lst, dct):
            for t in tup:
                x = x + t
            for v in lst:
                x = x * v
            for k in dct:
                x = x + dct[k]
            for k, v in dct.items():
                x = x - v
            return x
        return f

    @case([(pos,), (neg,)])
    def for_cell_list_sequential(ms):
        class Affine(nn.Cell):
            def __init__(self, k):
                super().__init__()
                self.k = k

            def construct(self, x):
                if x.sum() > 0:
                    return x * self.k
                return x - self.k

        class Net(nn.Cell):
            def __init__(self):
                super().__init__()
                self.layers = nn.CellList([Affine(2.0), Affine(3.0)])
                self.seq = nn.SequentialCell([Affine(0.5), Affine(4.0)])

            def construct(self, x):
                for layer in self.layers:
                    x = layer(x)
                return self.seq(x)
        return Net()

    @case([(pos, neg)])
    def zip_enumerate(ms):
        def f(x, y):
            out = x * 0
            for i, (a, b) in enumerate(zip((x, y), (y, x))):
                out = out + a * b * (i + 1)
            return out
        return f

    @case([(pos,)])
    def while_python_value(ms):
        def f(x):
            i = 0
            while i < 3:
                x = x * 2
                i += 1
            return x, i
        return f

    return out
