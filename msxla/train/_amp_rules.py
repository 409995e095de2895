"""Where each automatic mixed precision level puts its casts.

MindSpore's lists name Cells and Primitives. They are applied to the network's
Cell tree, as MindSpore's levels O2 and O3 do (``Cell.to_float`` flags and
output casts) and as its O1 rewrite does for Cells and Primitive attributes:

- ``O1``: a Cell of the white list (Conv, Dense, ...) runs with its inputs and
  trainable Parameters in the low precision and its float outputs cast back to
  float32; so does a Cell whose only op is a white-listed Primitive (``ReLU``,
  ``PReLU``); a Primitive instance of the white list held as a Cell attribute
  (``self.matmul = ops.MatMul()``) is replaced by one that casts the same way.
- ``O2``: the whole network in the low precision except the black list
  (BatchNorm, LayerNorm), which runs in float32 and returns the low precision;
  ``O3``: the whole network in the low precision; both return float32.
- ``auto``: white-listed Cells and Primitive attributes compute in the low
  precision and return it (a Cell with a bias returns float32, as MindSpore's
  bias add promotes), black-listed ones (norms, softmax, exp/log, losses) in
  float32; other ops follow their inputs' types.

Functional calls written directly in a ``construct`` (``ops.relu(x)``) are not
cast: MindSpore's O1 rewrite and its ``auto`` dispatch also reach those.
"""
from __future__ import annotations

from msxla import nn, ops
from msxla.common import dtype as mstype
from msxla.common.tensor import Tensor
from msxla.ops.primitive import Primitive

_NN = lambda *names: [getattr(nn, n) for n in names if hasattr(nn, n)]  # noqa: E731
_OPS = lambda *names: [getattr(ops, n) for n in names if hasattr(ops, n)]  # noqa: E731

AMP_WHITE_LIST = _NN("Conv1d", "Conv2d", "Conv3d", "Conv1dTranspose", "Conv2dTranspose",
                     "Conv3dTranspose", "Dense", "LSTMCell", "RNNCell", "GRUCell") + \
    _OPS("Conv2D", "Conv3D", "Conv2DTranspose", "Conv3DTranspose", "Conv2DBackpropInput",
         "MatMul", "BatchMatMul", "PReLU", "ReLU", "Ger")
AMP_BLACK_LIST = _NN("BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "LayerNorm")
# Cells whose construct is one white-listed Primitive in MindSpore (O1 casts that op).
_O1_SINGLE_OP_CELLS = tuple(_NN("ReLU", "PReLU"))

AUTO_WHITE_PRIMS = tuple(_OPS("Conv2D", "Conv3D", "Conv2DTranspose", "Conv3DTranspose",
                              "MatMul", "BatchMatMul", "PReLU", "Einsum", "Dense"))
AUTO_BLACK_PRIMS = tuple(_OPS(
    "Pow", "ACos", "Asin", "Cosh", "Erfinv", "Exp", "Expm1", "Log", "Log10", "Log1p", "Log2",
    "Reciprocal", "Rsqrt", "Sinh", "Tan", "Softplus", "LayerNorm", "BatchNorm", "GroupNorm",
    "KLDivLoss", "SmoothL1Loss", "MultilabelMarginLoss", "SoftMarginLoss", "TripletMarginLoss",
    "MultiMarginLoss", "BCEWithLogitsLoss", "Pdist", "Cdist", "Renorm", "ReduceProd", "Softmax",
    "LogSoftmax", "CumProd", "CumSum", "NLLLoss"))
AUTO_WHITE_CELLS = tuple(_NN("Conv1d", "Conv2d", "Conv3d", "Conv1dTranspose", "Conv2dTranspose",
                             "Conv3dTranspose", "Dense", "PReLU"))
AUTO_BLACK_CELLS = tuple(_NN(
    "BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "LayerNorm", "GroupNorm", "Softmax",
    "LogSoftmax", "Softplus", "KLDivLoss", "SmoothL1Loss", "SoftMarginLoss", "BCEWithLogitsLoss",
    "MultiMarginLoss", "TripletMarginLoss", "NLLLoss", "MSELoss", "L1Loss", "CrossEntropyLoss",
    "SoftmaxCrossEntropyWithLogits"))


def cast_float(value, dtype):
    """``value`` with its float Tensors (also inside tuples and lists) cast to ``dtype``."""
    if isinstance(value, (tuple, list)):
        return type(value)(cast_float(v, dtype) for v in value)
    if isinstance(value, Tensor) and mstype.is_float(value.dtype) and value.dtype != dtype:
        return ops.cast(value, dtype)
    return value


class _OutputTo16(nn.Cell):
    """Runs a Cell and casts its output to the low precision (O2's black list)."""

    def __init__(self, backbone, dtype=mstype.float16):
        super().__init__(auto_prefix=False)
        self._backbone = backbone
        self.dtype = dtype

    def construct(self, *args, **kwargs):
        return ops.cast(self._backbone(*args, **kwargs), self.dtype)


class _OutputTo32(nn.Cell):
    """Runs a Cell and casts its float outputs to float32 (O2, O3)."""

    def __init__(self, backbone):
        super().__init__(auto_prefix=False)
        self._backbone = backbone
        if backbone.jit_config_dict:
            self.__dict__["_jit_config_dict"] = dict(backbone.jit_config_dict)

    def construct(self, *args, **kwargs):
        return cast_float(self._backbone(*args, **kwargs), mstype.float32)


class AmpPrimitive:
    """A Primitive whose float inputs are cast to ``dtype`` and whose float outputs
    are cast to ``out_dtype`` (None: left as computed)."""

    def __init__(self, prim, dtype, out_dtype):
        self.prim, self.dtype, self.out_dtype = prim, dtype, out_dtype
        self.name = getattr(prim, "name", type(prim).__name__)

    def __call__(self, *args, **kwargs):
        out = self.prim(*cast_float(args, self.dtype), **kwargs)
        return out if self.out_dtype is None else cast_float(out, self.out_dtype)

    def __getattr__(self, name):
        return getattr(self.prim, name)

    def __repr__(self):
        return f"AmpPrimitive({self.prim!r}, {self.dtype})"


def _mark(cell, dtype, out_dtype):
    cell.to_float(dtype)
    cell.__dict__["_amp_output_type"] = out_dtype


def _cast_primitives(cell, prims, dtype, out_dtype):
    """Replace Primitive attributes of ``cell`` that are instances of ``prims``."""
    for name, value in list(cell.__dict__.items()):
        if isinstance(value, Primitive) and isinstance(value, prims):
            setattr(cell, name, AmpPrimitive(value, dtype, out_dtype))


def apply_o1(network, dtype, white_list):
    """O1 (and ``custom_mixed_precision(white_list=...)``)."""
    cells = tuple(c for c in white_list if isinstance(c, type) and issubclass(c, nn.Cell))
    prims = tuple(c for c in white_list if isinstance(c, type) and issubclass(c, Primitive))
    single = tuple(c for c in _O1_SINGLE_OP_CELLS if any(p.__name__ == c.__name__
                                                         for p in prims))
    _walk(network, lambda c: isinstance(c, cells + single),
          lambda c: _mark(c, dtype, mstype.float32),
          lambda c: _cast_primitives(c, prims, dtype, mstype.float32))
    return network


def apply_auto(network, dtype):
    """``auto``: white-listed Cells and Primitives low, black-listed ones float32."""
    def mark(cell):
        if isinstance(cell, AUTO_WHITE_CELLS):
            _mark(cell, dtype, mstype.float32 if getattr(cell, "has_bias", False) else None)
        else:
            _mark(cell, mstype.float32, None)

    def prims(cell):
        _cast_primitives(cell, AUTO_WHITE_PRIMS, dtype, None)
        _cast_primitives(cell, AUTO_BLACK_PRIMS, mstype.float32, None)

    _walk(network, lambda c: isinstance(c, AUTO_WHITE_CELLS + AUTO_BLACK_CELLS), mark, prims)
    return network


def _walk(cell, matches, on_match, on_other, seen=None):
    seen = set() if seen is None else seen
    if id(cell) in seen:
        return
    seen.add(id(cell))
    if matches(cell):
        on_match(cell)
        return
    on_other(cell)
    for sub in cell.cells():
        _walk(sub, matches, on_match, on_other, seen)


def apply_black_list(network, black_list, dtype):
    """O2 (and ``custom_mixed_precision(black_list=...)``): everything in ``dtype``
    except black-listed Cells, which run in float32 and return ``dtype``."""
    network.to_float(dtype)
    _keep_fp32(network, tuple(black_list), lambda sub: _OutputTo16(sub, dtype))
    return network


def keep_batchnorm_fp32(network):
    """``keep_batchnorm_fp32``: the black list runs in float32, returning float16."""
    _keep_fp32(network, tuple(AMP_BLACK_LIST), _OutputTo16)


def _keep_fp32(network, black, wrap):
    changed = False
    for name, sub in list(network.name_cells().items()):
        if sub is network:
            continue
        if isinstance(sub, black):
            network._cells[name] = wrap(sub.to_float(mstype.float32))
            changed = True
        else:
            _keep_fp32(sub, black, wrap)
    if changed:
        nn.cell.bump_epoch()
