"""``mindspore.ops.functional`` (imported as ``F``): every functional op.

That is every public function the op families export (``msxla.ops.surface``):
each op row's public function and alias names, and the composites (random
draws, state ops, metadata queries), but not Primitive classes; plus the
composite helpers ``ops`` re-exports (``partial``, ``grad``, ...).
"""
import inspect as _inspect

import msxla.ops as _ops
from msxla.ops.surface import exported as _exported

globals().update({name: obj for _, name, obj in _exported() if not _inspect.isclass(obj)})
globals().update({name: value for name, value in vars(_ops).items()
                  if not name.startswith("_") and callable(value)
                  and not _inspect.isclass(value) and not _inspect.ismodule(value)})
