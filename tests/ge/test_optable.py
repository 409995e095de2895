"""The op table under backend="GE": every row's StableHLO is listed with the ops
that have GE converters, and each fully supported row's GE graph (reference
executor) equals XLA.

The full sweep (every OpSpec, about five minutes) is ``slow``; the default
run checks a sample of rows covering each converter family. The coverage
table (which StableHLO ops the rows use and whether GE converts them) is a
report, not test output: ``python tests/ge/optable_ge.py``.
"""
import collections

import pytest

from optable_ge import SPECS_BY_ID, all_specs, coverage_table, run_spec

# StableHLO ops jax emits for op-table rows that GE has no operator for
# (LAPACK LU and QR factorisations: det, inverse, solve, qr, matrix_exp, ...).
KNOWN_UNSUPPORTED = {
    "stablehlo.custom_call @lapack_sgetrf_ffi", "stablehlo.custom_call @lapack_dgetrf_ffi",
    "stablehlo.custom_call @lapack_sgeqrf_ffi", "stablehlo.custom_call @lapack_dgeqrf_ffi",
    "stablehlo.custom_call @lapack_sorgqr_ffi", "stablehlo.custom_call @lapack_dorgqr_ffi",
}

SAMPLE = [
    "add", "div", "floor_divide", "remainder", "pow", "exp", "erf", "erfinv", "sigmoid",
    "gelu", "abs", "bitwise_and", "bitwise_left_shift", "logical_xor", "isclose", "where",
    "cast", "reshape", "transpose", "cat", "flip", "pad", "gather", "gather_elements",
    "scatter", "scatter_add", "index_add", "matmul", "einsum", "conv2d", "conv1d",
    "conv_transpose2d", "max_pool2d", "avg_pool2d", "sum", "mean", "prod", "argmax", "cumsum",
    "logcumsumexp", "sort", "topk", "softmax", "layer_norm", "batch_norm", "cross_entropy",
    "cholesky", "svd", "arange", "one_hot",
]


def _sample():
    ids = []
    for name in SAMPLE:
        found = [i for i, s in SPECS_BY_ID.items() if s.name == name]
        if found:
            ids.append(found[0])
    return ids


@pytest.mark.parametrize("rid", _sample())
def test_sampled_rows_match_xla(rid):
    result = run_spec(SPECS_BY_ID[rid], compiled=False)
    assert not result.error, result.error
    assert not result.missing, f"no GE converter for {sorted(result.missing)}"
    assert not result.mismatch, result.mismatch


def test_sample_covers_the_converter_families():
    from msxla.ge.registry import supported_ops
    families = {"stablehlo.convolution", "stablehlo.reduce_window", "stablehlo.gather",
                "stablehlo.scatter", "stablehlo.sort", "stablehlo.dot_general",
                "stablehlo.while", "stablehlo.reduce", "stablehlo.iota", "chlo.top_k"}
    assert families <= set(supported_ops())
    assert len(_sample()) >= 45


@pytest.mark.slow
def test_every_row():
    results = [run_spec(spec) for spec in all_specs()]
    missing = collections.Counter(op for r in results for op in r.missing)
    assert set(missing) <= KNOWN_UNSUPPORTED, (sorted(set(missing) - KNOWN_UNSUPPORTED),
                                               coverage_table(results))
    mismatches = [(r.spec_id, r.mismatch) for r in results if r.mismatch]
    assert not mismatches, mismatches
