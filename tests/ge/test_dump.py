"""Expected text of the GE dump for a few small graphs."""
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from msxla import ge

A = np.ones((2, 3), np.float32)
W = np.ones((4, 3), np.float32)


def _dump(fn, *args, name):
    return ge.convert(jax.jit(fn).lower(*args), name).dump()


def test_dump_a_times_b_plus_c():
    assert _dump(lambda a, b, c: a * b + c, A, A, A, name="f") == """\
graph f
  input_0: float32[2,3] = Data() index=0
  input_1: float32[2,3] = Data() index=1
  input_2: float32[2,3] = Data() index=2
  Mul_0: float32[2,3] = Mul(input_0, input_1)
  Add_0: float32[2,3] = Add(Mul_0, input_2)
  NetOutput(Add_0)
"""


def test_dump_while_loop_with_subgraphs():
    assert _dump(lambda x: lax.fori_loop(0, 3, lambda i, v: v * 2.0, x), A,
                 name="loop") == """\
graph loop
  input_0: float32[2,3] = Data() index=0
  Const_0: int64[] = Const() value=int64[]{0}
  While_0: (int64[], float32[2,3]) = While(Const_0, input_0) subgraphs=[while_cond, while_body]
  NetOutput(While_0:1)

subgraph while_cond
  Data_0: int64[] = Data() _parent_node_index=0 index=0
  Data_1: float32[2,3] = Data() _parent_node_index=1 index=1
  Const_1: int64[] = Const() value=int64[]{3}
  Less_0: bool[] = Less(Data_0, Const_1)
  NetOutput(Less_0)

subgraph while_body
  Data_2: int64[] = Data() _parent_node_index=0 index=0
  Data_3: float32[2,3] = Data() _parent_node_index=1 index=1
  Const_2: float32[] = Const() value=float32[]{2.0}
  Const_3: int64[2] = Const() value=int64[2]{2, 3}
  BroadcastTo_0: float32[2,3] = BroadcastTo(Const_2, Const_3)
  Mul_0: float32[2,3] = Mul(Data_3, BroadcastTo_0)
  Const_4: int64[] = Const() value=int64[]{1}
  Add_0: int64[] = Add(Data_2, Const_4)
  NetOutput(Add_0, Mul_0)
"""


def test_dump_dense_relu_mean_argmax():
    fn = lambda x, w: (jnp.mean(jax.nn.relu(x @ w.T), axis=0),  # noqa: E731
                       jnp.argmax(x, 1).astype(jnp.int32))
    assert _dump(fn, A, W, name="dense") == """\
graph dense
  input_0: float32[2,3] = Data() index=0
  input_1: float32[4,3] = Data() index=1
  MatMulV2_0: float32[2,4] = MatMulV2(input_0, input_1) transpose_x2=true
  Const_1: float32[] = Const() value=float32[]{0.0}
  Const_2: int64[2] = Const() value=int64[2]{2, 4}
  BroadcastTo_0: float32[2,4] = BroadcastTo(Const_1, Const_2)
  Maximum_0: float32[2,4] = Maximum(MatMulV2_0, BroadcastTo_0)
  Const_3: int64[1] = Const() value=int64[1]{0}
  ReduceMean_0: float32[4] = ReduceMean(Maximum_0, Const_3)
  Const_12: int32[] = Const() value=int32[]{1}
  ArgMaxV2_0: int64[2] = ArgMaxV2(input_0, Const_12) dtype=int64
  Cast_0: int32[2] = Cast(ArgMaxV2_0) dst_type=3(int32)
  NetOutput(ReduceMean_0, Cast_0)
"""


def test_dump_of_a_jitted_cell_shows_variables_and_assign():
    import msxla as ms
    from msxla import Parameter, Tensor, nn

    class Counter(nn.Cell):
        def __init__(self):
            super().__init__()
            self.total = Parameter(Tensor(np.zeros(3, np.float32)), name="total")

        def construct(self, x):
            self.total = self.total + x
            return self.total * 2

    net = Counter()
    jitted = ms.jit(net, backend="GE")
    out = jitted(Tensor(np.ones(3, np.float32)))
    np.testing.assert_allclose(out.asnumpy(), [2, 2, 2])
    np.testing.assert_allclose(net.total.asnumpy(), [1, 1, 1])
    (entry,) = jitted.cache.entries.values()
    assert entry.compiled.dump() == """\
graph Counter.construct
  input_0: float32[3] = Data() index=0
  total: float32[3] = Variable() index=0
  Add_0: float32[3] = Add(total, input_0)
  Const_0: float32[] = Const() value=float32[]{2.0}
  Const_1: int64[1] = Const() value=int64[1]{3}
  BroadcastTo_0: float32[3] = BroadcastTo(Const_0, Const_1)
  Mul_0: float32[3] = Mul(Add_0, BroadcastTo_0)
  Assign_0: float32[3] = Assign(total, Add_0)
  NetOutput(Mul_0, ^Assign_0)
"""
