"""The deprecated ``ops.operations.identity`` Primitive (use ``nn.Identity``): it
returns its input. It lives only in ``ops.operations``; ``ops.identity`` is the
function of the same name, so it is no family's export."""
from msxla.ops.primitive import PrimDef
from msxla.ops.surface import composite


@composite(public=False, prim="identity", primitive=PrimDef("identity"))
def _identity(x):
    """Return ``x``."""
    return x
