"""OpSpecs: SplitWithSize, AddExt, DiagPart and polar against numpy."""
import numpy as np

import msxla as ms
from optable import OpSpec


def _prim(name):
    from msxla.ops import auto_generate, operations
    return getattr(auto_generate, name, None) or getattr(operations, name)


SPECS = [
    OpSpec("split_with_size", lambda x: tuple(np.split(x, [1, 3], axis=1)), ((2, 6, 3),),
           dtypes=(np.float32, np.int32), grad=True,
           fn=lambda x: _prim("SplitWithSize")()(x, (1, 2, 3), 1)),
    OpSpec("add_ext", lambda x, y: x + 2.5 * y, ((2, 3), (3,)), grad=True,
           fn=lambda x, y: _prim("AddExt")()(x, y, 2.5)),
    OpSpec("add_ext", lambda x, y: x + y, ((2, 3), (2, 3)), dtypes=(np.int32,), id="alpha1",
           fn=lambda x, y: _prim("AddExt")()(x, y)),
    OpSpec("diag_part", lambda x: np.diagonal(x.reshape(6, 6)).reshape(2, 3), ((2, 3, 2, 3),),
           dtypes=(np.float32, np.int32), grad=True, fn=lambda x: ms.ops.DiagPart()(x)),
]

SPECS += [
    OpSpec("polar", lambda r, a: (r * np.exp(1j * a)).astype(np.complex64 if r.dtype ==
                                                            np.float32 else np.complex128),
           ((2, 3), (2, 3)), dtypes=(np.float32, np.float64)),
]
