"""``ops.Morph(fn, infer_shape, infer_dtype, bprop_fn=None)``: a user function used as a
Primitive.

Calling the Primitive calls ``fn`` on its inputs, so it is captured and
differentiated like the rest of the program (MindSpore expands it before
differentiation the same way); with ``bprop_fn`` the inputs' gradients are
``bprop_fn(*inputs, out, dout)`` instead, as for a Cell's ``bprop``.
``infer_shape`` and ``infer_dtype`` are kept (jax infers both from ``fn``).
MindSpore runs Morph in GRAPH_MODE only; msxla runs it in PyNative too.
"""
from __future__ import annotations

from msxla.autodiff.custom_bprop import call_with_bprop
from msxla.ops.primitive import REQUIRED, PrimDef
from msxla.ops.surface import composite, exports


def _morph_call(prim, *args, **kwargs):
    if prim.bprop_fn is not None:
        return call_with_bprop(prim.fn, prim.bprop_fn, args, kwargs)
    return prim.fn(*args, **kwargs)


def _check(prim):
    for name in ("fn", "infer_shape", "infer_dtype"):
        if not callable(getattr(prim, name)):
            raise TypeError(f"For 'Morph', '{name}' must be a function, but got "
                            f"{type(getattr(prim, name)).__name__}.")
    if prim.bprop_fn is not None and not callable(prim.bprop_fn):
        raise TypeError("For 'Morph', 'bprop_fn' must be a function or None, but got "
                        f"{type(prim.bprop_fn).__name__}.")


@composite(public=False, primitive=PrimDef(
    "Morph", init=(("fn", REQUIRED), ("infer_shape", REQUIRED), ("infer_dtype", REQUIRED),
                   ("bprop_fn", None)), call=_morph_call, check=_check))
def _morph(*args, **kwargs):
    """A user function applied as a Primitive (the Primitive's ``fn``)."""
    raise TypeError("ops.Morph is a Primitive: create it with Morph(fn, infer_shape, "
                    "infer_dtype) and call the instance.")


__all__ = exports(__name__)
