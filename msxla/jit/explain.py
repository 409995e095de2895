"""Why a jitted function recompiles, said through logging when asked.

``explain_recompiles(True)`` (or the environment variable
``MSXLA_EXPLAIN_RECOMPILES=1``) logs, for every new capture, what differs
from the closest signature already compiled (``args[0].shape: (2, 3) -> (4, 3)``)
or which guard failed (``global 'COEF': 1.0 -> 5.0``).
"""
from __future__ import annotations

from msxla import flags
from msxla._log import LOG
from msxla.capture.signature import Call
from msxla.capture.values import ByIdentity, Const, Seq, describe_kind
from msxla.common.parameter import Parameter

_enabled = flags.explain_recompiles()


def explain_recompiles(enabled: bool = True):
    """Log the reason of every recompilation of a jitted function."""
    global _enabled
    _enabled = bool(enabled)


def guard_failed(name, guards):
    if _enabled:
        for reason in guards.explain():
            LOG.warning("jit '%s' recompiles: %s", name, reason)


def state_changed(name):
    if _enabled:
        LOG.warning("jit '%s' recompiles: a Parameter it reads changed its shape or dtype",
                    name)


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
    if isinstance(a, Call) and isinstance(b, Call):
        for i, (x, y) in enumerate(zip(a.args, b.args)):
            _spec_diff(x, y, f"args[{i}]", out)
        if len(a.args) != len(b.args):
            out.append(f"number of arguments: {len(a.args)} -> {len(b.args)}")
        if a.kwnames != b.kwnames:
            out.append(f"keyword arguments: {list(a.kwnames)} -> {list(b.kwnames)}")
        for k, x, y in zip(b.kwnames, a.kwargs, b.kwargs):
            _spec_diff(x, y, f"kwargs[{k!r}]", out)
        return
    if type(a) is Const and type(b) is Const:
        out.append(f"{path}: {a.value!r} -> {b.value!r}")
    elif type(a) is Seq and type(b) is Seq and len(a.children) == len(b.children):
        for i, (x, y) in enumerate(zip(a.children, b.children)):
            _spec_diff(x, y, f"{path}[{i}]", out)
    else:
        out.append(f"{path}: {_kind(a)} -> {_kind(b)}")


def _kind(node):
    if isinstance(node, ByIdentity) and isinstance(node.obj, Parameter):
        return "Parameter"
    return describe_kind(node)


def leaf_paths(spec):
    """A path (``args[0][1]``) for each leaf of a spec, in leaf order."""
    return spec.leaf_paths()
