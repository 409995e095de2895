"""Write msxla/_data/mindspore_paths.json.gz: where MindSpore 2.10 exposes each public object.

Run in the oracle environment (MindSpore 2.10 installed):

    GLOG_v=3 ~/ms-oracle/bin/python tools/make_mindspore_paths.py

MindSpore exposes one object under several module paths (``mindspore.jit`` is
``mindspore.common.api.jit``; ``ops.MatMul`` is ``ops.operations.math_ops.MatMul``).
The file records, for every public module of the ``mindspore`` package, its
public names, grouped by object identity: a group lists every path of one
object, shortest first. msxla implements each object at one of those paths and
derives all the others from this file (``msxla/_paths.py``).
"""
import gzip
import importlib
import inspect
import json
import os
import pkgutil
import sys
import types

import mindspore

SKIP_PREFIXES = (
    # MindSpore's own build and graph-compiler internals, its test and tool
    # trees, and the Ascend-only packages: nothing a script imports.
    "mindspore.ops_generate", "mindspore.include", "mindspore.lib", "mindspore._akg",
    "mindspore._extends", "mindspore.tools", "mindspore.safeguard", "mindspore.boost",
    "mindspore.rewrite", "mindspore.run_check",
)


def public(name):
    return not name.startswith("_")


def mindspore_object(value):
    """Is this value MindSpore's own (not numpy, os, typing, ...)?"""
    if isinstance(value, types.ModuleType):
        return value.__name__.startswith("mindspore")
    owner = getattr(value, "__module__", None)
    if owner is None and not isinstance(value, type):
        owner = getattr(type(value), "__module__", None)
    if owner is None or not isinstance(owner, str):
        owner = type(value).__module__
    return owner.startswith("mindspore") or owner.startswith("_mindspore")


def snapshots():
    """Each public module's namespace as it is right after its own import.

    A package's namespace is copied before the walk imports its submodules:
    importing ``mindspore.common.mutable`` late rebinds ``mindspore.common.mutable``
    from the function to the module, which is not what a script sees.
    """
    found = {"mindspore": dict(vars(mindspore))}
    for info in pkgutil.walk_packages(mindspore.__path__, "mindspore.", onerror=lambda n: None):
        parts = info.name.split(".")
        if not all(public(p) for p in parts[1:]) or info.name.startswith(SKIP_PREFIXES):
            continue
        try:
            module = importlib.import_module(info.name)
        except BaseException as exc:  # a module that fails to import in MindSpore is not API
            print(f"skip {info.name}: {type(exc).__name__}", file=sys.stderr)
            continue
        found[info.name] = {a: getattr(module, a) for a in dir(module) if public(a)
                            and hasattr(module, a)}
    return found


def main():
    loaded = snapshots()
    groups = {}
    keep = []  # values stay alive, so their ids stay unique
    for modname, namespace in loaded.items():
        for attr, value in namespace.items():
            if not public(attr):
                continue
            keep.append(value)
            if isinstance(value, types.ModuleType):
                continue  # submodules are modules of their own
            if not (inspect.isclass(value) or callable(value) or mindspore_object(value)):
                continue
            if not mindspore_object(value):
                continue
            groups.setdefault(id(value), []).append(f"{modname}:{attr}")
    out = []
    for paths in groups.values():
        paths.sort(key=lambda p: (p.count("."), len(p), p))
        out.append(paths)
    out.sort()
    doc = {"mindspore": mindspore.__version__, "modules": sorted(loaded), "groups": out}
    here = os.path.dirname(os.path.abspath(__file__))
    dest = os.path.join(here, "..", "msxla", "_data", "mindspore_paths.json.gz")
    os.makedirs(os.path.dirname(dest), exist_ok=True)
    with gzip.GzipFile(dest, "wb", mtime=0) as f:  # mtime=0: the same bytes on every run
        f.write(json.dumps(doc, separators=(",", ":")).encode("utf-8"))
    print(f"{len(loaded)} modules, {len(out)} objects, "
          f"{sum(map(len, out))} paths -> {os.path.relpath(dest)}")


if __name__ == "__main__":
    main()
