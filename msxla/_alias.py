"""The import name: ``mindspore`` and every ``mindspore.*`` module resolving to msxla.

One finder, first on ``sys.meta_path``, does three things:

- ``mindspore.X.Y`` (once ``alias_mindspore()`` has run, as ``python -m msxla``
  does) is the module object ``msxla.X.Y``: the same object under both names,
  so ``isinstance`` checks and module state are shared.
- ``msxla.X.Y`` that msxla has no file for, but that MindSpore 2.10 has as a
  public module (``msxla.ops.operations.math_ops``, ``msxla.common.api``), is
  *derived*: a module whose names are found where msxla defines them
  (``msxla._paths``). A derived module is never a place to look for a name.
- every real msxla module that MindSpore also has gets a module ``__getattr__``
  that finds MindSpore names msxla defines at another of their paths
  (``mindspore.nn.Accuracy`` is ``mindspore.train.Accuracy``).

A real MindSpore installation is never hidden silently: ``alias_mindspore``
says which one it leaves unused. For processes the script starts (dataset
workers, launched ranks, ``python`` subprocesses), ``python -m msxla`` puts a
one-file ``mindspore`` package first on ``PYTHONPATH`` that turns the alias on.
"""
from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
import threading
import types

from msxla import _paths

SHIM_DIR = os.path.join(os.path.dirname(__file__), "_shim")
_lock = threading.Lock()
_aliasing = False
_installed = False


class _IndexedLoader(importlib.machinery.SourceFileLoader):
    """Loads a real msxla module, then gives it the index's ``__getattr__``."""

    def exec_module(self, module):
        super().exec_module(module)
        install_getattr(module)


class _IndexedModule(types.ModuleType):
    """A module whose MindSpore names are not shadowed by derived submodules.

    ``mindspore.common.mutable`` is the function ``mutable`` although a module
    ``mindspore.common.mutable`` exists too: MindSpore binds the function over
    the submodule. Importing a derived submodule here would bind the module on
    its parent; a name MindSpore gives an object in this module keeps it.
    """

    def __setattr__(self, name, value):
        if (getattr(value, "__msxla_derived__", False) and isinstance(value, types.ModuleType)
                and name in _paths.object_names(self.__name__)):
            return
        super().__setattr__(name, value)


class _DerivedLoader(importlib.abc.Loader):
    """Makes a MindSpore module msxla has no file for, from the names msxla defines."""

    def create_module(self, spec):
        return _IndexedModule(spec.name)

    def exec_module(self, module):
        name = module.__name__
        module.__msxla_derived__ = True
        module.__doc__ = (f"``{_paths.mindspore_name(name)}``: MindSpore's names at this path, "
                          "as msxla defines them elsewhere.")
        found = []
        for attr in dict.fromkeys(_paths.public_names(name)):
            value = _paths.resolve(name, attr)
            if value is not _paths.MISSING:
                setattr(module, attr, value)
                found.append(attr)
        module.__all__ = found
        module.__getattr__ = _paths.module_getattr(name)


class _AliasLoader(importlib.abc.Loader):
    """``mindspore.X`` is the module object ``msxla.X``."""

    def __init__(self, target: str):
        self.target = target
        self._spec = None

    def create_module(self, spec):
        module = importlib.import_module(self.target)
        self._spec = module.__spec__
        return module

    def exec_module(self, module):
        # The import system stamped the alias spec on the module; it keeps its own.
        module.__spec__ = self._spec


class _Finder(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname, path=None, target=None):
        if fullname == "mindspore" or fullname.startswith("mindspore."):
            if not _aliasing:
                return None
            target = _paths.msxla_name(fullname)
            if importlib.util.find_spec(target) is None:
                return None  # "No module named 'mindspore.X'", as without msxla
            return importlib.util.spec_from_loader(fullname, _AliasLoader(target),
                                                   is_package=True)
        if not fullname.startswith("msxla."):
            return None
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is not None:
            if (type(spec.loader) is importlib.machinery.SourceFileLoader
                    and _paths.is_mindspore_module(fullname)):
                spec.loader = _IndexedLoader(fullname, spec.origin)
            return spec
        if _paths.is_mindspore_module(fullname):
            return importlib.util.spec_from_loader(
                fullname, _DerivedLoader(), is_package=_paths.is_package(fullname))
        return None


def install_getattr(module) -> None:
    """Give a real msxla module a ``__getattr__`` that consults the index."""
    own = vars(module).get("__getattr__")
    if getattr(own, "__msxla_index__", False):
        return
    if not hasattr(module, "__path__") and _paths.is_package(module.__name__):
        module.__path__ = []  # a package in MindSpore: its submodules are derived
    if type(module) is types.ModuleType:
        module.__class__ = _IndexedModule
    module.__msxla_own_getattr__ = own
    hook = _paths.module_getattr(module.__name__, own)
    hook.__msxla_index__ = True
    module.__getattr__ = hook


def install() -> None:
    """Put the finder first on ``sys.meta_path`` (``import msxla`` does this)."""
    global _installed
    with _lock:
        if not _installed:
            sys.meta_path.insert(0, _Finder())
            _installed = True


def index_loaded_modules() -> None:
    """Give the msxla modules imported before the finder the index's ``__getattr__``."""
    for name, module in list(sys.modules.items()):
        if ((name == "msxla" or name.startswith("msxla.")) and module is not None
                and _paths.is_mindspore_module(name)
                and not getattr(module, "__msxla_derived__", False)):
            install_getattr(module)


def real_mindspore():
    """Where an installed MindSpore lives (its package directory), or None."""
    for entry in sys.path:
        if os.path.abspath(entry or ".") == os.path.abspath(SHIM_DIR):
            continue
        spec = importlib.machinery.PathFinder.find_spec("mindspore", [entry or "."])
        if spec is not None and spec.submodule_search_locations:
            return list(spec.submodule_search_locations)[0]
    return None


def alias_mindspore(quiet: bool = False) -> None:
    """Make ``import mindspore`` (and every ``mindspore.*``) resolve to msxla.

    Call it before the first ``import mindspore``, e.g. in a notebook's first
    cell. ``python -m msxla script.py`` does it for you. If a real MindSpore is
    installed, one line on stderr says that it is not the one used.
    """
    global _aliasing
    import msxla

    present = sys.modules.get("mindspore")
    if present is not None and present is not msxla and not getattr(present, "__msxla_shim__",
                                                                      False):
        where = getattr(present, "__file__", None) or "an unknown location"
        raise ImportError(
            f"'mindspore' is already imported from {where}, so it cannot be made to resolve to "
            "msxla in this process. Call msxla.alias_mindspore() before the first "
            "'import mindspore' (in a notebook: restart the kernel and run it in the first cell), "
            "or run the script with 'python -m msxla SCRIPT.py'.")
    install()
    with _lock:
        first = not _aliasing
        _aliasing = True
        sys.modules["mindspore"] = msxla
    if first and not quiet:
        real = real_mindspore()
        if real is not None:
            print(f"msxla: 'mindspore' resolves to msxla {msxla.__version__}; the MindSpore "
                  f"installed at {real} is not used in this process.", file=sys.stderr)


def is_aliasing() -> bool:
    return _aliasing
