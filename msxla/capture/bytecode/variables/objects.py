"""Which code is the user's, which modules are libraries, which methods mutate.

- *User code* is interpreted instruction by instruction (its calls are
  inlined into the graph). Code of msxla, jax, the standard library and
  installed packages is not: it is called with traced Tensors, as trace mode
  would, or it is a graph break.
- *Staged libraries* are the modules whose functions may run while a graph
  is captured: msxla, jax, numpy (except its random numbers) and the pure
  parts of the standard library (math, operator, functools, itertools, ...).
  Anything else from outside the user's code (random, time, os, third-party
  packages) is a break, so it runs in Python on every call.
- *Mutating methods* of built-in containers: calling one on an object the
  captured code did not create is a side effect, hence a break.
"""
from __future__ import annotations

import types

from msxla._source import is_user_code, is_user_file

STAGED_MODULES = frozenset({
    "msxla", "jax", "jaxlib", "numpy", "math", "cmath", "operator", "functools", "itertools",
    "collections", "copy", "typing", "dataclasses", "enum", "numbers", "abc", "string",
    "builtins", "types", "re", "inspect", "warnings", "logging", "contextlib", "weakref",
})
IMPURE_PREFIXES = ("numpy.random", "jax.debug")


def is_user_function(fn) -> bool:
    return type(fn) is types.FunctionType and is_user_code(fn.__code__)


def module_root(obj) -> str:
    module = getattr(obj, "__module__", None)
    if not isinstance(module, str):
        module = getattr(type(obj), "__module__", "") or ""
    return module


def is_staged_library(obj) -> bool:
    """Functions and classes whose calls run while capturing (see the module doc)."""
    module = module_root(obj)
    if module.startswith(IMPURE_PREFIXES):
        return False
    return module.split(".")[0] in STAGED_MODULES


def is_library_module(module: types.ModuleType) -> bool:
    """Modules whose attributes are not user state (not guarded)."""
    name = module.__name__.split(".")[0]
    if name in STAGED_MODULES:
        return True
    filename = getattr(module, "__file__", None)
    return filename is None or not is_user_file(filename)


MUTATING_METHODS = {
    list: frozenset({"append", "extend", "insert", "pop", "remove", "clear", "sort", "reverse",
                     "__setitem__", "__delitem__", "__iadd__", "__imul__"}),
    dict: frozenset({"update", "pop", "popitem", "setdefault", "clear", "__setitem__",
                     "__delitem__", "__ior__"}),
    set: frozenset({"add", "discard", "remove", "pop", "clear", "update", "difference_update",
                    "intersection_update", "symmetric_difference_update", "__ior__", "__iand__",
                    "__isub__", "__ixor__"}),
    bytearray: frozenset({"append", "extend", "insert", "pop", "remove", "clear", "reverse",
                          "__setitem__", "__delitem__"}),
}


def mutating_method(receiver, name) -> bool:
    for cls, names in MUTATING_METHODS.items():
        if isinstance(receiver, cls):
            return name in names
    try:
        import collections
        if isinstance(receiver, collections.deque):
            return name in ("append", "appendleft", "pop", "popleft", "extend", "extendleft",
                            "clear", "rotate", "remove", "insert")
    except ImportError:  # pragma: no cover
        pass
    return False


TENSOR_INPLACE_METHODS = frozenset({"assign_value", "set_data", "copy_", "fill_", "zero_",
                                    "set_dtype", "init_data"})


def tensor_method_mutates(name: str) -> bool:
    return name in TENSOR_INPLACE_METHODS or (name.endswith("_") and not name.startswith("_"))
