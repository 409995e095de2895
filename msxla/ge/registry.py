"""The converter registry: one function per StableHLO op, keyed by the op's name.

    @ge_converter("stablehlo.add", "stablehlo.subtract")
    def _binary(ctx, op):            # -> one GeTensor per result of ``op``
        ...

Custom calls are keyed ``"stablehlo.custom_call @<call_target_name>"``. An
op without a converter is a ``GeConversionError`` naming the op and the
user's line that produced it (``convert.py`` raises it).
"""
from __future__ import annotations

from msxla.errors import MsxlaError, _compose

CONVERTERS: dict = {}


def ge_converter(*names):
    """Register ``fn(ctx, op) -> list[GeTensor]`` for the StableHLO ops ``names``."""
    def deco(fn):
        for name in names:
            if name in CONVERTERS:
                raise ValueError(f"two GE converters for {name}")
            CONVERTERS[name] = fn
        return fn
    return deco


class GeConversionError(MsxlaError, RuntimeError):
    """A StableHLO op (or a form of it) that has no GE equivalent in msxla."""

    __module__ = "msxla.ge"


def conversion_error(message, loc=None, hint=None) -> GeConversionError:
    err = GeConversionError(_compose(message, loc, hint))
    err.loc, err.hint = loc, hint
    return err


def supported_ops() -> list:
    _load_all()
    return sorted(CONVERTERS)


def _load_all():
    """Import every converter family (each registers its ops on import)."""
    from msxla.ge import (convert_elementwise, convert_shape, convert_index,  # noqa: F401
                          convert_dot_conv, convert_reduce, convert_window, convert_sort,
                          convert_control_flow, convert_misc)
