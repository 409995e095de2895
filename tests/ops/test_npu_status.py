"""The Ascend float-status Primitives construct and, called, raise RuntimeError naming
the op and what to use instead, as MindSpore 2.10 does on CPU and GPU."""
import numpy as np
import pytest

import msxla as ms
from msxla import ops


@pytest.mark.parametrize("name,args", [("NPUAllocFloatStatus", ()),
                                       ("NPUClearFloatStatus", (np.zeros(8, np.float32),)),
                                       ("NPUGetFloatStatus", (np.zeros(8, np.float32),))])
def test_construct_then_refuse(name, args):
    prim = getattr(ops, name)()
    assert getattr(ms.ops.operations, name) is type(prim)
    with pytest.raises(RuntimeError, match=rf"(?s)Unsupported op \[{name}\].*FloatStatus"):
        prim(*(ms.Tensor(a) for a in args))
