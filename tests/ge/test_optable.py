"""The op table under backend="GE": every row's StableHLO is listed with the ops
that have GE converters, and each fully supported row's GE graph (reference
executor) equals XLA.

The full sweep (every OpSpec, about five minutes) is ``slow`` and prints the
coverage table; the default run checks a sample of rows covering each
converter family.
"""
import collections

import pytest

from optable_ge import SPECS_BY_ID, all_specs, run_spec

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
def test_every_row(capsys):
    results = [run_spec(spec) for spec in all_specs()]
    ops = collections.Counter(op for r in results for op in r.ops)
    missing = collections.Counter(op for r in results for op in r.missing)
    graphless = [r for r in results if r.error]
    with capsys.disabled():
        print(f"\nGE coverage of the op table: {len(results)} OpSpecs, "
              f"{sum(1 for r in results if not r.missing and not r.error)} fully converted, "
              f"{len(graphless)} without a graph (value-dependent shapes, host-side checks)")
        print("StableHLO ops seen (rows using them) and whether GE converts them:")
        for op, n in sorted(ops.items()):
            print(f"  {'ok ' if op not in missing else 'NO '} {op}: {n}")
        for r in results:
            if r.missing:
                print(f"  unsupported in {r.spec_id}: {sorted(r.missing)}")
    assert set(missing) <= KNOWN_UNSUPPORTED, sorted(set(missing) - KNOWN_UNSUPPORTED)
    mismatches = [(r.spec_id, r.mismatch) for r in results if r.mismatch]
    assert not mismatches, mismatches
