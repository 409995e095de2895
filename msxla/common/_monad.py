"""``mindspore.common._monad``: the side-effect monads ``U`` and ``IO``.

MindSpore threads two tokens through a graph to order its side effects: the
universe monad (memory: Parameter reads and writes) and the IO monad (printing).
User code and MindSpore's tests pass them explicitly, ``F.depend(x, monad.U)``
or ``ops.Load()(param, U)``. msxla orders effects by program order (jax's
ordered effects inside a captured graph), so a monad carries no value: it is a
Python constant that ``depend`` ignores and that a graph keeps as a constant.

``UMonad()`` and ``IOMonad()`` return the one instance of each (as MindSpore's
monad values compare equal to each other); their MindSpore types are
``UMonadType`` and ``IOMonadType``.
"""
from __future__ import annotations

from msxla.common.dtype import _Other

__all__ = ["U", "IO"]

UMonadType = _Other("UMonad")
IOMonadType = _Other("IOMonad")


class Monad:
    """A side-effect token (no value); the base of ``UMonad`` and ``IOMonad``."""

    __slots__ = ()
    _instance = None
    _type = None

    def __new__(cls):
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self):
        return type(self).__name__

    __str__ = __repr__

    def __reduce__(self):
        return (type(self), ())

    def __deepcopy__(self, memo):
        return self

    def __copy__(self):
        return self

    @property
    def dtype(self):
        """The monad's MindSpore type (``UMonadType`` / ``IOMonadType``)."""
        return type(self)._type


class UMonad(Monad):
    """The universe monad: orders memory side effects (Parameter writes)."""

    __slots__ = ()
    _instance = None
    _type = UMonadType


class IOMonad(Monad):
    """The IO monad: orders input/output side effects (printing)."""

    __slots__ = ()
    _instance = None
    _type = IOMonadType


# Universe monad default value.
U = UMonad()

# IO monad default value.
IO = IOMonad()


def is_monad(value) -> bool:
    """Is ``value`` one of the monads (which ops that take them skip)?"""
    return isinstance(value, Monad)
