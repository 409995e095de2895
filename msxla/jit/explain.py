"""Why a jitted function recompiles, said through logging when asked.

``explain_recompiles(True)`` (or the environment variable
``MSXLA_EXPLAIN_RECOMPILES=1``) logs, for every new capture, what differs
from the closest signature already compiled (``args[0].shape: (2, 3) -> (4, 3)``)
or which guard failed (``global 'COEF': 1.0 -> 5.0``).
"""
from __future__ import annotations

from msxla import flags
from msxla._log import LOG

_enabled = flags.explain_recompiles()


def explain_recompiles(enabled: bool = True):
    """Log the reason of every recompilation of a jitted function."""
    global _enabled
    _enabled = bool(enabled)


def guard_failed(name, guards):
    if _enabled:
        for reason in guards.explain():
            LOG.warning("jit '%s' recompiles: %s", name, reason)


def new_signature(name, key, previous_keys):
    if not _enabled or not previous_keys:
        return
    best = min(previous_keys, key=lambda k: len(signature_diff(k, key)))
    for reason in signature_diff(best, key)[:8]:
        LOG.warning("jit '%s' recompiles: %s", name, reason)


def signature_diff(old, new):
    """Human-readable differences between two (spec, avals) keys."""
    (old_spec, old_avals), (new_spec, new_avals) = old, new
    out = []
    if old_spec != new_spec:
        _spec_diff(old_spec, new_spec, "args", out)
    paths = leaf_paths(new_spec)
    if len(old_avals) == len(new_avals):
        for path, (os_, od), (ns, nd) in zip(paths, old_avals, new_avals):
            if os_ != ns:
                out.append(f"{path}.shape: {os_} -> {ns}")
            if od != nd:
                out.append(f"{path}.dtype: {od} -> {nd}")
    return out


def _spec_diff(a, b, path, out):
    if a == b:
        return
    if a[0] == "args" and b[0] == "args":
        for i, (x, y) in enumerate(zip(a[1], b[1])):
            _spec_diff(x, y, f"args[{i}]", out)
        if len(a[1]) != len(b[1]):
            out.append(f"number of arguments: {len(a[1])} -> {len(b[1])}")
        if a[2] != b[2]:
            out.append(f"keyword arguments: {list(a[2])} -> {list(b[2])}")
        for k, x, y in zip(b[2], a[3], b[3]):
            _spec_diff(x, y, f"kwargs[{k!r}]", out)
        return
    if a[0] == b[0] == "S":
        out.append(f"{path}: {a[2]!r} -> {b[2]!r}")
    elif a[0] == b[0] == "seq" and len(a[2]) == len(b[2]):
        for i, (x, y) in enumerate(zip(a[2], b[2])):
            _spec_diff(x, y, f"{path}[{i}]", out)
    else:
        out.append(f"{path}: {_kind(a)} -> {_kind(b)}")


def _kind(node):
    return {"T": "Tensor", "P": "Parameter", "S": "constant", "M": "mutable scalar",
            "O": "object", "seq": "sequence", "dict": "dict", "C": "const Tensor",
            "N": "numpy array"}.get(node[0], node[0])


def leaf_paths(spec):
    """A path (``args[0][1]``) for each leaf of a spec, in leaf order."""
    out = []

    def walk(node, path):
        kind = node[0]
        if kind in ("T", "M", "N"):
            out.append(path)
        elif kind == "seq":
            for i, c in enumerate(node[2]):
                walk(c, f"{path}[{i}]")
        elif kind == "dict":
            for k, c in zip(node[2], node[3]):
                walk(c, f"{path}[{k!r}]")
    for i, c in enumerate(spec[1]):
        walk(c, f"args[{i}]")
    for k, c in zip(spec[2], spec[3]):
        walk(c, f"kwargs[{k!r}]")
    return out
