"""``mindspore.ops._register_for_op``: registries keyed by Primitive class or name.

A ``Registry`` maps a Primitive class (by identity) or a Primitive name to a
function; ``get(prim, default)`` finds the entry for a Primitive instance by its
class first, then by its ``name``, or for a string by that name. The bprop
registries of ``mindspore.ops._grad.grad_base`` are Registries.
"""
from __future__ import annotations

from collections import UserDict

__all__ = ["Registry", "PyFuncRegistry"]


class Registry(UserDict):
    """Functions registered for Primitive classes or Primitive names."""

    def register(self, prim):
        """Decorator: register the function for ``prim`` (a Primitive class or a name)."""

        def deco(fn):
            self._store(prim, fn)
            return fn

        return deco

    def _store(self, prim, fn):
        from msxla.ops.primitive import Primitive
        if isinstance(prim, str):
            self[prim] = fn
        elif isinstance(prim, type) and issubclass(prim, Primitive):
            self[id(prim)] = fn
        else:
            raise TypeError("For 'register', the key must be a Primitive class or a Primitive "
                            f"name, but got {type(prim).__name__}.")

    def get(self, prim_obj, default=None):
        """The function for ``prim_obj`` (a Primitive instance or a name), else ``default``."""
        from msxla.ops.primitive import Primitive
        if isinstance(prim_obj, str):
            return self.data.get(prim_obj, default)
        if isinstance(prim_obj, Primitive):
            for cls in type(prim_obj).__mro__:
                fn = self.data.get(id(cls))
                if fn is not None:
                    return fn
            return self.data.get(prim_obj.name, default)
        return default


class PyFuncRegistry(UserDict):
    """Python functions by key; ``get`` of an unknown key is a ValueError."""

    def register(self, key, value):
        self[key] = value

    def get(self, key):
        if key not in self:
            raise ValueError(f"Python function with key{key} not registered.")
        return self[key]
