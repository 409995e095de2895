"""Every public name at every module path MindSpore 2.10 exposes it, derived from one file.

MindSpore exposes one object under many paths: ``mindspore.jit`` is also
``mindspore.common.api.jit``, ``ops.MatMul`` is also
``ops.operations.math_ops.MatMul``, ``nn.Accuracy`` is ``train.Accuracy``.
``_data/mindspore_paths.json.gz`` (written from MindSpore 2.10 itself by
``tools/make_mindspore_paths.py``) lists, for each public object, all of its
``module:name`` paths. msxla defines each object once, at any one of them; this
module finds it from any other. Nothing here is a hand-kept list.

``resolve("mindspore.ops.operations.math_ops", "MatMul")`` tries the object's
other paths in order (shortest first), looking only in msxla modules that
really exist (never in modules made up from the index), and returns the first
object found.
"""
from __future__ import annotations

import gzip
import importlib
import importlib.machinery
import json
import os
import sys
import threading

_FILE = os.path.join(os.path.dirname(__file__), "_data", "mindspore_paths.json.gz")
_lock = threading.RLock()
_index = None  # (modules: set[str], groups: list[list[str]], by_path: dict[str, int], names)
_resolving = threading.local()

MISSING = object()


def _load():
    global _index
    if _index is None:
        with _lock:
            if _index is None:
                with gzip.open(_FILE, "rt", encoding="utf-8") as f:
                    doc = json.load(f)
                by_path, names = {}, {}
                for i, group in enumerate(doc["groups"]):
                    for path in group:
                        by_path[path] = i
                        module, name = path.split(":")
                        names.setdefault(module, []).append(name)
                _index = (frozenset(doc["modules"]), doc["groups"], by_path, names, {})
    return _index


def mindspore_name(name: str) -> str:
    """``msxla.nn.layer`` -> ``mindspore.nn.layer`` (and ``mindspore...`` unchanged)."""
    if name == "msxla" or name.startswith("msxla."):
        return "mindspore" + name[len("msxla"):]
    return name


def msxla_name(name: str) -> str:
    """``mindspore.nn.layer`` -> ``msxla.nn.layer``."""
    if name == "mindspore" or name.startswith("mindspore."):
        return "msxla" + name[len("mindspore"):]
    return name


def is_mindspore_module(name: str) -> bool:
    """Is ``name`` (either prefix) one of MindSpore 2.10's public modules?"""
    return mindspore_name(name) in _load()[0]


def is_package(name: str) -> bool:
    """Does MindSpore 2.10 have public modules below ``name``?"""
    prefix = mindspore_name(name) + "."
    return any(m.startswith(prefix) for m in _load()[0])


def public_names(module: str) -> list[str]:
    """The public names MindSpore 2.10's ``module`` holds, in the index's order."""
    return list(_load()[3].get(mindspore_name(module), ()))


def object_names(module: str) -> frozenset:
    """The names that are objects (not submodules) in MindSpore 2.10's ``module``."""
    cache = _load()[4]
    names = cache.get(module)
    if names is None:
        names = cache[module] = frozenset(public_names(module))
    return names


def real_module(name: str):
    """The msxla module ``name`` if msxla really has it (imported if needed), else None."""
    module = sys.modules.get(name)
    if module is not None:
        return None if getattr(module, "__msxla_derived__", False) else module
    parent, _, _ = name.rpartition(".")
    path = None
    if parent:
        owner = real_module(parent)
        if owner is None:
            return None
        path = getattr(owner, "__path__", None)
        if path is None:
            return None
    if importlib.machinery.PathFinder.find_spec(name, path) is None:
        return None
    return importlib.import_module(name)


def _lookup(module, name):
    value = vars(module).get(name, MISSING)
    if value is MISSING and not _initializing(module):
        own = vars(module).get("__msxla_own_getattr__")
        if own is not None:
            try:
                value = own(name)
            except AttributeError:
                value = MISSING
    return value


def _initializing(module) -> bool:
    spec = getattr(module, "__spec__", None)
    return bool(getattr(spec, "_initializing", False))


def resolve(module: str, name: str):
    """The msxla object MindSpore's ``module.name`` is, or ``MISSING``."""
    _, groups, by_path, _, _ = _load()
    index = by_path.get(f"{mindspore_name(module)}:{name}")
    if index is None:
        return MISSING
    busy = getattr(_resolving, "paths", None)
    if busy is None:
        busy = _resolving.paths = set()
    key = (module, name)
    if key in busy:  # a cycle through the index: the name is not defined anywhere yet
        return MISSING
    busy.add(key)
    try:
        for path in groups[index]:
            other, other_name = path.split(":")
            try:
                owner = real_module(msxla_name(other))
            except ImportError:
                continue
            if owner is None or _initializing(owner):
                continue
            value = _lookup(owner, other_name)
            if value is not MISSING:
                return value
        return MISSING
    finally:
        busy.discard(key)


def missing_error(module: str, name: str) -> AttributeError:
    """The AttributeError for a MindSpore name msxla does not (yet) define."""
    known = f"{mindspore_name(module)}:{name}" in _load()[2]
    why = ("msxla does not implement it yet" if known else
           "MindSpore 2.10 has no such public name either")
    return AttributeError(f"module '{mindspore_name(module)}' has no attribute '{name}' ({why})")


def module_getattr(module_name: str, own=None):
    """A module ``__getattr__`` that finds MindSpore names defined elsewhere in msxla."""

    def __getattr__(name):
        if own is not None:
            try:
                return own(name)
            except AttributeError:
                pass
        if name.startswith("__"):
            raise AttributeError(f"module '{module_name}' has no attribute '{name}'")
        value = resolve(module_name, name)
        if value is MISSING:
            sub = f"{module_name}.{name}"
            if is_mindspore_module(sub):
                return importlib.import_module(sub)
            raise missing_error(module_name, name)
        return value

    return __getattr__
