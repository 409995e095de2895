"""MindSpore 2.10's primitive-function layouts, its enums and type ids, from one data file.

A MindIR node of a *primitive function* (most operators since MindSpore 2.3)
takes all of the operator's arguments as inputs, in the order of its
definition: ``MatMul(x, w, transpose_a, transpose_b)``. Strings such as
``pad_mode="VALID"`` are stored as enum integers, dtypes as type ids.
``msxla/_data/mindir_ops.json.gz`` records these facts for every operator;
``tools/make_mindir_ops.py`` writes it from MindSpore 2.10 itself.

    layout("MatMul")   -> (Arg("input"), Arg("mat2"), Arg("transpose_a", init=True, ...), ...)
    enum_value("pad_mode", "valid") -> 2;  enum_word("pad_mode", 2) -> "VALID"
    type_id(mstype.float16) -> 42;  from_type_id(42) -> mstype.float16
"""
from __future__ import annotations

import dataclasses
import functools
import gzip
import json
import os

_FILE = os.path.join(os.path.dirname(os.path.dirname(__file__)), "_data", "mindir_ops.json.gz")
_NO_DEFAULT = object()


@dataclasses.dataclass(frozen=True)
class Arg:
    """One argument of a primitive function, in definition order."""

    name: str
    init: bool = False          # a constructor argument of the Primitive class
    default: object = _NO_DEFAULT
    convert: str | None = None  # "enum" (string -> int) or "type_id" (dtype -> int)

    @property
    def has_default(self) -> bool:
        return self.default is not _NO_DEFAULT

    @property
    def variadic(self) -> bool:
        return self.name.startswith("*")


@functools.lru_cache(maxsize=1)
def _doc() -> dict:
    with gzip.open(_FILE, "rt", encoding="utf-8") as f:
        return json.load(f)


def _default(value):
    if isinstance(value, dict) and "dtype" in value:
        from msxla.common import dtype as mstype
        return getattr(mstype, value["dtype"].lower())
    if isinstance(value, list):
        return tuple(value)
    return value


@functools.lru_cache(maxsize=None)
def layout(name: str):
    """The arguments of primitive function ``name`` in order, or None if it is not one."""
    entries = _doc()["operators"].get(name)
    if entries is None:
        return None
    return tuple(Arg(e["name"], e.get("init", False),
                     _default(e["default"]) if "default" in e else _NO_DEFAULT,
                     e.get("convert")) for e in entries)


def is_primitive_function(name: str) -> bool:
    return name in _doc()["operators"]


def enum_value(arg: str, word: str) -> int:
    """The integer MindSpore stores for the string ``word`` of enum argument ``arg``."""
    table = _doc()["enums"].get(arg, {})
    for key in (word, word.upper(), word.lower()):
        if key in table:
            return table[key]
    raise ValueError(f"'{word}' is not a value of MindSpore's enum argument '{arg}'")


def enum_word(arg: str, value: int) -> str:
    """The (upper-case) string of enum argument ``arg`` that MindSpore stores as ``value``."""
    table = _doc()["enums"].get(arg, {})
    for key, v in table.items():
        if v == value and key.isupper():
            return key
    for key, v in table.items():
        if v == value:
            return key
    raise ValueError(f"{value} is not a value of MindSpore's enum argument '{arg}'")


def has_enum(arg: str) -> bool:
    return arg in _doc()["enums"]


def type_id(dtype) -> int:
    """MindSpore's type id of an msxla dtype (``mstype.float16`` -> 42)."""
    from msxla.common import dtype as mstype
    t = mstype.to_ms(dtype)
    for name, tid in _doc()["type_ids"].items():
        if getattr(mstype, name) is t:
            return tid
    raise ValueError(f"MindIR has no type id for {t}")


def from_type_id(tid: int):
    """The msxla dtype of MindSpore type id ``tid``."""
    from msxla.common import dtype as mstype
    for name, value in _doc()["type_ids"].items():
        if value == tid:
            return getattr(mstype, name)
    raise ValueError(f"unknown MindSpore type id {tid}")
