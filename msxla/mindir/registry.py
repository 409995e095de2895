"""The export converter registry: one function per StableHLO op, keyed by the op's name.

    @mindir_converter("stablehlo.add", "stablehlo.subtract")
    def _binary(ctx, op):            # -> one MValue per result of ``op``
        ...

An op without a converter is a ``MindIRExportError`` naming the op and the
user's line that produced it (``convert.py`` raises it).
"""
from __future__ import annotations

from msxla.errors import MsxlaError, _compose

CONVERTERS: dict = {}


def mindir_converter(*names):
    """Register ``fn(ctx, op) -> list[MValue]`` for the StableHLO ops ``names``."""
    def deco(fn):
        for name in names:
            if name in CONVERTERS:
                raise ValueError(f"two MindIR converters for {name}")
            CONVERTERS[name] = fn
        return fn
    return deco


class MindIRExportError(MsxlaError, RuntimeError):
    """A StableHLO op (or a form of it) that msxla cannot write as MindSpore primitives."""

    __module__ = "msxla.mindir"


def export_error(message, loc=None, hint=None) -> MindIRExportError:
    err = MindIRExportError(_compose(message, loc, hint))
    err.loc, err.hint = loc, hint
    return err


def supported_ops() -> list:
    load_all()
    return sorted(CONVERTERS)


def load_all():
    """Import every converter family (each registers its ops on import)."""
    from msxla.mindir import (convert_elementwise, convert_shape, convert_reduce,  # noqa: F401
                              convert_nn, convert_index)
