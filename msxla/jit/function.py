"""``JitFunction``: a jitted callable and its call policy.

Its compiled entries live in a ``CompileCache`` (``cache.py``). A call first
tries the most recently used entries: each has a generated
matcher that checks the call's structure, baked-in values and guards and
returns its leaves, and the entry runs the XLA executable (``entry.py``).
Anything else takes the slow path: flatten the arguments, look the
signature up in the cache (entries whose guards fail are dropped and the
reason is logged when ``explain_recompiles`` is on), or capture a new one:
a captured graph is compiled under the function's options
(``compile.compile_graph``); a captured program (graphs and Python steps, for
graph breaks) becomes a ``ProgramEntry`` whose pieces are compiled as they
get hot (``program.py``).

Calls made while another graph is being captured are inlined into it; calls
whose inputs are jax tracers (under ``grad``) run the graph through jax so
they can be differentiated.
"""
from __future__ import annotations

import functools
import logging
import threading
import types
import weakref

from jax.core import Tracer
from jax.errors import JaxRuntimeError

from msxla._log import note_once
from msxla.capture import signature as S
from msxla.capture.capture import RunEagerly, capture, inlined
from msxla.capture.discover import discover
from msxla.capture.guards import CellGuard, GuardSet
from msxla.capture.program import CapturedProgram
from msxla.capture.values import Const
from msxla.common.state import _local, is_capturing
from msxla.context import CONTEXT, GRAPH_MODE
from msxla.errors import ConcretizationError
from msxla.jit import explain
from msxla.jit.cache import CompileCache
from msxla.jit.compile import compile_graph, traceable_graph
from msxla.jit.config import check_backend_at_call
from msxla.jit.counters import Counters, code_of, code_record
from msxla.jit.dynamic_entry import _fits as _dynamic_fits, find_or_make
from msxla.jit.entry import MISS, Entry
from msxla.jit.fastpath import can_fast_call, make_fast_call
from msxla.jit.program import ProgramEntry, ProgramRunner
from msxla.lower.lowering import lower
from msxla.ops._runtime_check import reraise_checked
from msxla.options import JitOptions, Jitted

LOG = logging.getLogger("msxla")
RECOMPILE_WARNING = 8      # warn once when a function has been captured this many times
SCALAR_BRAKE = 3           # distinct values of one scalar argument before it becomes an input


class JitFunction(Jitted):
    """The callable ``jit(fn)`` returns."""

    def __init__(self, fn, options: JitOptions, name: str | None = None):
        self.fn = fn
        self.options = options
        self.name = name or getattr(fn, "__qualname__", None) or type(fn).__name__
        self.cache = CompileCache(self.name)  # compiled entries, hot calls (jit/cache.py)
        self._candidates: list = []
        self._lock = threading.RLock()
        self._scalar_values: dict = {}
        self._dynamic_scalars: set = set()
        self._static_forced: set = set()
        self._bound = weakref.WeakKeyDictionary()
        self._seen_shapes: dict = {}       # spec -> aval keys seen (dynamic=1)
        self._static_only: set = set()     # specs whose code needs concrete dimensions
        self._eager: set = set()           # signatures that run in Python (JIT Fallback)
        self.declared_inputs = getattr(fn, "__msxla_dynamic_inputs__", None)
        self.stats = Counters()
        self.code_record = code_record(code_of(fn))  # per code object, over jitted functions
        # MindSpore: in GRAPH_MODE a bytecode-jitted function is a plain function
        self._plain_in_graph_mode = options.capture_mode == "bytecode"
        try:
            functools.update_wrapper(self, fn)
        except (AttributeError, TypeError):
            pass

    # ---------------------------------------------------------------- call
    def __call__(self, *args, **kwargs):
        try:
            if _local.frame is None:
                if self._plain_in_graph_mode and CONTEXT.mode == GRAPH_MODE:
                    return self.fn(*args, **kwargs)
                for fast, counter in self.cache.fast:
                    out = fast(args, kwargs)
                    if out is not MISS:
                        counter.calls += 1
                        self.code_record.last = counter
                        return out
            return self._call_slow(args, kwargs)
        except JaxRuntimeError as err:  # a runtime check of the graph failed
            reraise_checked(err)

    def __get__(self, obj, objtype=None):
        """``@jit`` on a method: bind per instance, each instance with its own cache."""
        if obj is None:
            return self
        try:
            return self._bound[obj]
        except (KeyError, TypeError):
            pass
        bound = JitFunction(types.MethodType(self.fn, obj), self.options, self.name)
        try:
            self._bound[obj] = bound
        except TypeError:
            pass
        return bound

    def _call_slow(self, args, kwargs, _retry=False):
        if is_capturing():  # inside another graph's capture: become part of that graph
            return inlined(self.fn, self.options, self.name)(*args, **kwargs)
        if self._plain_in_graph_mode and CONTEXT.mode == GRAPH_MODE:
            return self.fn(*args, **kwargs)
        check_backend_at_call(self.options.backend)
        spec, leaves, owners = S.flatten_args(args, kwargs, self._dynamic_scalars)
        traced = _local.frame is not None or any(isinstance(x, Tracer) for x in leaves)
        key = (spec, S.aval_key(leaves))
        if key in self._eager:
            return self.fn(*args, **kwargs)
        with self._lock:
            entry = self.cache.lookup(key)
            if entry is None and not traced and (self.options.dynamic or
                                                 self.declared_inputs is not None):
                entry = find_or_make(self, spec, key, leaves, args, kwargs)
            if entry is None:
                try:
                    entry = self._compile(key, spec, leaves, args, kwargs)
                except ConcretizationError as err:
                    if not self._dynamic_scalars:
                        if isinstance(err, RunEagerly):
                            return self._run_eagerly(key, err, args, kwargs)
                        raise
                    # a scalar made an input is used as a Python value: keep it a constant
                    LOG.warning("jit '%s': a scalar argument is used as a Python value, so "
                                "it stays a constant (one graph per value).", self.name)
                    self._static_forced |= self._dynamic_scalars
                    self._dynamic_scalars.clear()
                    return self._call_slow(args, kwargs)
            if entry.counter is None:
                self._count_entry(entry, key)
            self.cache.promote(entry)
        self.stats.slow_calls += 1
        entry.counter.calls += 1
        self.code_record.last = entry.counter
        if isinstance(entry, ProgramEntry):  # graphs and Python steps (graph breaks)
            return entry.run_call(args, kwargs, traced)
        if traced:
            if entry.collectives:  # per-rank collectives differentiate through the Python
                return self.fn(*args, **kwargs)  # function (their own gradient rules)
            if _state_retyped(entry.state_in):  # an integer Parameter grad differentiates
                return self.fn(*args, **kwargs)  # as float: the Python, on its float value
            return entry.run_traced(leaves, lambda: owners, self._traceable_graph,
                                    (args, kwargs))
        out = entry.run(leaves, lambda: owners, (args, kwargs))
        if out is MISS:
            if not _retry:
                # a Parameter the graph reads changed shape or dtype since it was
                # captured (set_dtype, set_data with another shape): capture again
                explain.state_changed(self.name)
                with self._lock:
                    self.cache.drop(key)
                return self._call_slow(args, kwargs, _retry=True)
            raise RuntimeError(f"jit '{self.name}': the compiled graph rejected the inputs "
                               "it was compiled for.")
        return out

    def _traceable_graph(self, graph):
        return traceable_graph(graph, self.options, self.stats)

    def _count_entry(self, entry, key):
        """A new entry (a graph, or graphs and Python steps) in the code's record."""
        record = self.code_record
        program = isinstance(entry, ProgramEntry)
        graph = None if program else entry.graph
        phase = None if program else f"{self.name}[{record.entries}]"
        guards = list(graph.guards.describe()) if graph is not None and graph.guards else []
        entry.counter = record.new_entry(self, key, phase, guards)

    def _run_eagerly(self, key, err, args, kwargs):
        """JIT Fallback: the capture cannot make a graph for this signature (a piece
        needs a Tensor's value in Python), so it runs in Python from now on."""
        self._eager.add(key)
        self.code_record.fallbacks += 1
        note_once(f"eager:{id(self)}", f"{err}\nThis function runs in Python (PyNative) for "
                  "these inputs (JIT Fallback); use fullgraph=True to make this an error.")
        return self.fn(*args, **kwargs)

    # ------------------------------------------------------------- compile
    def _compile(self, key, spec, leaves, args, kwargs):
        explain.new_signature(self.name, key, self.cache.keys())
        self._track_scalars(spec)
        graph = self.capture_graph(spec, leaves, args, kwargs)
        if isinstance(graph, CapturedProgram):  # graphs and Python steps (graph breaks)
            runner = ProgramRunner(graph, self.stats, JitFunction)
            entry = ProgramEntry(runner, spec, graph.guards)
            self.cache.add(key, entry)
            return entry
        lowered, compiled = compile_graph(graph, self.options, self.stats)
        guard_src = "_guards.check()" if graph.guards else ""
        match = S.make_matcher(spec, guard_src, {"_guards": graph.guards})
        entry = Entry(graph, lowered, compiled, match)
        entry.fast = make_fast_call(entry, spec) if can_fast_call(entry) else _generic_fast(entry)
        self.cache.add(key, entry)
        if self.stats.captures == RECOMPILE_WARNING:
            LOG.warning("jit '%s' has been captured %d times (new shapes, dtypes or baked-in "
                        "values); pass varying scalars with mutable(), or use dynamic=1 for "
                        "varying shapes. Set msxla.jit.explain_recompiles(True) to see why.",
                        self.name, RECOMPILE_WARNING)
        return entry

    def capture_graph(self, spec, leaves, args, kwargs):
        """Capture the function for this call signature (no lowering)."""
        found = discover(self.fn, args, kwargs)
        candidates = self._candidates
        seen = {id(p) for p in candidates}
        for p in found.param_list() + S.spec_params(spec) + _rng_params():
            if id(p) not in seen:
                candidates.append(p)
                seen.add(id(p))
        guards = GuardSet(found.guards, CellGuard(found.cells.values()) if found.cells else None)
        graph = capture(self.fn, spec, leaves, candidates, self.options, self.name, guards)
        self.stats.captures += 1
        for note in graph.notes:
            note_once(f"{self.name}:{note}", f"jit '{self.name}': {note}.")
        return graph

    def _track_scalars(self, spec):
        """The recompile brake: a top-level scalar argument that keeps changing value
        becomes a graph input (logged) instead of a new graph per value."""
        for i, node in enumerate(spec.args):
            if type(node) is not Const or node.cls not in (int, float) or \
                    (i,) in self._static_forced:
                continue
            values = self._scalar_values.setdefault(i, set())
            values.add(node.value)
            if len(values) >= SCALAR_BRAKE and (i,) not in self._dynamic_scalars:
                self._dynamic_scalars.add((i,))
                LOG.warning("jit '%s': argument %d took %d different values; it is now a "
                            "graph input instead of a constant (use mutable() to say so "
                            "up front).", self.name, i, len(values))

    # ------------------------------------------------------------ staging
    def capture(self, *args, **kwargs):
        """The CapturedGraph this call would run (captured, not compiled)."""
        spec, leaves, _ = S.flatten_args(args, kwargs, self._dynamic_scalars)
        with self._lock:
            return self.capture_graph(spec, leaves, args, kwargs)

    def lower(self, *args, **kwargs):
        """The call's graph lowered to StableHLO: ``.as_text()``, ``.compile()``."""
        spec, leaves, _ = S.flatten_args(args, kwargs, self._dynamic_scalars)
        with self._lock:
            entry = self.cache.lookup((spec, S.aval_key(leaves)))
            dyn = self.cache.dynamic.get(spec)
        if entry is None and dyn is not None and _dynamic_fits(dyn, leaves):
            entry = dyn
        if entry is not None:
            return entry.lowered
        graph = self.capture(*args, **kwargs)
        if isinstance(graph, CapturedProgram):
            raise RuntimeError(f"jit '{self.name}' has graph breaks: call it first, then "
                               "lower() gives the first graph of its program.")
        return lower(graph, self.options.jit_level)

    def __repr__(self):
        return f"<jit '{self.name}' {self.options.capture_mode} {self.options.jit_level}>"


def _generic_fast(entry):
    """The hot-path call of an entry that writes argument Tensors in place."""
    match, run = entry.match, entry.run

    def fast(args, kwargs):
        leaves = match(args, kwargs)
        if leaves is None:
            return MISS
        return run(leaves, lambda: S.flatten_args(args, kwargs)[2], (args, kwargs))
    return fast


def _state_retyped(params):
    """Does a Parameter hold a value of another dtype in the current frame than the one
    graphs are captured with (an integer Parameter that ``grad`` differentiates)?"""
    return any(p._data.dtype != p._value.dtype for p in params)


def _rng_params():
    """The random-number state, created before any capture so that a random op
    inside the graph reads and advances it as graph state."""
    from msxla.common import seed
    return [seed.rng_state()]
