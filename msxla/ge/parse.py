"""Reading a StableHLO module through jaxlib's MLIR bindings (no text parsing).

What the converters need from an MLIR op, in plain Python: result and
operand types as ``(shape, numpy dtype)``, integer-array attributes, typed
views of the structured attributes (dimension numbers, comparison
direction), constants as numpy arrays, the user's source location from
``loc(...)``, and the values a region reads from outside it (StableHLO
regions are not isolated; GE subgraphs are).
"""
from __future__ import annotations

import re

import ml_dtypes
import numpy as np
from jaxlib.mlir import ir
from jaxlib.mlir.dialects import stablehlo

from msxla._source import SourceLoc, is_internal_file
from msxla.ge.dtypes import from_mlir


def functions(module) -> dict:
    """``{symbol name: func.func op}`` of a module."""
    return {f.operation.attributes["sym_name"].value: f.operation for f in module.body.operations}


def entry_block(func_op):
    return func_op.regions[0].blocks[0]


def value_type(value) -> tuple:
    """``(shape tuple, numpy dtype)`` of an SSA value (a ranked tensor)."""
    t = ir.RankedTensorType(value.type)
    return tuple(t.shape), from_mlir(t.element_type)


def result_types(op) -> list:
    return [value_type(r) for r in op.results]


def has_attr(op, name: str) -> bool:
    return name in op.attributes


def ints(op, name: str, default=None) -> list:
    """An integer array attribute (DenseI64Array, DenseIntElements or Integer)."""
    if name not in op.attributes:
        return list(default) if default is not None else []
    attr = op.attributes[name]
    if isinstance(attr, ir.IntegerAttr):
        return [attr.value]
    if isinstance(attr, ir.DenseIntElementsAttr):
        return [int(v) for v in np.asarray(attr).reshape(-1)]
    return [int(v) for v in attr]


def int_attr(op, name: str, default=None):
    if name not in op.attributes:
        return default
    return ir.IntegerAttr(op.attributes[name]).value


def bool_attr(op, name: str, default=False) -> bool:
    if name not in op.attributes:
        return default
    return ir.BoolAttr(op.attributes[name]).value


def bools(op, name: str) -> list:
    if name not in op.attributes:
        return []
    return [bool(v) for v in op.attributes[name]]


def padding(op, name: str = "padding", rank: int = 0) -> list:
    """An ``[n, 2]`` padding attribute as ``[(lo, hi), ...]``."""
    if name not in op.attributes:
        return [(0, 0)] * rank
    arr = np.asarray(op.attributes[name]).reshape(-1, 2)
    return [(int(lo), int(hi)) for lo, hi in arr]


def string_attr(op, name: str, default: str = "") -> str:
    if name not in op.attributes:
        return default
    return ir.StringAttr(op.attributes[name]).value


def comparison(op) -> tuple:
    """``(direction, compare type)`` of a ``stablehlo.compare``: ("LT", "FLOAT")."""
    direction = stablehlo.ComparisonDirectionAttr(op.attributes["comparison_direction"]).value
    kind = ""
    if "compare_type" in op.attributes:
        kind = stablehlo.ComparisonTypeAttr(op.attributes["compare_type"]).value
    return direction, kind


def dot_dims(op):
    d = stablehlo.DotDimensionNumbers(op.attributes["dot_dimension_numbers"])
    return (list(d.lhs_batching_dimensions), list(d.rhs_batching_dimensions),
            list(d.lhs_contracting_dimensions), list(d.rhs_contracting_dimensions))


def conv_dims(op):
    return stablehlo.ConvDimensionNumbers(op.attributes["dimension_numbers"])


def gather_dims(op):
    return stablehlo.GatherDimensionNumbers(op.attributes["dimension_numbers"])


def scatter_dims(op):
    return stablehlo.ScatterDimensionNumbers(op.attributes["scatter_dimension_numbers"])


def constant_value(op) -> np.ndarray:
    """The value of a ``stablehlo.constant`` as a numpy array of its own dtype."""
    shape, dtype = value_type(op.results[0])
    try:
        attr = op.attributes["value"]
    except TypeError:  # complex: jaxlib has no typed view of the attribute
        text = str(op)
        return _parse_printed(text[text.index("dense<"):], shape, dtype)
    try:
        if attr.is_splat:
            splat = attr.get_splat_value()
            scalar = ir.BoolAttr(splat).value if dtype == np.bool_ else _scalar(splat, dtype)
            return np.full(shape, scalar, dtype)
        return np.asarray(attr).astype(dtype, copy=False).reshape(shape)
    except Exception:  # bf16 (no buffer protocol) and other exotic element types
        return _parse_printed(str(attr), shape, dtype)


def _scalar(attr, dtype):
    if dtype.kind == "c":
        raise ValueError("complex splat")
    return attr.value


def _parse_printed(text, shape, dtype):
    body = text.split(":")[0]
    if dtype.kind == "c":
        pairs = re.findall(r"\(([^,()]+),\s*([^()]+)\)", body)
        vals = [complex(float(a), float(b)) for a, b in pairs]
    else:
        toks = re.findall(r"0x[0-9A-Fa-f]+|[-+]?(?:inf|nan|\d+\.?\d*(?:[eE][-+]?\d+)?)|true|false",
                          body)
        vals = []
        for t in toks:
            if t.startswith("0x"):
                bits = np.array(int(t, 16), np.uint64).astype(f"u{dtype.itemsize}")
                vals.append(bits.view(dtype))
            elif t in ("true", "false"):
                vals.append(t == "true")
            else:
                vals.append(float(t))
    arr = np.array(vals, dtype=dtype if dtype != np.dtype(ml_dtypes.bfloat16) else np.float64)
    arr = arr.astype(dtype)
    return np.full(shape, arr.reshape(()), dtype) if arr.size == 1 else arr.reshape(shape)


_LOC = re.compile(r'"([^"]+)":(\d+):(\d+)(?: to (?:(\d+):)?(\d+))?')


def location(op) -> SourceLoc | None:
    """The innermost user frame in an op's ``loc(...)`` (None if it has none)."""
    try:
        text = str(op.location)
    except Exception:
        return None
    for m in _LOC.finditer(text):
        file = m.group(1)
        if is_internal_file(file) or not file.endswith(".py"):
            continue
        line, col = int(m.group(2)), int(m.group(3))
        end_line = int(m.group(4)) if m.group(4) else line
        end_col = int(m.group(5)) if m.group(5) else None
        func = _function_before(text, m.start())
        return SourceLoc(file, line, col, end_col, end_line, func)
    return None


def _function_before(text, pos):
    m = re.findall(r'"([^"]+)"\($', text[:pos])
    return m[-1] if m else ""


def op_label(op) -> str:
    """``stablehlo.custom_call @target`` style name for messages."""
    if op.name == "stablehlo.custom_call":
        return f"stablehlo.custom_call @{string_attr(op, 'call_target_name')}"
    return op.name


def free_values(region_ops_blocks) -> list:
    """Values used inside the given blocks but defined outside them, in first-use order."""
    defined, free, seen = set(), [], set()

    def visit(block):
        for arg in block.arguments:
            defined.add(arg)
        for view in block.operations:
            op = view.operation
            for v in op.operands:
                if v not in defined and v not in seen:
                    seen.add(v)
                    free.append(v)
            for region in op.regions:
                for inner in region.blocks:
                    visit(inner)
            for r in op.results:
                defined.add(r)

    for block in region_ops_blocks:
        visit(block)
    return [v for v in free if v not in defined]


def single_body_op(region):
    """The one computing op of a reduction body (``return op(a, b)``), else None."""
    ops = [v.operation for v in region.blocks[0].operations]
    if len(ops) != 2 or ops[-1].name != "stablehlo.return":
        return None
    op = ops[0]
    args = list(region.blocks[0].arguments)
    if len(op.operands) != 2 or list(ops[-1].operands) != [op.results[0]]:
        return None
    if set(op.operands) != {args[0], args[1]} and list(op.operands) != [args[0], args[1]]:
        return None
    return op.name


def body_ops(region) -> list:
    return [v.operation for v in region.blocks[0].operations]
