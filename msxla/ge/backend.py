"""Names and attributes of a GE graph made from a jitted function's graph.

- ``variable_names(params)``: one unique GE ``Variable`` name per Parameter;
- ``ge_option_attrs(ge_options)``: ``jit``/``JitConfig``'s ``ge_options`` as
  model attributes ``ge.global.<key>`` / ``ge.session.<key>``;
- ``graph_name(name)``: a GE graph name from a function's name.

``backend="GE"`` itself (the executable a jitted function calls) is
``msxla/jit/backend_ge.py``; ``mindspore.export(..., "AIR")`` is
``msxla/export.py``. Both build on these.
"""
from __future__ import annotations

import re


def ge_option_attrs(ge_options) -> dict:
    """``ge_options`` (as given to jit / JitConfig) as model attributes
    ``ge.global.<key>`` / ``ge.session.<key>``."""
    attrs = {}
    for scope, table in _thaw(ge_options or {}).items():
        for key, value in _thaw(table).items():
            attrs[f"ge.{scope}.{key}"] = str(value)
    return attrs


def _thaw(value):
    if isinstance(value, tuple) and all(isinstance(v, tuple) and len(v) == 2 for v in value):
        return {k: _thaw(v) for k, v in value}
    return value


def variable_names(params) -> dict:
    """A unique GE variable name per Parameter (by identity)."""
    names, taken = {}, set()
    for p in params:
        if id(p) in names:
            continue
        base = re.sub(r"[^A-Za-z0-9_.]", "_", getattr(p, "name", "") or "Parameter")
        name, k = base, 1
        while name in taken:
            name = f"{base}_{k}"
            k += 1
        taken.add(name)
        names[id(p)] = name
    return names


def graph_name(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.]", "_", name) or "graph"
