"""Shared capture-mode suite: what a Tensor condition joins. Parameters joined
with Tensors (or with other Parameters) in branches and loops, branches that
write different Parameters, and loops whose carried variables nothing reads
after a ``break``, equal PyNative, Parameters compared after every call."""
import numpy as np

from msxla import Parameter, Tensor, nn, ops
from agree import Program, agree


def full(shape, v):
    return Tensor(np.full(shape, v, np.float32))


class Joins(nn.Cell):
    def __init__(self):
        super().__init__()
        self.a = Parameter(full(2, 1.0), name="a")
        self.b = Parameter(full(3, 1.0), name="b")
        self.c = Parameter(full(3, 2.0), name="c")
        self.P = Parameter(full(4, 1.0), name="P")
        self.Q = Parameter(full(4, 5.0), name="Q")

    def construct(self, x3, x4):
        return (self.write_different_parameters(x3), self.parameter_or_tensor(x4),
                self.parameter_or_parameter(x4), self.parameter_through_loop(x4),
                break_leaves_unread_variable(x4, x4 - 1.5),
                continue_leaves_unread_variable(x4, x4 - 1.0))

    def write_different_parameters(self, x):
        if x.sum() > 0:
            ops.assign_add(self.a, x[:2])      # shapes differ from b's
            self.c.add_(1.0)
        else:
            ops.assign_add(self.b, x)
            ops.assign(self.c, self.b * 2)     # same shape as b
        return self.a.sum() + self.b.sum() + self.c.sum()

    def parameter_or_tensor(self, x):
        p = self.P
        if x.sum() > 0:
            p = x * 2
        return p + 1

    def parameter_or_parameter(self, x):
        p = self.P if x.mean() > 0 else self.Q
        p.add_(1.0)                             # the chosen Parameter changes
        return p * 1

    def parameter_through_loop(self, x):
        p = self.Q
        i = 0
        while x.sum() > i:
            i += 2
            p = p * 0.5
        return p + 0


def break_leaves_unread_variable(x, b):
    for _ in range(3):
        if b.max() > 1.0:
            break
        b = b * 1.3 + 0.2
    return x * 2


def continue_leaves_unread_variable(x, b):
    for _ in range(4):
        if b.sum() > 2.0:
            continue
        b = b + 1.0
    return x + 1


def build_joins():
    net = Joins()
    calls = [(full(3, 1.0), full(4, 0.5)), (full(3, -1.0), full(4, -0.5)),
             (full(3, 1.0), full(4, 2.0))]
    return Program(net, calls, {n: getattr(net, n) for n in "abcPQ"})


def test_parameters_and_loops_join_as_pynative(any_mode):
    agree(any_mode, build_joins, tensor_control=True)


def test_branches_writing_equal_shaped_parameters_stay_one_graph():
    """Parameters are told apart by identity (Tensor == is element-wise): two of one
    shape written in the two branches give one graph, so fullgraph=True accepts it."""
    import msxla as ms
    p, q = Parameter(full(3, 1.0), name="p"), Parameter(full(3, 2.0), name="q")

    def step(x):
        if x.sum() > 0:
            ops.assign_add(p, x)
        else:
            ops.assign_add(q, x)
        return p + q

    fn = ms.jit(step, capture_mode="ast", fullgraph=True)
    outs = [fn(full(3, s)).asnumpy().tolist() for s in (1.0, -1.0, 1.0)]
    assert outs == [[4.0] * 3, [3.0] * 3, [4.0] * 3]
    assert p.asnumpy().tolist() == [3.0] * 3 and q.asnumpy().tolist() == [1.0] * 3
    assert fn.stats.captures == 1
