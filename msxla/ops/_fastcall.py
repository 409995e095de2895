"""The generated public function of an op row (``ops.add`` and friends).

Each row's public function has MindSpore's exact signature and a fast path
for the common call: every dynamic argument is a Tensor, a Parameter, a
Python scalar or None and every static argument is already hashable. The
fast path reads the dtypes, looks the cast up in a per-row dict, calls the
row's jitted implementation and wraps the result; for ``ops.add(a, b)`` it
reads::

    def add(input, other):
        c = input.__class__
        if c is _T or c is _P: d0 = input._data; k0 = d0.dtype
        elif c in _PY: d0 = input; k0 = c
        elif input is None: d0 = k0 = None
        else: return _call(_row, (input, other, ), {})
        ... (the same for other) ...
        try:
            cast = _casts.get((k0, k1), _MISS)
            if cast is _MISS: cast = _learn((k0, k1))
            return _wrap(_jitted(cast, d0, d1))
        except _ERRORS:
            return _call(_row, (input, other, ), {})

Everything else, and every error (so that it is reported by ``call_op`` with
MindSpore's exception type and the op's name), takes ``call_op``.
"""
from __future__ import annotations

import os

from msxla.common import dtype as mstype
from msxla.common.parameter import Parameter
from msxla.common.tensor import Tensor
from msxla.ops import _dispatch

_MISS = object()
_PY = frozenset({bool, int, float})


def make_public(row, dyn, call_op):
    """Generate ``def name(<MindSpore signature>)`` for ``row``."""
    sig = row.signature
    casts = {}

    def learn(key):
        types = tuple(mstype.from_np(k) if hasattr(k, "kind") else k
                      for k in key if k is not None)
        cast = row.rule(types)
        casts[key] = cast
        return cast

    ns = {"_call": call_op, "_row": row, "_T": Tensor, "_P": Parameter, "_PY": _PY,
          "_casts": casts, "_learn": learn, "_MISS": _MISS, "_jitted": row.jitted,
          "_wrap": _dispatch.wrap_output,
          "_ERRORS": (TypeError, ValueError, IndexError, AttributeError, KeyError),
          "_list": list}
    parts, star_done = [], False
    for p in sig.parameters.values():
        if p.kind is p.KEYWORD_ONLY and not star_done:
            parts.append("*")
            star_done = True
        if p.kind is p.VAR_POSITIONAL:
            parts.append(f"*{p.name}")
            star_done = True
            continue
        if p.default is p.empty:
            parts.append(p.name)
        else:
            ns[f"_d_{p.name}"] = p.default
            parts.append(f"{p.name}=_d_{p.name}")
    dyn_src = "".join(f"{d}, " for d in dyn)
    stat_src = ", ".join(f"{s!r}: {s}" for s in row.static)
    slow = f"return _call(_row, ({dyn_src}), {{{stat_src}}})"
    has_varargs = any(p.kind is p.VAR_POSITIONAL for p in sig.parameters.values())
    lines = [f"def {row.name}({', '.join(parts)}):"]
    if has_varargs:
        lines.append(f"    {slow}")
    else:
        lines += _fast_body(row, dyn, slow)
    src = "\n".join(lines) + "\n"
    # The file name lies inside the package so jax and msxla treat the frame as internal.
    filename = os.path.join(os.path.dirname(__file__), f"<generated op {row.name}>")
    exec(compile(src, filename, "exec"), ns)  # noqa: S102 - generated wrapper
    fn = ns[row.name]
    fn.__doc__ = row.impl.__doc__
    fn.__module__ = "msxla.ops"
    fn.__qualname__ = row.name
    fn.__wrapped_row__ = row
    fn.__source__ = src
    return fn


def _fast_body(row, dyn, slow):
    lines = []
    keyed = [i for i in row.key_pos]
    for i, name in enumerate(dyn):
        key = f"k{i}" if i in keyed and row.dtype_rule is not None else None
        lines.append(f"    c = {name}.__class__")
        lines.append(f"    if c is _T or c is _P: d{i} = {name}._data" +
                     (f"; {key} = d{i}.dtype" if key else ""))
        lines.append(f"    elif c in _PY: d{i} = {name}" + (f"; {key} = c" if key else ""))
        lines.append(f"    elif {name} is None: d{i} = None" + (f"; {key} = None" if key else ""))
        lines.append(f"    else: {slow}")
    for s in row.static:
        lines.append(f"    if {s}.__class__ is _list or {s}.__class__ is _T: {slow}")
    lines.append("    try:")  # a failure (even of the dtype rule) is reported by _call
    if row.dtype_rule is not None and keyed:
        key_src = "(" + "".join(f"k{i}, " for i in keyed) + ")"
        lines.append(f"        cast = _casts.get({key_src}, _MISS)")
        lines.append(f"        if cast is _MISS: cast = _learn({key_src})")
    else:
        lines.append("        cast = None")
    args_src = "".join(f"d{i}, " for i in range(len(dyn)))
    kw_src = "".join(f"{s}={s}, " for s in row.static)
    lines.append(f"        return _wrap(_jitted(cast, {args_src}{kw_src}))")
    lines.append("    except _ERRORS:")
    lines.append(f"        {slow}")
    return lines
