"""Test helper: a jax function's GE graph on the reference executor vs XLA."""
from __future__ import annotations

import jax
import numpy as np

from msxla import ge


def check_ge(fn, *args, rtol=1e-5, atol=1e-5, name="f"):
    """Lower ``fn`` with jax, convert to GE, round-trip the bytes, run the
    reference executor and compare every output (dtype, shape, values) with
    XLA's. Returns the GE model."""
    lowered = jax.jit(fn).lower(*args)
    model = ge.convert(lowered, name)
    parsed = ge.from_bytes(model.to_bytes())
    assert parsed == model
    outs, _ = parsed.run(*args)
    expected = jax.tree_util.tree_leaves(jax.jit(fn)(*args))
    assert len(outs) == len(expected)
    for got, want in zip(outs, expected):
        want = np.asarray(want)
        assert got.dtype == want.dtype, (got.dtype, want.dtype)
        assert got.shape == want.shape, (got.shape, want.shape)
        if want.dtype.kind in "fc" or str(want.dtype) == "bfloat16":
            np.testing.assert_allclose(got.astype(np.complex128), want.astype(np.complex128),
                                       rtol=rtol, atol=atol, equal_nan=True)
        else:
            np.testing.assert_array_equal(got, want)
    return model
