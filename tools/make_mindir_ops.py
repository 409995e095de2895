"""Write msxla/_data/mindir_ops.json: how MindSpore 2.10 lays out primitive-function nodes.

Run in the oracle environment (MindSpore 2.10 installed):

    GLOG_v=3 ~/ms-oracle/bin/python tools/make_mindir_ops.py

Since MindSpore 2.3 most operators are *primitive functions*: a MindIR node
of one takes every argument as an input, the constructor's attributes
included, in the order of the operator's definition (``MatMul(x, w,
transpose_a, transpose_b)``). That order is not in any public table; it is
the order in which each generated Primitive class hands its arguments to the
kernel (``super().__call__(...)`` or ``pyboost_<op>(self, [...])``). This
script reads it from MindSpore's own sources with ``ast`` and records, per
operator: the arguments in order, which of them the constructor takes (and
their defaults), and which are converted on the way (a string to an enum
integer, a dtype to a type id). It also records the enum and type-id tables
those conversions use, asked from MindSpore itself.
"""
import ast
import gzip
import inspect
import json
import os

import mindspore
from mindspore import dtype as mstype
from mindspore._c_expression import typing
from mindspore.ops._utils.arg_handler import str_to_enum

ROOT = os.path.dirname(mindspore.__file__)
SOURCES = ["ops/auto_generate/gen_ops_prim.py", "ops/operations/manually_defined/ops_def.py"]
OUT = os.path.join(os.path.dirname(__file__), "..", "msxla", "_data", "mindir_ops.json.gz")

# Strings MindSpore's enum arguments take (from its operator documentation); the
# script keeps those MindSpore accepts, with the integers it gives them.
ENUM_WORDS = {
    "pad_mode": ["pad", "same", "valid"],
    "data_format": ["NCHW", "NHWC", "NCDHW", "NDHWC", "ND", "NCL", "NLC"],
    "format": ["NCHW", "NHWC", "NCDHW", "NDHWC", "ND"],
    "reduction": ["none", "mean", "sum"],
    "approximate": ["none", "tanh"],
    "indexing": ["ij", "xy"],
    "norm": ["backward", "forward", "ortho"],
    "rounding_mode": ["trunc", "floor"],
    "side": ["left", "right"],
    "padding_mode": ["zeros", "border", "reflection"],
    "interpolation_mode": ["bilinear", "nearest", "bicubic"],
    "mode": ["constant", "reflect", "replicate", "circular", "edge", "nearest", "linear",
             "bilinear", "bicubic", "trilinear", "area", "nearest-exact"],
    "reduce": ["none", "sum", "add", "mul", "multiply", "mean", "amax", "amin", "update"],
    "coordinate_transformation_mode": ["align_corners", "half_pixel", "asymmetric"],
}
TYPES = ["bool_", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
         "float16", "float32", "float64", "bfloat16", "complex64", "complex128"]


def _name_of(node, aliases):
    """The argument a forwarded expression carries, and the conversion applied."""
    if isinstance(node, ast.Name):
        return aliases.get(node.id, (node.id, None))
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and \
            node.value.id == "self":
        return ("self." + node.attr, None)
    if isinstance(node, ast.IfExp):  # ``dtype if dtype is None else dtype_to_type_id(...)``
        return _name_of(node.orelse, aliases)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.args:
        inner, _ = _name_of(node.args[-1], aliases)
        return (inner, node.func.id)
    return (None, None)


def _forwarded(call_fn):
    """The argument list handed to the kernel by a ``__call__`` body."""
    aliases = {}
    for stmt in ast.walk(call_fn):
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and \
                isinstance(stmt.targets[0], ast.Name) and isinstance(stmt.value, ast.Call):
            src = _name_of(stmt.value, aliases)
            if src[0] is not None:
                aliases[stmt.targets[0].id] = src
    for node in ast.walk(call_fn):
        if not isinstance(node, ast.Call):
            continue
        f = node.func
        if isinstance(f, ast.Attribute) and f.attr == "__call__" and \
                isinstance(f.value, ast.Call) and getattr(f.value.func, "id", "") == "super":
            return [("*" + a.value.id, None) if isinstance(a, ast.Starred) and
                    isinstance(a.value, ast.Name) else _name_of(a, aliases) for a in node.args]
        if isinstance(f, ast.Name) and f.id.startswith("pyboost_") and len(node.args) == 2 and \
                isinstance(node.args[1], ast.List):
            return [_name_of(a, aliases) for a in node.args[1].elts]
    return None


def _init_handlers(init_fn):
    """``{attr: handler}`` from ``self._set_prim_arg_with_handler(name, value, handler)``."""
    found = {}
    for node in ast.walk(init_fn):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                node.func.attr == "_set_prim_arg_with_handler" and len(node.args) == 3:
            name = node.args[0].value if isinstance(node.args[0], ast.Constant) else None
            handler = node.args[2]
            if name and isinstance(handler, ast.Name):
                found[name] = handler.id
    return found


def _jsonable(v):
    if isinstance(v, (bool, int, float, str)) or v is None:
        return v
    if isinstance(v, (tuple, list)):
        return [_jsonable(x) for x in v]
    if isinstance(v, mstype.Type):
        return {"dtype": str(v)}
    return repr(v)


def operators():
    ops = {}
    for rel in SOURCES:
        tree = ast.parse(open(os.path.join(ROOT, rel)).read())
        for cls in tree.body:
            if not isinstance(cls, ast.ClassDef):
                continue
            methods = {f.name: f for f in cls.body if isinstance(f, ast.FunctionDef)}
            if "__call__" not in methods:
                continue
            order = _forwarded(methods["__call__"])
            if order is None or any(name is None for name, _ in order):
                continue
            prim = getattr(mindspore.ops, cls.name, None)
            init_params = {}
            if prim is not None and "__init__" in vars(prim):
                sig = inspect.signature(prim.__init__)
                init_params = {k: p.default for k, p in list(sig.parameters.items())[1:]
                               if p.kind == p.POSITIONAL_OR_KEYWORD}
            handlers = _init_handlers(methods["__init__"]) if "__init__" in methods else {}
            args = []
            for name, handler in order:
                init = name.startswith("self.")
                arg = name[5:] if init else name
                entry = {"name": arg}
                if init:
                    entry["init"] = True
                    handler = handler or handlers.get(arg)
                    if arg in init_params and init_params[arg] is not inspect.Parameter.empty:
                        entry["default"] = _jsonable(init_params[arg])
                if handler in ("str_to_enum", "dtype_to_type_id"):
                    entry["convert"] = "enum" if handler == "str_to_enum" else "type_id"
                args.append(entry)
            ops[cls.name] = args
    return ops


def enums():
    table = {}
    for arg, words in ENUM_WORDS.items():
        for w in words:
            for text in (w, w.upper()):
                try:
                    table.setdefault(arg, {})[text] = int(str_to_enum("MindIR", arg, text))
                except Exception:  # noqa: BLE001 - not a word of this enum
                    pass
    return table


def type_ids():
    return {name: int(typing.type_to_type_id(getattr(mstype, name))) for name in TYPES}


def main():
    doc = {"mindspore": mindspore.__version__, "operators": operators(), "enums": enums(),
           "type_ids": type_ids()}
    with gzip.open(OUT, "wt", encoding="utf-8") as f:
        json.dump(doc, f, indent=0, sort_keys=True)
    print(f"{len(doc['operators'])} operators -> {os.path.relpath(OUT)}")


if __name__ == "__main__":
    main()
