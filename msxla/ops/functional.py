"""``mindspore.ops.functional`` (imported as ``F``): the functional ops."""
from msxla.ops.opdef import REGISTRY as _REGISTRY

globals().update({name: row.public for name, row in _REGISTRY.items()})

from msxla.ops.composite import (  # noqa: E402,F401
    get_grad, grad, jacfwd, jacrev, jvp, partial, value_and_grad, vjp)
