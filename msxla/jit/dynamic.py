"""``dynamic=1``: one graph with symbolic dimensions instead of one per shape.

Policy (MindSpore's observable one, in every capture mode): the first two
shapes of a call signature compile static graphs; the third new shape makes
one *generalised* graph in which every dimension that differed between the
calls seen is symbolic (jax shape polymorphism) and the others stay static.
Dimensions whose sizes were always equal to each other share one symbol (so
``x + y`` of two batch-sized inputs still type-checks). Shapes can also be
declared up front with ``Tensor(shape=[None, 3], dtype=...)`` through
``Cell.set_inputs`` or ``enable_dynamic``; then there is exactly one capture.

The generalised graph is captured and lowered once (its StableHLO has ``?``
dimensions) and exported; an XLA executable for each concrete shape is made
from that one exported module (no re-capture, no re-lowering of the graph)
and kept in a bounded cache.
"""
from __future__ import annotations

import collections
import string

import jax
from jax import export

from msxla._jax_compat import compiled_callable

MAX_EXECUTABLES = 32


def generalise(keys):
    """Symbolic leaf shapes covering every aval key in ``keys`` (or None).

    ``keys`` are tuples of ``(shape, dtype)`` per leaf for one call structure;
    they must agree in ranks and dtypes."""
    first = keys[0]
    for k in keys[1:]:
        if len(k) != len(first) or any(len(s) != len(s0) or d != d0
                                       for (s, d), (s0, d0) in zip(k, first)):
            return None
    # for every (leaf, axis) that varies: the tuple of its sizes over the calls
    varying = {}
    for li, (shape, _) in enumerate(first):
        for ax in range(len(shape)):
            sizes = tuple(k[li][0][ax] for k in keys)
            if len(set(sizes)) > 1:
                varying[(li, ax)] = sizes
    if not varying:
        return None
    names, symbol_of = {}, {}
    for pos, sizes in varying.items():
        if sizes not in names:
            names[sizes] = _symbol_name(len(names))
        symbol_of[pos] = names[sizes]
    return symbolic_avals(first, symbol_of)


def symbolic_avals(first_key, symbol_of):
    """ShapeDtypeStructs with ``symbol_of[(leaf, axis)]`` as symbolic dims."""
    spec_strs = []
    for li, (shape, _) in enumerate(first_key):
        dims = [symbol_of.get((li, ax), str(n)) for ax, n in enumerate(shape)]
        spec_strs.append("(" + ", ".join(dims) + ("," if len(dims) == 1 else "") + ")")
    scope = export.SymbolicScope()
    shapes = [export.symbolic_shape(s, scope=scope) for s in spec_strs]
    return tuple(jax.ShapeDtypeStruct(shape, dtype)
                 for shape, (_, dtype) in zip(shapes, first_key))


ANY_RANK = "any rank"  # the declared shape of ``Tensor(None, dtype=...)``


def declared_avals(specs, first_key):
    """Symbolic avals from declared placeholders (``Tensor(shape=[None, 3])``).

    ``specs`` gives, per leaf, the declared shape (None entries are dynamic),
    or None for a leaf with no declaration or declared ``ANY_RANK`` (msxla then
    compiles per shape, as for an undeclared input: XLA has no rank-polymorphic
    programs, and making every dim of the call's rank symbolic breaks ops that
    need a static dim). Undeclared dims are static; declared dynamic dims with
    equal sizes in the first call share a symbol. None when no dim is dynamic."""
    symbol_of, names = {}, {}
    for li, declared in enumerate(specs):
        if declared is None or declared == ANY_RANK:
            continue
        shape = first_key[li][0]
        if len(declared) != len(shape):
            raise ValueError(f"The declared dynamic shape {list(declared)} of input {li} has "
                             f"rank {len(declared)}, but the input has shape {shape}.")
        for ax, d in enumerate(declared):
            if d is None:
                size = shape[ax]
                if size not in names:
                    names[size] = _symbol_name(len(names))
                symbol_of[(li, ax)] = names[size]
            elif d != shape[ax]:
                raise ValueError(f"The input {li} has shape {shape}, which does not fit the "
                                 f"declared shape {list(declared)}.")
    if not symbol_of:
        return None
    return symbolic_avals(first_key, symbol_of)


def _symbol_name(i):
    letters = string.ascii_lowercase
    return letters[i] if i < 26 else f"d{i}"


class ShapeCache:
    """Per-concrete-shape XLA executables made from one exported module.

    A call whose shapes fall outside the module's symbolic signature is
    refused with TypeError (to the caller, a cache miss), like an executable
    compiled for other shapes."""

    def __init__(self, exported, stats, compiler_options=None, donate=()):
        self.exported = exported
        self.stats = stats
        self._options = compiler_options or None
        self._jitted_call = jax.jit(exported.call, donate_argnums=tuple(donate))
        self._execs: collections.OrderedDict = collections.OrderedDict()

    def executable(self, leaves_and_state):
        key = tuple((tuple(x.shape), x.dtype) for x in leaves_and_state)
        fn = self._execs.get(key)
        if fn is not None:
            self._execs.move_to_end(key)
            return fn
        avals = [jax.ShapeDtypeStruct(s, d) for s, d in key]
        try:
            lowered = self._jitted_call.lower(*avals)
        except (ValueError, TypeError) as err:
            raise TypeError(f"shapes outside the dynamic signature: {err}") from None
        fn = compiled_callable(lowered.compile(compiler_options=self._options))
        self.stats.compiled("XLA")
        self._execs[key] = fn
        if len(self._execs) > MAX_EXECUTABLES:
            self._execs.popitem(last=False)
        return fn

    def __call__(self, *flat):
        return self.executable(flat)(*flat)


def export_graph(lowered_graph_callable, avals):
    """The exported (serialisable, shape-polymorphic) module of a graph."""
    return export.export(jax.jit(lowered_graph_callable))(*avals)
