"""What every layer knows of ``jit``: its options, its mutable markers, its callables.

- ``JitOptions``: the validated settings of one jitted function (made by
  ``msxla.jit.config.make_options``). Capture reads ``capture_mode`` and
  ``fullgraph``; jit reads the rest; ``lower`` and ``ge`` get plain values.
- The ``mutable()`` marker types (``msxla.jit.mutable``): a scalar or container
  of one of these types is a graph input rather than a baked-in constant.
- ``Jitted``: the base of the callable ``jit`` returns. A capture that meets
  one inside the code it captures inlines ``fn`` (its backend is the outer
  graph's); the layers below jit know it by this type only.
"""
from __future__ import annotations

import dataclasses

import jax

CAPTURE_MODES = ("ast", "bytecode", "trace")
JIT_LEVELS = ("O0", "O1")
BACKENDS = ("", "ms_backend", "GE")


@dataclasses.dataclass(frozen=True)
class JitOptions:
    """The validated settings of one jitted function."""

    capture_mode: str = "ast"
    jit_level: str = "O0"
    dynamic: int = 0
    fullgraph: bool = False
    backend: str = ""
    options: tuple = ()  # sorted (key, value) pairs of the backend options

    def option(self, key, default=None):
        return dict(self.options).get(key, default)


class Jitted:
    """Base of ``JitFunction``: ``fn`` (what it compiles), ``options``, ``name``."""

    __slots__ = ()
    fn: object
    options: JitOptions
    name: str


class MutableInt(int):
    pass


class MutableFloat(float):
    pass


class MutableTuple(tuple):
    pass


class MutableList(list):
    pass


class MutableDict(dict):
    pass


# The mutable containers are pytrees like the builtins they extend (a grad of a
# mutable tuple of Tensors differentiates its Tensors) and keep their type.
jax.tree_util.register_pytree_node(
    MutableTuple, lambda t: (tuple(t), None), lambda _, c: MutableTuple(c))
jax.tree_util.register_pytree_node(
    MutableList, lambda t: (list(t), None), lambda _, c: MutableList(c))
jax.tree_util.register_pytree_with_keys(
    MutableDict,
    lambda d: (tuple((jax.tree_util.DictKey(k), v) for k, v in d.items()), tuple(d)),
    lambda keys, c: MutableDict(zip(keys, c)),
    lambda d: (tuple(d.values()), tuple(d)))

MUTABLE_SCALARS = frozenset({MutableInt, MutableFloat})
MUTABLE_CONTAINERS = frozenset({MutableTuple, MutableList, MutableDict})
