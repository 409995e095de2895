"""``mindspore.ops.functional`` (imported as ``F``): every functional op.

That is each op row's public function and every other public function the op
families export (random draws, state ops, composites), but not Primitive classes.
"""
import inspect as _inspect

import msxla.ops as _ops
from msxla.ops.opdef import REGISTRY as _REGISTRY

globals().update({name: row.public for name, row in _REGISTRY.items()})
globals().update({name: value for name, value in vars(_ops).items()
                  if not name.startswith("_") and callable(value)
                  and not _inspect.isclass(value) and not _inspect.ismodule(value)})
