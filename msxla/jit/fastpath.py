"""The generated hot path of one compiled entry.

For each compiled entry one Python function is generated that does the whole
cached call in one frame: check the call against the signature (structure,
baked-in values, guards), read the Parameters the graph reads, call the XLA
executable, write back the Parameters it wrote, and wrap the outputs. For the
seed's ``a*b+c`` it reads::

    def fast(args, kwargs):
        if kwargs: return MISS
        try:
            _a0, _a1, _a2, = args
        except ValueError:  # another number of arguments
            return MISS
        ...type checks...
        try:
            outs = _call(_a0._data, _a1._data, _a2._data)
        except TypeError:   # compiled for other shapes/dtypes: refused before running
            return MISS
        _t = _new(_Tensor)  # wrap(outs[0]) without its frame
        _t._data = outs[0]
        return _t

The call's checks come from the signature (``signature.matcher_code``, the
same checks ``make_matcher`` generates, failing with ``MISS``). Entries that
write argument Tensors in place or append to logs use ``Entry.run`` instead.
"""
from __future__ import annotations

import sys

import jax
import jax.numpy as jnp

from msxla.capture import signature as S
from msxla.common.tensor import Tensor
from msxla.jit.entry import MISS


def make_fast_call(entry, spec):
    """``fast(args, kwargs) -> output | MISS`` for ``entry`` and its signature ``spec``."""
    graph = entry.graph
    ns = {"MISS": MISS, "_call": entry.call, "_build": entry.build,
          "_refs": sys.getrefcount, "_copy": _copy}
    lines, leaves = S.matcher_code(spec, ns, miss="MISS")
    if graph.guards:
        ns["_guards"] = graph.guards
        lines.append("if not _guards.check(): return MISS")
    # The hot path runs with no state frame active, so a Parameter's value is
    # its `_value`. A donated buffer is copied first if anything else holds it.
    args = list(leaves)
    donated = set(entry.donated)
    for i, p in enumerate(graph.state_in):
        ns[f"_sin{i}"] = p
        if i in donated:
            lines.append(f"_v{i} = _sin{i}._value")
            lines.append(f"if _refs(_v{i}) > {_OWNED_REFS}: _v{i} = _copy(_v{i})")
            args.append(f"_v{i}")
        else:
            args.append(f"_sin{i}._value")
    lines += ["try:",
              f"    outs = _call({', '.join(args)})",
              "except TypeError:",
              "    return MISS"]
    if entry.checked:  # a failed check surfaces now, before any Parameter is written
        ns["_block"] = jax.block_until_ready
        lines.append("_block(outs)")
    n = graph.n_outs
    for i, p in enumerate(graph.state_out):
        ns[f"_sout{i}"] = p
        lines.append(f"_sout{i}._value = outs[{n + i}]")
    if graph.out_spec == S.TENSOR_OUT:  # wrap(outs[0]), without its frame
        ns["_new"], ns["_Tensor"] = object.__new__, Tensor
        lines += ["_t = _new(_Tensor)", "_t._data = outs[0]", "return _t"]
    elif graph.state_out:
        lines.append(f"return _build(outs[:{n}])")
    else:
        lines.append("return _build(outs)")
    fn_src = "def fast(args, kwargs):\n" + "".join(f"    {line}\n" for line in lines)
    exec(compile(fn_src, "<msxla jit fast path>", "exec"), ns)  # noqa: S102 - generated
    fast = ns["fast"]
    fast.source = fn_src
    return fast


# sys.getrefcount of a Parameter's buffer held only by the Parameter and one local.
_OWNED_REFS = 3


def _copy(array):
    return jnp.array(array, copy=True)


def can_fast_call(entry) -> bool:
    return not entry.graph.mutated and not entry.graph.appends


__all__ = ["make_fast_call", "can_fast_call"]
