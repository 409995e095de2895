"""``ops.Partial``: the Primitive form of ``ops.partial`` (``Partial()(fn, *args)``
is ``fn`` with ``args`` bound first), as older graph code writes it."""
from __future__ import annotations

import functools

from msxla.ops.primitive import PrimDef
from msxla.ops.surface import composite, exports


def _partial_call(prim, func, *args):
    if not callable(func):
        raise TypeError(f"For 'Partial', the first input must be a function, but got "
                        f"{type(func).__name__}.")
    return functools.partial(func, *args)


@composite(public=False, primitive=PrimDef("Partial", call=_partial_call))
def _partial_prim(func, *args):
    """``func`` with ``args`` bound."""


__all__ = exports(__name__)
