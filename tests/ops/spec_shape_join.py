"""OpSpecs: joining and splitting tensors (concat, stack, split, chunk, unbind, meshgrid)."""
import numpy as np

from msxla import ops
from optable import OpSpec

F = (np.float32, np.float64, np.float16)
ALL = F + (np.int32, np.int64, np.uint8, np.bool_)
FI = (np.float32, np.float64, np.int32, np.int64)


def _join(fn, **kw):
    return lambda *xs: fn(xs, **kw)


def _np_split(sizes, axis):
    def ref(x):
        return tuple(np.split(x, np.cumsum(sizes)[:-1], axis))
    return ref


SPECS = [
    OpSpec("addn", lambda *xs: sum(xs[1:], xs[0]), ((2, 3), (2, 3), (2, 3)), fn=_join(ops.addn),
           dtypes=FI + (np.float16,), grad=True),
    OpSpec("accumulate_n", lambda *xs: xs[0] + xs[1], ((4,), (4,)), fn=_join(ops.accumulate_n),
           dtypes=FI, grad=True),
    OpSpec("concat", _join(np.concatenate, axis=1), ((2, 3), (2, 2), (2, 1)),
           fn=_join(ops.concat, axis=1), dtypes=ALL, grad=True),
    OpSpec("concat", _join(np.concatenate), ((2, 3), (1, 3)), fn=_join(ops.concat),
           dtypes=(np.float32,), id="default-axis"),
    OpSpec("cat", _join(np.concatenate, axis=-1), ((2, 3), (2, 2)), fn=_join(ops.cat, axis=-1),
           dtypes=FI, grad=True),
    OpSpec("stack", _join(np.stack, axis=-1), ((2, 3), (2, 3)), fn=_join(ops.stack, axis=-1),
           dtypes=ALL, grad=True),
    OpSpec("stack", _join(np.stack, axis=1), ((2, 3), (2, 3), (2, 3)),
           fn=_join(ops.stack, axis=1), dtypes=(np.int32,), id="middle"),
    OpSpec("hstack", _join(np.hstack), ((2, 3), (2, 2)), fn=_join(ops.hstack), dtypes=FI,
           grad=True),
    OpSpec("hstack", _join(np.hstack), ((3,), (2,)), fn=_join(ops.hstack), dtypes=(np.int64,),
           id="1d"),
    OpSpec("vstack", _join(np.vstack), ((3,), (2, 3)), fn=_join(ops.vstack), dtypes=FI,
           grad=True),
    OpSpec("dstack", _join(np.dstack), ((2, 3), (2, 3)), fn=_join(ops.dstack), dtypes=FI,
           grad=True),
    OpSpec("column_stack", _join(np.column_stack), ((3,), (3, 2)), fn=_join(ops.column_stack),
           dtypes=FI, grad=True),
    OpSpec("split", _np_split([2, 2, 1], 1), ((2, 5, 3),), fn=lambda x: ops.split(x, 2, 1),
           dtypes=ALL, grad=True),
    OpSpec("split", _np_split([1, 4], 1), ((2, 5, 3),), fn=lambda x: ops.split(x, [1, 4], 1),
           dtypes=(np.float32,), grad=True, id="sections"),
    OpSpec("chunk", _np_split([2, 2, 1], 1), ((2, 5, 3),), fn=lambda x: ops.chunk(x, 3, 1),
           dtypes=FI, grad=True),
    OpSpec("chunk", _np_split([1] * 5, 0), ((5, 2),), fn=lambda x: ops.chunk(x, 7),
           dtypes=(np.float32,), id="more-chunks-than-rows"),
    OpSpec("tensor_split", lambda x: tuple(np.array_split(x, 3, 1)), ((2, 5),),
           fn=lambda x: ops.tensor_split(x, 3, 1), dtypes=FI, grad=True),
    OpSpec("tensor_split", lambda x: tuple(np.split(x, [1, 3], 1)), ((2, 5),),
           fn=lambda x: ops.tensor_split(x, (1, 3), 1), dtypes=(np.int32,), id="indices"),
    OpSpec("tensor_split", lambda x: tuple(np.array_split(x, 6, 0)), ((4,),),
           fn=lambda x: ops.tensor_split(x, 6), dtypes=(np.float32,), id="empty-pieces"),
    OpSpec("hsplit", lambda x: tuple(np.array_split(x, 2, 1)), ((2, 5),),
           fn=lambda x: ops.hsplit(x, 2), dtypes=FI, grad=True),
    OpSpec("vsplit", lambda x: tuple(np.split(x, [1], 0)), ((3, 2),),
           fn=lambda x: ops.vsplit(x, [1]), dtypes=FI, grad=True),
    OpSpec("dsplit", lambda x: tuple(np.array_split(x, 2, 2)), ((2, 2, 4),),
           fn=lambda x: ops.dsplit(x, 2), dtypes=FI, grad=True),
    OpSpec("unbind", lambda x, dim: tuple(np.moveaxis(x, dim, 0)), ((2, 3, 4),), {"dim": 1},
           dtypes=ALL, grad=True),
    OpSpec("meshgrid", lambda a, b: tuple(np.meshgrid(a, b)), ((3,), (4,)),
           fn=lambda a, b: ops.meshgrid(a, b), dtypes=FI, grad=True),
    OpSpec("meshgrid", lambda a, b, c: tuple(np.meshgrid(a, b, c, indexing="ij")),
           ((3,), (4,), (2,)), fn=lambda a, b, c: ops.meshgrid(a, b, c, indexing="ij"),
           dtypes=(np.float32,), id="ij"),
    OpSpec("row_stack", _join(np.vstack), ((3,), (2, 3)), fn=_join(ops.row_stack), dtypes=FI,
           grad=True),
    OpSpec("cartesian_prod", lambda a, b: np.array([[x, y] for x in a for y in b]),
           ((3,), (2,)), fn=ops.cartesian_prod, dtypes=FI, grad=True),
    OpSpec("cartesian_prod", lambda a: a, ((3,),), fn=ops.cartesian_prod,
           dtypes=(np.float32,), id="single"),
]
