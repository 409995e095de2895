"""``mindspore.ops.functional`` (imported as ``F``): the functional ops."""
from msxla.ops.opdef import REGISTRY as _REGISTRY

globals().update({name: row.public for name, row in _REGISTRY.items()})
