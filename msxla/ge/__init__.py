"""StableHLO -> GE (Ascend Graph Engine) graphs, the AIR file, and a numpy executor.

    model = msxla.ge.convert(lowered)      # a Lowered, or a StableHLO MLIR module
    print(model.dump())                     # readable text
    model.save("net.air")                   # the AIR file ATC takes (a binary ModelDef)
    outs, _ = model.run(*numpy_inputs)      # the reference executor

``backend="GE"`` in ``msxla.jit`` / ``JitConfig`` compiles through this
package (``msxla/jit/backend_ge.py``); ``msxla.export(..., file_format="AIR")``
writes the file (``msxla/export.py``). This package knows StableHLO and GE
only: nothing of capture, jit or nn.
"""
from msxla.ge.convert import Signature, convert_module
from msxla.ge.graph import AttrDtype, GeGraph, GeModel, GeNode, ListListInt, TensorDesc
from msxla.ge.registry import CONVERTERS, GeConversionError, supported_ops
from msxla.ge.serialize import from_bytes, load_air, save_air, to_bytes


def convert(source, name: str | None = None, sig: Signature | None = None,
            attrs=None) -> GeModel:
    """A GE model from a ``Lowered`` (``msxla.jit(f).lower(...)``), a jax
    ``Lowered`` or a StableHLO MLIR module."""
    module = source
    if hasattr(source, "stablehlo"):
        module = source.stablehlo()
    elif hasattr(source, "compiler_ir"):
        module = source.compiler_ir("stablehlo")
    return convert_module(module, name or "graph", sig, attrs)


__all__ = ["convert", "convert_module", "Signature", "GeModel", "GeGraph", "GeNode",
           "TensorDesc", "AttrDtype", "ListListInt", "GeConversionError", "CONVERTERS",
           "supported_ops", "to_bytes", "from_bytes", "save_air", "load_air"]
