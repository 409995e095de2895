"""The captured graph: the one type every capture mode produces.

A ``CapturedGraph`` is a closed jaxpr plus the record around it:

- inputs: the call's leaves (Tensor values), then the values of the
  Parameters read (``state_in``);
- outputs: the function's output leaves, then the new values of the
  Parameters written (``state_out``, in first-write order), then the new
  values of argument Tensors the function modified in place (``mutated``),
  then the Tensors it appends to logs (``appends``, ``logs.py``);
- ``out_spec``: how to rebuild the Python return value from the output leaves;
- ``guards``: what the capture baked in and must still hold to reuse it;
- the source map: which user line each equation came from.

Nothing downstream (lowering, XLA, GE) knows which capture mode made it.
"""
from __future__ import annotations

import dataclasses

import jax

from msxla._source import SourceLoc
from msxla.capture.guards import GuardSet


@dataclasses.dataclass
class CapturedGraph:
    closed_jaxpr: object                 # jax ClosedJaxpr
    name: str
    mode: str                            # "trace", "ast" or "bytecode"
    n_args: int                          # leading inputs that are call leaves
    state_in: tuple                      # Parameters read, in input order
    state_out: tuple                     # Parameters written, in output order
    mutated: tuple                       # indices (into the leaves) of argument Tensors written
    out_spec: object                     # a value node: see signature.flatten_output
    n_outs: int                          # leading outputs that are function outputs
    guards: GuardSet = dataclasses.field(default_factory=GuardSet)
    notes: list = dataclasses.field(default_factory=list)  # things the capture wants said
    appends: tuple = ()                  # (log list, items) appended per call (logs.py)

    @property
    def jaxpr(self):
        return self.closed_jaxpr.jaxpr

    @property
    def in_avals(self):
        return tuple(self.closed_jaxpr.in_avals)

    @property
    def out_avals(self):
        return tuple(self.closed_jaxpr.out_avals)

    def source_map(self) -> list[tuple[str, SourceLoc | None]]:
        """``(primitive name, user location)`` for each top-level equation."""
        return [(eqn.primitive.name, equation_location(eqn)) for eqn in self.jaxpr.eqns]

    def op_counts(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for eqn in self.jaxpr.eqns:
            counts[eqn.primitive.name] = counts.get(eqn.primitive.name, 0) + 1
        return counts

    def __str__(self):
        lines = [f"captured graph '{self.name}' ({self.mode})"]
        lines.append(f"  inputs: {self.n_args} argument leaves"
                     + (f", state {[p.name for p in self.state_in]}" if self.state_in else ""))
        lines.append(f"  outputs: {self.n_outs} leaves"
                     + (f", state {[p.name for p in self.state_out]}" if self.state_out else "")
                     + (f", in-place arguments {list(self.mutated)}" if self.mutated else ""))
        if self.guards:
            lines.append("  guards:")
            lines += [f"    {g}" for g in self.guards.describe()]
        lines.append(_indent(str(self.closed_jaxpr), "  "))
        located = [(n, loc) for n, loc in self.source_map() if loc is not None]
        if located:
            lines.append("  source:")
            lines += [f"    {n}: {loc}" for n, loc in located]
        return "\n".join(lines)


def _indent(text, prefix):
    return "\n".join(prefix + line for line in text.splitlines())


def equation_location(eqn) -> SourceLoc | None:
    """The user's file and line an equation was traced from."""
    from msxla._jax_compat import user_frame
    frame = user_frame(eqn.source_info.traceback)
    if frame is None:
        return None
    return SourceLoc(frame.file_name, frame.start_line, frame.start_column,
                     frame.end_column, frame.end_line, frame.function_name)


def aval_of(value):
    return jax.ShapeDtypeStruct(value.shape, value.dtype)
