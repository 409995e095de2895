"""Custom calls and annotations: the ones jax emits for msxla's op table.

    custom_call @lapack_?potrf_ffi   (Cholesky)          -> Cholesky, info = 0
    custom_call @lapack_?trsm_ffi    (triangular solve)  -> MatrixTriangularSolve
    custom_call @Sharding, sdy.sharding_constraint        -> the operand (one device)

    custom_call @lapack_?gesdd_ffi   (SVD)                -> Svd (v transposed to vt)

Other custom calls (LU, QR, eigen decompositions) have no GE operator
with the same outputs and are reported as unsupported, naming the target.
"""
from __future__ import annotations

from jaxlib.mlir import ir

from msxla.ge import parse
from msxla.ge.registry import ge_converter


def _backend_config(op) -> dict:
    if "mhlo.backend_config" not in op.attributes:
        return {}
    attr = ir.DictAttr(op.attributes["mhlo.backend_config"])
    out = {}
    for i in range(len(attr)):
        named = attr[i]
        out[named.name] = ir.IntegerAttr(named.attr).value
    return out


def _char(code):
    return chr(code & 0xFF)


@ge_converter("stablehlo.custom_call @lapack_spotrf_ffi",
              "stablehlo.custom_call @lapack_dpotrf_ffi")
def _potrf(ctx, op):
    b = ctx.b
    (x,) = ctx.inputs(op)
    cfg = _backend_config(op)
    if _char(cfg.get("uplo", 76)) != "L":
        raise ctx.unsupported(op, "for an upper-triangular factor")
    (shape, dtype), (info_shape, info_dtype) = parse.result_types(op)
    y = b.unary("Cholesky", x)
    return [y, b.fill(0, info_dtype, info_shape)]


@ge_converter("stablehlo.custom_call @lapack_strsm_ffi",
              "stablehlo.custom_call @lapack_dtrsm_ffi")
def _trsm(ctx, op):
    b = ctx.b
    a, rhs = ctx.inputs(op)
    cfg = _backend_config(op)
    side, uplo = _char(cfg.get("side", 76)), _char(cfg.get("uplo", 76))
    trans, diag = _char(cfg.get("trans_x", 78)), _char(cfg.get("diag", 78))
    if diag != "N":
        raise ctx.unsupported(op, "with a unit diagonal")
    lower, adjoint = uplo == "L", trans != "N"
    swap = list(range(a.rank - 2)) + [a.rank - 1, a.rank - 2]
    if side == "L":
        out = b.add1("MatrixTriangularSolve", [a, rhs], rhs.dtype, rhs.shape, lower=lower,
                     adjoint=adjoint)
        return [out]
    # x op(a) = rhs  <=>  op(a)^T x^T = rhs^T
    rt = b.transpose(rhs, swap)
    out = b.add1("MatrixTriangularSolve", [a, rt], rt.dtype, rt.shape, lower=lower,
                 adjoint=not adjoint)
    return [b.transpose(out, swap)]


@ge_converter("stablehlo.custom_call @lapack_sgesdd_ffi",
              "stablehlo.custom_call @lapack_dgesdd_ffi")
def _gesdd(ctx, op):
    """(a, s, u, vt, info) = gesdd(a) -> Svd: sigma, u, v (vt = v transposed)."""
    b = ctx.b
    (x,) = ctx.inputs(op)
    mode = _char(_backend_config(op).get("mode", 83))
    types = parse.result_types(op)
    (u_shape, _), (vt_shape, _), (info_shape, info_dtype) = types[2], types[3], types[4]
    s_shape = types[1][0]
    if mode == "N":
        sigma = b.add("Svd", [x], [(x.dtype, s_shape), (x.dtype, u_shape), (x.dtype, u_shape)],
                      dict(compute_uv=False, full_matrices=False))[0]
        return [x, sigma, b.fill(0, x.dtype, u_shape), b.fill(0, x.dtype, vt_shape),
                b.fill(0, info_dtype, info_shape)]
    swap = list(range(x.rank - 2)) + [x.rank - 1, x.rank - 2]
    v_shape = tuple(vt_shape[i] for i in swap)
    sigma, u, v = b.add("Svd", [x], [(x.dtype, s_shape), (x.dtype, u_shape), (x.dtype, v_shape)],
                        dict(compute_uv=True, full_matrices=mode == "A"))
    return [x, sigma, u, b.transpose(v, swap), b.fill(0, info_dtype, info_shape)]


@ge_converter("stablehlo.custom_call @Sharding", "stablehlo.custom_call @SPMDFullToShardShape",
              "stablehlo.custom_call @SPMDShardToFullShape", "sdy.sharding_constraint")
def _identity(ctx, op):
    return ctx.inputs(op)[:1]
