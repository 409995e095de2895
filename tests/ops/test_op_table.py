"""Every op row against numpy: forward per dtype, gradient vs numerical."""
import importlib
import pkgutil
import zlib

import jax
import numpy as np
import pytest

import msxla as ms
from msxla.common.tensor import wrap
from msxla.errors import ConcretizationError
from msxla.ops.opdef import REGISTRY
from helpers import assert_close, numerical_grad
from optable import OpSpec

# Rows that are tested elsewhere, with the reason (keep this list short).
TESTED_ELSEWHERE = {
    "bounding_box_decode": "test_legacy_ops_golden.py: MindSpore 2.10 goldens, eager and jitted",
    "bounding_box_encode": "test_legacy_ops_golden.py: MindSpore 2.10 goldens, eager and jitted",
    "check_valid": "test_legacy_ops_golden.py: MindSpore 2.10 goldens, eager and jitted",
    "crop_and_resize": "test_legacy_ops_golden.py: MindSpore 2.10 goldens, eager and jitted",
    "depth_to_space": "test_legacy_ops_golden.py: MindSpore 2.10 goldens, eager and jitted",
    "iou": "test_legacy_ops_golden.py: MindSpore 2.10 goldens, eager and jitted",
    "nms_with_mask": "test_legacy_ops_golden.py: MindSpore 2.10 goldens, eager and jitted",
    "roi_align": "test_legacy_ops_golden.py: MindSpore 2.10 goldens, eager and jitted",
    "space_to_depth": "test_legacy_ops_golden.py: MindSpore 2.10 goldens, eager and jitted",
    "choice_with_mask": "test_random.py: a random draw; its properties are checked",
    "ctc_loss": "test_ctc_golden.py: MindSpore 2.10 goldens (loss, log_alpha, gradient)",
    "_ctc_logits": "test_ctc_golden.py: MindSpore 2.10 goldens (ops.CTCLoss loss, gradient)",
}


def _all_specs():
    import os
    here = os.path.dirname(__file__)
    specs = []
    for info in pkgutil.iter_modules([here]):
        if info.name.startswith("spec_"):
            specs.extend(importlib.import_module(info.name).SPECS)
    return specs


SPECS = _all_specs()
GRAD = [s for s in SPECS if s.grad]


def _forward_params():
    """Every row's first dtype in the default run, and a fixed third of its
    other dtypes (row ``i``'s dtype ``j`` when ``(i + j) % 3 == 0``, so every
    dtype a row lists runs for some rows); ``-m slow`` runs the rest."""
    out = []
    for i, spec in enumerate(SPECS):
        for j, d in enumerate(spec.dtypes):
            item = (spec, np.dtype(d))
            slow = j > 0 and (i + j) % 3 != 0
            out.append(pytest.param(item, id=_ids(item), marks=pytest.mark.slow if slow else ()))
    return out


def _ids(item):
    spec, dtype = item if isinstance(item, tuple) else (item, None)
    return f"{spec.name}{'-' + spec.id if spec.id else ''}{'-' + dtype.name if dtype else ''}"


def _seed(spec):
    """A per-spec seed that is the same in every run (``hash()`` of a str is not)."""
    return zlib.crc32(spec.name.encode())


def _to_tensor(x):
    return ms.Tensor(x) if isinstance(x, np.ndarray) else x


@pytest.mark.parametrize("item", _forward_params())
def test_forward_matches_numpy(item):
    spec, dtype = item
    rng = np.random.default_rng(_seed(spec))
    inputs = spec.make_inputs(rng, dtype)
    out = spec.call()(*[_to_tensor(x) for x in inputs], **spec.kwargs)
    expected = spec.ref(*inputs, **spec.kwargs)
    assert_close(out, expected, rtol=spec.rtol, atol=spec.atol, check_dtype=spec.check_dtype)


@pytest.mark.parametrize("spec", GRAD, ids=_ids)
def test_grad_matches_numerical(spec):
    rng = np.random.default_rng(1 + _seed(spec))
    inputs = spec.make_inputs(rng, np.float64)
    diff = spec.grad_inputs if spec.grad_inputs is not None else tuple(
        i for i, x in enumerate(inputs) if isinstance(x, np.ndarray) and x.dtype.kind == "f")
    fn = spec.call()

    def f_jax(*diff_arrays):
        args = list(inputs)
        for i, a in zip(diff, diff_arrays):
            args[i] = a
        args = [wrap(a) if not isinstance(a, np.ndarray) or i in diff else ms.Tensor(a)
                for i, a in enumerate(args)]
        out = fn(*args, **spec.kwargs)
        out = out[0] if isinstance(out, (tuple, list)) else out
        return out._data.sum()

    def f_np(*diff_arrays):
        args = list(inputs)
        for i, a in zip(diff, diff_arrays):
            args[i] = a
        out = spec.ref(*args, **spec.kwargs)
        out = out[0] if isinstance(out, (tuple, list)) else out
        return np.sum(out)

    grad = jax.grad(f_jax, argnums=tuple(range(len(diff))))
    try:  # one compiled program: much faster than op by op
        got = jax.jit(grad)(*[inputs[i] for i in diff])
    except ConcretizationError:  # an output shape depends on values (masked_select)
        got = grad(*[inputs[i] for i in diff])
    want = numerical_grad(f_np, [inputs[i] for i in diff], eps=1e-6)
    for g, w in zip(got, want):
        np.testing.assert_allclose(np.asarray(g), w, rtol=1e-4, atol=1e-6)


def test_every_row_has_a_spec():
    covered = {s.name for s in SPECS} | set(TESTED_ELSEWHERE)
    missing = sorted(set(REGISTRY) - covered)
    assert not missing, f"op rows without an OpSpec: {missing}"


def test_specs_name_real_rows():
    unknown = sorted({s.name for s in SPECS} - set(REGISTRY))
    assert not unknown, f"specs for rows that do not exist: {unknown}"
