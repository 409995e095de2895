"""``msxla.jit.explain``: what a jitted call captured, where it broke and why.

    report = msxla.jit.explain(fn)(*args, **kwargs)
    print(report)            # graphs, graph breaks with reasons and source lines,
                             # guards, op counts
    report.graph_count, report.break_count, report.breaks, report.graphs

``fn`` is a function, a bound method, a Cell or a ``jit``-wrapped function;
keyword arguments of ``explain`` are ``jit``'s (``capture_mode`` defaults to
``"bytecode"``; a jitted ``fn`` keeps its own options). The call runs once
through a fresh jitted copy (so everything is captured anew, including the
functions it calls that have their own breaks) with ``fullgraph=False``, so
every break is listed rather than the first raised. ``report.value`` is the
call's result.
"""
from __future__ import annotations

import dataclasses

from msxla._source import SourceLoc


@dataclasses.dataclass
class GraphInfo:
    name: str
    graph: object                 # the CapturedGraph
    op_counts: dict
    guards: list

    @property
    def op_count(self) -> int:
        return sum(self.op_counts.values())


@dataclasses.dataclass
class ExplainReport:
    value: object
    graphs: list
    breaks: list                  # BreakRecords found while capturing
    steps: list                   # BreakRecords run in Python during this call, in order
    python_tails: list

    @property
    def graph_count(self) -> int:
        return len(self.graphs)

    @property
    def break_count(self) -> int:
        return len(self.breaks)

    @property
    def op_count(self) -> int:
        return sum(g.op_count for g in self.graphs)

    @property
    def op_counts(self) -> dict:
        total: dict = {}
        for g in self.graphs:
            for name, n in g.op_counts.items():
                total[name] = total.get(name, 0) + n
        return total

    @property
    def guards(self) -> list:
        out = []
        for g in self.graphs:
            out.extend(x for x in g.guards if x not in out)
        return out

    def break_lines(self) -> list[int]:
        return [b.loc.line for b in self.breaks if isinstance(b.loc, SourceLoc)]

    def __str__(self):
        lines = [(f"{self.graph_count} graph(s), {self.break_count} graph break(s), "
                  f"{self.op_count} op(s)")]
        for i, b in enumerate(self.breaks, 1):
            lines.append(f"graph break {i}: {b.format()}")
        for i, g in enumerate(self.graphs, 1):
            ops = ", ".join(f"{k} x{v}" for k, v in sorted(g.op_counts.items()))
            lines.append(f"graph {i} ({g.name}): {g.op_count} op(s): {ops or '-'}")
            for guard in g.guards:
                lines.append(f"  guard: {guard}")
        for name in self.python_tails:
            lines.append(f"'{name}' ran the rest of its frame in Python")
        return "\n".join(lines)


def explain(fn=None, **jit_options):
    """``explain(fn, **jit_options)(*args, **kwargs) -> ExplainReport`` (see the module doc)."""
    if fn is None:
        return lambda f: explain(f, **jit_options)

    def run(*args, **kwargs):
        from msxla.capture.bytecode import nested
        from msxla.capture.bytecode.record import Recorder
        jitted = _fresh_jitted(fn, jit_options)
        with Recorder() as rec, nested.fresh_cache():
            value = jitted(*args, **kwargs)
        graphs = [_info(name, g) for name, g in rec.graphs]
        if not graphs:
            graphs = [_info(jitted.name, e.graph) for e in jitted.cache.entries.values()
                      if getattr(e, "graph", None) is not None]
        return ExplainReport(value, graphs, list(rec.breaks), list(rec.steps),
                             list(rec.python_tails))
    return run


def _info(name, graph):
    return GraphInfo(name, graph, graph.op_counts(), list(graph.guards.describe()))


def _fresh_jitted(fn, jit_options):
    import dataclasses as dc

    from msxla.jit.api import _wrap_target
    from msxla.jit.config import make_options
    from msxla.jit.function import JitFunction
    if isinstance(fn, JitFunction):
        options = dc.replace(fn.options, fullgraph=False)
        return JitFunction(fn.fn, options, fn.name)
    jit_options = dict(jit_options)
    jit_options.setdefault("capture_mode", "bytecode")
    jit_options["fullgraph"] = False
    return _wrap_target(fn, make_options(**jit_options))
