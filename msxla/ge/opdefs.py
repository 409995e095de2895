"""The GE operators msxla emits: ports and attributes, as GE's ``REG_OP`` declares them.

One ``IR`` row per GE op type: ordered input ports (``name?`` optional,
``name*`` dynamic: ports ``name0, name1, ...``), output ports, attributes with
their defaults (``REQUIRED`` for ``REQUIRED_ATTR``) and whether the op reads
its data layout from the tensor format (Conv2D, pooling). The graph builder
(``builder.py``) fills port names, dynamic counts and default attributes from
it; the reference executor (``reference.py``) reads defaults from it and has
one kernel per row (a test checks that every row has one).

Sources: the ``REG_OP`` blocks of GE's op headers (``array_ops.h``,
``elewise_calculation_ops.h``, ``nn_calculation_ops.h``, ``reduce_ops.h``,
``selection_ops.h``, ``functional_ops.h``, ...); built-in types (Data, Const,
NetOutput) from GE's ``types.h``.
"""
from __future__ import annotations

import dataclasses

REQUIRED = object()


@dataclasses.dataclass(frozen=True)
class IR:
    type: str
    inputs: tuple
    outputs: tuple
    attrs: dict
    layout_sensitive: bool = False
    subgraphs: tuple = ()

    def input_ports(self):
        """``(name, optional, dynamic)`` per declared input."""
        return [(p.rstrip("?*"), p.endswith("?"), p.endswith("*")) for p in self.inputs]

    def output_ports(self):
        return [(p.rstrip("*"), p.endswith("*")) for p in self.outputs]


OPS: dict[str, IR] = {}


def _reg(types, inputs, outputs, attrs=None, **kw):
    for t in types.split():
        OPS[t] = IR(t, tuple(inputs.split()), tuple(outputs.split()), dict(attrs or {}), **kw)


# ----------------------------------------------------------- graph plumbing
_reg("Data RefData", "x?", "y", {"index": 0})  # x: fed from outside, not an edge
_reg("Variable", "x?", "y", {"index": 0, "container": "", "shared_name": ""})
_reg("Const", "", "y", {"value": REQUIRED})
_reg("NetOutput", "input*", "")
_reg("Identity", "x", "y")
_reg("IdentityN", "x*", "y*")
_reg("Assign", "ref value", "ref", {"validate_shape": True, "use_locking": False})

# ------------------------------------------------------------- element-wise
_reg("Add Sub Mul RealDiv TruncateDiv Mod TruncateMod Maximum Minimum "
     "Pow Atan2 Equal NotEqual Less LessEqual Greater GreaterEqual LogicalAnd LogicalOr "
     "BitwiseAnd BitwiseOr BitwiseXor", "x1 x2", "y")
_reg("NextAfter", "x1 x2", "output")
_reg("LeftShift RightShift", "x y", "z")
_reg("Neg Abs Sqrt Rsqrt Square Reciprocal Sign Floor Ceil Rint Expm1 Log1p Sin Cos Tan Sinh "
     "Cosh Asin Acos Atan Asinh Acosh Atanh Tanh Sigmoid Erf Erfc IsFinite IsInf IsNan Lgamma "
     "Digamma LogicalNot Invert PopulationCount BesselI1e", "x", "y")
_reg("Erfinv", "input_x", "output_y")
_reg("Exp Log", "x", "y", {"base": -1.0, "scale": 1.0, "shift": 0.0})
_reg("Round", "x", "y", {"decimals": 0})
_reg("Cast", "x", "y", {"dst_type": REQUIRED, "truncate": False})
_reg("Bitcast", "x", "y", {"type": REQUIRED})
_reg("Real Imag", "input", "output", {"Tout": REQUIRED})
_reg("Complex", "real imag", "out", {"Tout": REQUIRED})
_reg("SelectV2", "condition then else", "result")
_reg("ClipByValue", "x clip_value_min clip_value_max", "y")

# ------------------------------------------------------- shape and indexing
_reg("Reshape", "x shape", "y", {"axis": 0, "num_axes": -1})
_reg("Transpose", "x perm", "y")
_reg("BroadcastTo", "x shape", "y")
_reg("ConcatV2", "x* concat_dim", "y", {"N": 1})
_reg("Pack", "x*", "y", {"axis": 0, "N": 1})
_reg("Slice", "x offsets size", "y")
_reg("StridedSlice", "x begin end strides", "y", {
    "begin_mask": 0, "end_mask": 0, "ellipsis_mask": 0, "new_axis_mask": 0,
    "shrink_axis_mask": 0})
_reg("GatherV2", "x indices axis", "y", {
    "batch_dims": 0, "is_preprocessed": False, "negative_index_support": False})
_reg("GatherElements", "x index", "y", {"dim": 0})
_reg("TensorScatterUpdate TensorScatterAdd TensorScatterMax TensorScatterMin",
     "x indices updates", "y")
_reg("ScatterMul", "var indices updates", "var", {"use_locking": False})
_reg("PadV3", "x paddings constant_values?", "y", {
    "mode": "constant", "paddings_contiguous": True})
_reg("ReverseV2", "x axis", "y")
_reg("Range", "start limit delta", "y")
_reg("Dilation", "x", "y", {"dilations": REQUIRED, "pads": [], "padding_value": 0.0})

# ---------------------------------------------- contraction, conv, pooling
_reg("MatMulV2", "x1 x2 bias? offset_w?", "y", {
    "transpose_x1": False, "transpose_x2": False, "offset_x": 0})
_reg("BatchMatMulV2", "x1 x2 bias? offset_w?", "y", {
    "adj_x1": False, "adj_x2": False, "offset_x": 0})
_CONV = {"strides": REQUIRED, "pads": REQUIRED, "dilations": [1, 1, 1, 1], "groups": 1,
         "data_format": "NHWC"}
_reg("Conv2D", "x filter bias? offset_w?", "y", dict(_CONV, offset_x=0), layout_sensitive=True)
_reg("Conv3D", "x filter bias? offset_w?", "y",
     dict(_CONV, dilations=[1, 1, 1, 1, 1], data_format="NDHWC", offset_x=0),
     layout_sensitive=True)
_reg("Conv2DBackpropInput", "input_size filter out_backprop", "y", dict(_CONV),
     layout_sensitive=True)
_reg("Conv2DBackpropFilter", "x filter_size out_backprop", "y", dict(_CONV),
     layout_sensitive=True)
_POOL = {"ksize": REQUIRED, "strides": REQUIRED, "padding_mode": "CALCULATED",
         "pads": [0, 0, 0, 0], "data_format": "NCHW", "global_pooling": False,
         "ceil_mode": False}
_reg("MaxPoolV3", "x", "y", dict(_POOL), layout_sensitive=True)
_reg("MaxPoolV3Grad", "orig_input orig_output grad", "out_grad", dict(_POOL),
     layout_sensitive=True)
_reg("AvgPoolV2", "x", "y", dict(_POOL, exclusive=True, divisor_override=0),
     layout_sensitive=True)

# --------------------------------------------- reductions, scans, sorting
_reg("ReduceSum ReduceMax ReduceMin ReduceProd ReduceAll ReduceAny", "x axes", "y",
     {"keep_dims": False})
_reg("ReduceMean", "x axes", "y", {"keep_dims": False, "noop_with_empty_axes": True})
_reg("ArgMaxV2 ArgMin", "x dimension", "y", {"dtype": REQUIRED})
_reg("Cumsum Cumprod", "x axis", "y", {"exclusive": False, "reverse": False})
_reg("Sort", "x", "y1 y2", {"axis": -1, "descending": False, "stable": False})
_reg("TopKV2", "x k", "values indices", {"sorted": True, "dim": -1, "largest": True})

# ------------------------------------------------------------ linear algebra
_reg("Cholesky", "x", "y")
_reg("Svd", "x", "sigma u v", {"compute_uv": True, "full_matrices": False})
_reg("MatrixTriangularSolve", "matrix rhs", "output", {"lower": True, "adjoint": False})

# -------------------------------------------------------------- control flow
_reg("If", "cond input*", "output*", subgraphs=("then_branch", "else_branch"))
_reg("Case", "branch_index input*", "output*", subgraphs=("branches*",))
_reg("While", "input*", "output*", {"parallel_iterations": 10}, subgraphs=("cond", "body"))


def ir(op_type: str) -> IR:
    try:
        return OPS[op_type]
    except KeyError:
        raise KeyError(f"GE op '{op_type}' is not declared in msxla.ge.opdefs") from None


def default_attr(op_type: str, name: str):
    value = OPS[op_type].attrs.get(name, REQUIRED)
    if value is REQUIRED:
        raise KeyError(f"GE op '{op_type}' has no default for attribute '{name}'")
    return value
