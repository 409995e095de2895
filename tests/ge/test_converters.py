"""Each StableHLO converter family: the GE graph on the reference executor equals XLA.

The functions are plain jax, so each case pins the StableHLO forms jax emits
(including its helpers: argmax reductions, sort comparators, cumulative
windows, max-pool gradients) rather than msxla's own ops.
"""
import jax
import jax.numpy as jnp
import numpy as np
import pytest
from ge_check import check_ge
from jax import lax

R = np.random.default_rng(0)
A = R.standard_normal((3, 4)).astype(np.float32)
B = R.standard_normal((3, 4)).astype(np.float32)
N = R.integers(-7, 8, (3, 4)).astype(np.int32)
J = R.integers(-3, 4, (3, 4)).astype(np.int32)
U = R.integers(0, 2**32 - 1, (3, 4), dtype=np.uint64).astype(np.uint32)
X4 = R.standard_normal((2, 3, 8, 8)).astype(np.float32)
W4 = R.standard_normal((4, 3, 3, 3)).astype(np.float32)
P = np.abs(A) + 0.5


def _conv(x, w, stride=(1, 1), pad="SAME", dil=(1, 1), groups=1):
    return lax.conv_general_dilated(x, w, stride, pad, rhs_dilation=dil,
                                    feature_group_count=groups,
                                    dimension_numbers=("NCHW", "OIHW", "NCHW"))


CASES = {
    "arith": (lambda x, y: (x + y, x - y, x * y, x / y, jnp.maximum(x, y), jnp.minimum(x, y),
                            jnp.arctan2(x, y), jnp.fmod(x, y)), (A, B)),
    "unary": (lambda x: (-x, jnp.abs(x), jnp.exp(x), jnp.tanh(x), jnp.sin(x), jnp.cos(x),
                         jnp.floor(x), jnp.ceil(x), jnp.sign(x), jnp.round(x), jnp.expm1(x),
                         jax.nn.sigmoid(x), jnp.isfinite(x)), (A,)),
    "positive": (lambda x: (jnp.sqrt(x), lax.rsqrt(x), jnp.log(x), jnp.log1p(x), x ** 1.5,
                            jnp.cbrt(x), jnp.tan(x)), (P,)),
    "chlo": (lambda x: (jax.scipy.special.erf(x), jnp.arcsinh(x), jnp.sinh(x), jnp.square(x),
                        jax.scipy.special.erfinv(x * 0.3), jnp.arcsin(x * 0.3),
                        jax.scipy.special.gammaln(x + 3), jnp.nextafter(x, x + 1)), (A,)),
    "round_afz": (lambda x: lax.round(x * 4, lax.RoundingMethod.AWAY_FROM_ZERO), (A,)),
    "compare_select": (lambda x, y: (x < y, x >= y, x == y, jnp.where(x > y, x, y),
                                     jnp.clip(x, -0.5, 0.5)), (A, B)),
    "int_div_rem": (lambda x, y: (lax.div(x, y), lax.rem(x, y), x // 3, x % 3), (N, J)),
    "bitwise": (lambda x, y: (x & y, x | y, x ^ y, ~x, x << (y & 7), x >> (y & 7),
                              lax.shift_right_logical(x, y & 7), lax.population_count(x)),
                (N, J)),
    "shift_overflow": (lambda x, s: (lax.shift_left(x, s), lax.shift_right_arithmetic(x, s),
                                     lax.shift_right_logical(x, s)),
                       (N, np.full((3, 4), 40, np.int32))),
    "uint32": (lambda u: (u >> np.uint32(3), u * np.uint32(2654435761), u ^ (u << np.uint32(7))),
               (U,)),
    "logical": (lambda x, y: ((x > 0) & (y > 0), (x > 0) | (y > 0), (x > 0) ^ (y > 0),
                              ~(x > 0)), (A, B)),
    "convert": (lambda x: (x.astype(jnp.int32), x.astype(jnp.bool_), x.astype(jnp.float16),
                           x.astype(jnp.bfloat16).astype(jnp.float32),
                           lax.bitcast_convert_type(x, jnp.int32)), (A,)),
    "complex": (lambda x, y: (lax.complex(x, y), jnp.abs(lax.complex(x, y)),
                              jnp.real(lax.complex(x, y) * 2)), (A, B)),
    "iota_const": (lambda x: (x + jnp.arange(4, dtype=jnp.float32), jnp.arange(6).reshape(2, 3),
                              x * np.array([1., 2, 3, 4], np.float32)), (A,)),
    "shape": (lambda x: (x.reshape(4, 3), x.T, jnp.broadcast_to(x[:, None, :], (3, 2, 4)),
                         jnp.concatenate([x, x], 1), x[1:, ::2], jnp.flip(x, 0),
                         jnp.pad(x, ((1, 2), (0, 1))),
                         lax.pad(x, np.float32(0), ((1, -1, 1), (-1, 2, 0)))), (A,)),
    "dynamic_slice": (lambda x, i: (
        lax.dynamic_slice(x, (i, i), (2, 2)),
        lax.dynamic_update_slice(x, jnp.ones((2, 2), jnp.float32), (i, i + 5))),
        (A, np.int32(2))),
    "gather": (lambda x, i: (x[i], x[:, i], jnp.take(x, jnp.array([2, 0, 5]), axis=1,
                                                      mode="clip"),
                             jnp.take_along_axis(x, jnp.argsort(x, 1), 1), x[[0, 2], 1:3]),
               (A, np.int32(1))),
    "scatter": (lambda x: (x.at[0, 1].add(3.0), x.at[1].set(2.0), x.at[:, 2].max(0.5),
                           x.at[jnp.array([0, 0, 2])].add(1.0), x.at[5].set(9.0),
                           x.at[1].multiply(3.0), x.at[jnp.array([1, 1]), 0].min(-5.0)), (A,)),
    "dot": (lambda x, y: (x @ y.T, x.T @ y, jnp.einsum("ij,ij->i", x, y),
                          jnp.einsum("bij,bjk->bik", x.reshape(3, 2, 2), y.reshape(3, 2, 2))),
            (A, B)),
    "dot_int": (lambda x, y: x @ y.T, (N, J)),
    "conv": (lambda x, w: (_conv(x, w), _conv(x, w, (2, 2), ((1, 0), (2, 1))),
                           _conv(x, w, dil=(2, 1), pad="VALID")), (X4, W4)),
    "conv_grouped_1d_3d": (lambda x: (
        _conv(x, jnp.full((6, 1, 3, 3), 0.1, jnp.float32), groups=3),
        lax.conv_general_dilated(x[:, :, 0], jnp.ones((2, 3, 3), jnp.float32), (2,), "SAME",
                                 dimension_numbers=("NCH", "OIH", "NCH")),
        lax.conv_general_dilated(x[:, :, :4, :4, None] * jnp.ones(3, jnp.float32),
                                 jnp.ones((2, 3, 2, 2, 2), jnp.float32), (1, 1, 1), "VALID",
                                 dimension_numbers=("NCDHW", "OIDHW", "NCDHW"))), (X4,)),
    "conv_nhwc": (lambda x, w: lax.conv_general_dilated(
        x.transpose(0, 2, 3, 1), w.transpose(2, 3, 1, 0), (1, 1), "SAME",
        dimension_numbers=("NHWC", "HWIO", "NHWC")), (X4, W4)),
    "conv_grad": (lambda x, w: jax.grad(lambda x, w: jnp.sum(jnp.sin(
        _conv(x, w, (2, 2), ((1, 0), (2, 1))))), (0, 1))(x, w), (X4, W4)),
    "conv_grad_grouped": (lambda x: jax.grad(lambda x, w: jnp.sum(
        _conv(x, w, groups=3) ** 2), (0, 1))(x, jnp.full((6, 1, 3, 3), 0.1, jnp.float32)), (X4,)),
    "reduce": (lambda x: (jnp.sum(x, 1), jnp.max(x), jnp.min(x, 0), jnp.prod(x, 1),
                          jnp.mean(x, 0), jnp.all(x > 0, 1), jnp.any(x > 0),
                          jnp.argmax(x, 1), jnp.argmin(x, 0), jnp.sum(x.astype(jnp.int32))),
               (A,)),
    "pool": (lambda x: (lax.reduce_window(x, -jnp.inf, lax.max, (1, 1, 3, 3), (1, 1, 2, 2),
                                          ((0, 0), (0, 0), (1, 1), (1, 1))),
                        lax.reduce_window(x, 0.0, lax.add, (1, 1, 2, 2), (1, 1, 2, 2), "VALID"),
                        lax.reduce_window(x, 0.0, lax.add, (1, 2, 2, 1), (1, 1, 1, 1), "SAME",
                                          base_dilation=(1, 1, 2, 1))), (X4,)),
    "pool_grad": (lambda x: jax.grad(lambda x: jnp.sum(lax.reduce_window(
        x, -jnp.inf, lax.max, (1, 1, 2, 2), (1, 1, 2, 2), "VALID") ** 2))(x), (X4,)),
    "scan": (lambda x: (jnp.cumsum(x, 1), jnp.cumprod(x, 0), lax.cummax(x, 1),
                        lax.cumsum(x, 0, reverse=True),
                        jax.lax.cumlogsumexp(x, 1)), (A,)),
    "sort": (lambda x: (jnp.sort(x, 1), jnp.argsort(x, 0), jnp.sort(x.ravel())[::-1],
                        lax.top_k(x, 2), lax.sort((x[0], x[1]), num_keys=1)), (A,)),
    "while": (lambda x: lax.fori_loop(0, 3, lambda i, v: v * 2 + i, x), (A,)),
    "while_captured": (lambda x, y: lax.while_loop(lambda c: c[0] < 4,
                                                   lambda c: (c[0] + 1, c[1] * y), (0, x))[1],
                       (A, B)),
    "cond": (lambda x, p: (lax.cond(p > 0, lambda v: v + 1, lambda v: v * 3, x),
                           lax.switch(jnp.int32(p), [lambda v: v, lambda v: -v,
                                                     lambda v: v * x], x)),
             (A, np.float32(1.0))),
    "case_out_of_range": (lambda x, i: lax.switch(i, [lambda v: v, lambda v: -v], x),
                          (A, np.int32(7))),
    "linalg": (lambda m, b: (jnp.linalg.cholesky(m), jax.scipy.linalg.solve_triangular(
        jnp.linalg.cholesky(m), b, lower=True)), (A @ A.T + 3 * np.eye(3, dtype=np.float32),
                                                  B)),
    "svd": (lambda m: jnp.linalg.svd(m, compute_uv=False), (A,)),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_ge_matches_xla(name):
    fn, args = CASES[name]
    check_ge(fn, *args, rtol=2e-5, atol=2e-5, name=name)


def test_backprop_convolutions_use_ge_backprop_operators():
    fn, args = CASES["conv_grad"]
    model = check_ge(fn, *args, rtol=2e-5, atol=2e-5)
    types = model.op_types()
    assert {"Conv2D", "Conv2DBackpropInput", "Conv2DBackpropFilter"} <= types


def test_patterns_become_ge_operators():
    """Idioms map to GE's own operators, not to element-wise decompositions."""
    expect = {"reduce": {"ArgMaxV2", "ArgMin", "ReduceMean", "ReduceProd", "ReduceAll"},
              "pool": {"MaxPoolV3", "AvgPoolV2"}, "pool_grad": {"MaxPoolV3Grad"},
              "scan": {"Cumsum", "Cumprod"}, "sort": {"Sort", "TopKV2"},
              "while": {"While"}, "cond": {"Case"},
              "dot": {"MatMulV2", "BatchMatMulV2"}, "conv": {"Conv2D"}}
    for name, types in expect.items():
        fn, args = CASES[name]
        model = check_ge(fn, *args, rtol=2e-5, atol=2e-5)
        assert types <= model.op_types(), (name, types - model.op_types())


def test_matmul_uses_transpose_attributes():
    model = check_ge(lambda x, w: lax.dot_general(x, w, (((1,), (1,)), ((), ()))), A, B)
    (mm,) = model.main.nodes_of_type("MatMulV2")
    assert mm.attrs["transpose_x2"] is True and "Transpose" not in model.op_types()


IF_MODULE = """
module @m {
  func.func public @main(%p: tensor<i1>, %x: tensor<3xf32>, %y: tensor<3xf32>) -> tensor<3xf32> {
    %0 = "stablehlo.if"(%p) ({
      %1 = stablehlo.add %x, %y : tensor<3xf32>
      stablehlo.return %1 : tensor<3xf32>
    }, {
      %2 = stablehlo.negate %x : tensor<3xf32>
      stablehlo.return %2 : tensor<3xf32>
    }) : (tensor<i1>) -> tensor<3xf32>
    return %0 : tensor<3xf32>
  }
}
"""


def test_stablehlo_if_becomes_ge_if():
    """jax lowers cond to case; stablehlo.if (from other producers) maps to GE's If."""
    from jax._src.interpreters import mlir as jax_mlir
    from jaxlib.mlir import ir

    from msxla import ge
    module = ir.Module.parse(IF_MODULE, jax_mlir.make_ir_context())
    model = ge.convert_module(module, "if")
    assert "If" in model.op_types() and len(model.graphs) == 3
    x, y = np.array([1.0, 2.0, 3.0], np.float32), np.array([0.5, 0.5, 0.5], np.float32)
    for pred, want in ((True, x + y), (False, -x)):
        (out,), _ = ge.from_bytes(model.to_bytes()).run(np.array(pred), x, y)
        np.testing.assert_array_equal(out, want)
