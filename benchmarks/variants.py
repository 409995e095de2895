"""The rows of the jit tutorial's benchmark table, and the peers, as callables.

``SEED_VARIANTS`` lists the tutorial's rows (enable jit, jit level, capture
mode, backend, fullgraph) in its order; ``PEERS`` adds raw ``jax.jit`` and
jax eager of the same computation. ``build(variant, workload, peer, direction)``
returns a ``Runner``: the callable, its arguments, and what this build does
with the row's options ("captured by", "compiled by"), read from msxla rather
than assumed, so the table says when a capture mode or backend is still
served by another one.
"""
from __future__ import annotations

import dataclasses

import jax

import msxla as ms

FORWARD = "forward"
TRAIN = "forward+backward"


@dataclasses.dataclass(frozen=True)
class Variant:
    name: str
    kind: str                 # "msxla" | "jax.jit" | "jax eager"
    enable_jit: bool = False
    jit_level: str = "-"
    capture_mode: str = "-"
    backend: str = "-"
    fullgraph: bool | None = None

    def jit_kwargs(self):
        kwargs = {"capture_mode": self.capture_mode, "fullgraph": bool(self.fullgraph)}
        if self.backend == "GE":
            kwargs["backend"] = "GE"
        else:
            kwargs["jit_level"] = self.jit_level
        return kwargs


def _seed_variants():
    rows = [Variant("PyNative", "msxla")]
    for mode in ("ast", "bytecode", "trace"):
        for level in ("O0", "O1"):
            rows.append(Variant(f"{mode} {level}", "msxla", True, level, mode, "ms_backend",
                                False))
        rows.append(Variant(f"{mode} GE", "msxla", True, "-", mode, "GE", False))
    for level in ("O0", "O1"):
        rows.append(Variant(f"ast {level} fullgraph", "msxla", True, level, "ast", "ms_backend",
                            True))
    rows.append(Variant("ast GE fullgraph", "msxla", True, "-", "ast", "GE", True))
    return rows


SEED_VARIANTS = _seed_variants()
PEERS = [Variant("raw jax.jit", "jax.jit", True, "-", "jax.jit", "XLA"),
         Variant("jax eager", "jax eager")]
ALL_VARIANTS = SEED_VARIANTS + PEERS
REFERENCE = "raw jax.jit"


def captured_by(mode):
    """The front end that really captures ``capture_mode=mode`` in this build."""
    from msxla.capture.capture import front_ends
    if mode == "trace" or mode in front_ends():
        return mode
    return "trace (front end pending)"


def compiled_by(jitted, backend):
    """What runs a jitted function's graphs here, read from its compiled entries: XLA, or
    msxla's GE graph on the GE reference executor (numpy; there is no Ascend device)."""
    kinds = set()
    for entry in list(jitted.cache.entries.values()):
        compiled = getattr(entry, "compiled", None)
        if compiled is None:
            kinds.add("graphs + Python steps")
        elif type(compiled).__module__.startswith("msxla.ge"):
            kinds.add("GE reference executor (numpy)")
        else:
            kinds.add("XLA (GE pending)" if backend == "GE" else "XLA")
    return ", ".join(sorted(kinds)) or "-"


@dataclasses.dataclass
class Runner:
    variant: Variant
    fn: object
    args: tuple
    jitted: object = None     # the msxla JitFunction or jax.jit object, for its counters

    def __call__(self):
        return self.fn(*self.args)

    def compiles(self):
        """(captures, lowerings, compiles) so far; None where nothing is compiled."""
        if self.variant.kind == "jax.jit":
            n = self.jitted._cache_size()
            return {"captures": n, "lowerings": n, "compiles": n}
        if self.jitted is None:
            return None
        stats = self.jitted.stats.as_dict()
        return {k: stats[k] for k in ("captures", "lowerings", "compiles")}

    def describe(self):
        v = self.variant
        if v.kind != "msxla" or not v.enable_jit:
            return {"captured_by": "-", "compiled_by": "XLA" if v.kind == "jax.jit" else "-"}
        return {"captured_by": captured_by(v.capture_mode),
                "compiled_by": compiled_by(self.jitted, v.backend)}


def _msxla_callable(workload, direction):
    if direction == FORWARD:
        return workload.forward
    grad_fn = ms.value_and_grad(workload.loss, None, workload.weights())

    def train_step(*inputs):
        return grad_fn(*inputs)
    return train_step


def build(variant: Variant, workload, peer, direction) -> Runner:
    """The callable for one row of the table on one workload and direction."""
    if variant.kind == "msxla":
        fn = _msxla_callable(workload, direction)
        args = tuple(workload.inputs)
        if not variant.enable_jit:
            return Runner(variant, fn, args)
        jitted = ms.jit(fn, **variant.jit_kwargs())
        return Runner(variant, jitted, args, jitted)
    if direction == FORWARD:
        fn, args = peer.forward, peer.forward_args
    else:
        fn, args = jax.value_and_grad(peer.loss, has_aux=True), peer.train_args
    if variant.kind == "jax.jit":
        jitted = jax.jit(fn)
        return Runner(variant, jitted, args, jitted)
    return Runner(variant, fn, args)


def result_arrays(variant: Variant, out, workload, direction):
    """The comparable arrays of one call's result: the output, or the loss and then
    the gradients in the order of ``workload.weights()``."""
    import numpy as np
    if direction == FORWARD:
        return [np.asarray(getattr(out, "_data", out))]
    if variant.kind == "msxla":
        loss, grads = out
        return [np.asarray(loss._data)] + [np.asarray(g._data) for g in grads]
    (loss, _), grads = out
    return [np.asarray(loss)] + [np.asarray(grads[p.name]) for p in workload.weights()]


def max_relative_error(arrays, reference):
    """max over arrays of max|a - r| / max|r| (0 when they agree exactly)."""
    import numpy as np
    worst = 0.0
    for a, r in zip(arrays, reference, strict=True):
        if a.shape != r.shape:
            return float("inf")
        scale = max(float(np.max(np.abs(r))), 1e-30)
        worst = max(worst, float(np.max(np.abs(a.astype(np.float64) - r))) / scale)
    return worst
