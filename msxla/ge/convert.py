"""StableHLO module -> ``GeModel``: the walk that drives the converters.

The entry function's arguments become ``Data`` nodes (graph inputs, in
order) or, for Parameters, ``Variable`` nodes (``Const`` when exporting for
inference); its results feed one ``NetOutput``, except new Parameter values,
which become ``Assign(variable, value)`` nodes tied to the NetOutput by
control edges (GE's convention for state updates). Every op is handed to the
converter registered for its name (``registry.py``); ``func.call`` is
inlined; ``while`` / ``case`` / ``if`` regions become GE subgraphs whose
``Data`` nodes read the parent op's inputs (``_parent_node_index``).

An op with no converter raises ``GeConversionError`` naming the op and the
user's source line (taken from the op's ``loc``, or from the call site when
the op sits inside a jax helper function).
"""
from __future__ import annotations

import dataclasses

import numpy as np

from msxla.ge import parse, passes
from msxla.ge.builder import GeTensor, GraphBuilder, Namer
from msxla.ge.graph import GeModel
from msxla.ge.registry import CONVERTERS, _load_all, conversion_error

MODEL_ATTRS = {"memory_size": 0, "p2p_memory_size": 0, "stream_num": 0, "event_num": 0,
               "label_num": 0, "weight_size": 0}


@dataclasses.dataclass
class Signature:
    """How the entry function's arguments and results map onto GE's graph I/O.

    Arguments: ``n_data`` graph inputs (Data), then one per ``variables`` name
    (a Variable, or a Const holding ``const_values[i]`` when given).
    Results: ``n_outs`` graph outputs, then one Assign per ``assign_to`` name,
    then further graph outputs (argument Tensors written in place)."""

    n_data: int | None = None
    variables: tuple = ()
    const_values: tuple | None = None
    n_outs: int | None = None
    assign_to: tuple = ()


class Context:
    """What a converter sees: the current graph builder and the value map."""

    def __init__(self, converter, builder: GraphBuilder, locs=()):
        self.converter = converter
        self.b = builder
        self.env: dict = {}
        self.locs = list(locs)

    def get(self, value) -> GeTensor:
        return self.env[value]

    def inputs(self, op) -> list:
        return [self.env[v] for v in op.operands]

    def loc(self, op):
        return parse.location(op) or (self.locs[-1] if self.locs else None)

    def error(self, op, message, hint=None):
        return conversion_error(f"For GE, {message}", self.loc(op), hint)

    def unsupported(self, op, detail):
        return self.error(op, f"'{parse.op_label(op)}' {detail} has no GE conversion.",
                          "Run this function with the default backend (backend='ms_backend').")

    # ---------------------------------------------------------- blocks
    def run_block(self, block, args) -> list:
        """Convert a block into the current graph, its arguments bound to ``args``."""
        for barg, t in zip(block.arguments, args):
            self.env[barg] = t
        for view in block.operations:
            op = view.operation
            if op.name in ("func.return", "stablehlo.return"):
                return [self.env[v] for v in op.operands]
            self.convert_op(op)
        return []

    def convert_op(self, op):
        if op.name == "func.call":
            callee = op.attributes["callee"].value
            loc = parse.location(op)
            if loc is not None:
                self.locs.append(loc)
            try:
                outs = self.run_block(parse.entry_block(self.converter.funcs[callee]),
                                      self.inputs(op))
            finally:
                if loc is not None:
                    self.locs.pop()
        else:
            conv = CONVERTERS.get(parse.op_label(op)) or CONVERTERS.get(op.name)
            if conv is None:
                raise self.error(op, f"'{parse.op_label(op)}' has no converter to a GE operator.",
                                 "Run this function with the default backend "
                                 "(backend='ms_backend'), or avoid the op that produces it.")
            outs = conv(self, op)
        for r, t in zip(op.results, outs):
            self.env[r] = t

    # ------------------------------------------------------- subgraphs
    def subgraph(self, role: str, block, arg_tensors, captured, parent_index,
                 passthrough=False, out_parent=True):
        """Build a GE subgraph from ``block``: one Data per block argument, then one
        per captured outer value (``parent_index(i)``: the parent op's input port
        feeding Data ``i``). Its NetOutput returns the block's results (then the
        captured values again with ``passthrough``, for While bodies). Returns the
        subgraph's name and its outputs."""
        conv = self.converter
        name = conv.namer.take(role)
        sub = GraphBuilder(name, conv.namer)
        ctx = Context(conv, sub, self.locs)
        feeds = []
        for i, t in enumerate(list(arg_tensors) + [self.env[v] for v in captured]):
            feeds.append(sub.add("Data", [], [(t.dtype, t.shape)],
                                 {"index": i, "_parent_node_index": parent_index(i)})[0])
        n = len(arg_tensors)
        for v, t in zip(captured, feeds[n:]):
            ctx.env[v] = t
        outs = ctx.run_block(block, feeds[:n])
        if passthrough:
            outs = outs + feeds[n:]
        sub.add("NetOutput", [list(outs)], [])
        if out_parent:
            for k, d in enumerate(sub.graph.nodes[-1].input_desc):
                d.attrs["_parent_node_index"] = k
        sub.graph.inputs = [f"{nd.name}:0" for nd in sub.graph.nodes if nd.type == "Data"]
        sub.graph.outputs = [t.ref for t in outs]
        conv.subgraphs.append(sub.graph)
        return name, outs

    def const_value(self, t: GeTensor):
        """The value of ``t`` if a Const node produces it, else None."""
        node = self.b.node_of(t)
        if node is not None and node.type == "Const":
            return node.attrs["value"]
        return None


class Converter:
    def __init__(self, module, name: str):
        _load_all()
        self.module = module
        self.funcs = parse.functions(module)
        self.name = name
        self.namer = Namer()
        self.subgraphs: list = []

    def _host_effect_error(self, block):
        """A host effect the graph could not hand out (one inside a Tensor condition or
        loop: only top-level ones run around the GE graph), at its user's line."""
        where = None
        stack = [op.operation for op in block.operations]
        while stack and where is None:
            op = stack.pop(0)
            if op.name == "stablehlo.custom_call" and "callback" in str(
                    op.attributes["call_target_name"]):
                where = parse.location(op)
            for region in op.regions:
                for inner in region.blocks:
                    stack.extend(o.operation for o in inner.operations)
        return conversion_error(
            "For GE, a print (or another effect that runs on the host) inside a Tensor "
            "condition or loop cannot be part of a GE graph: GE cannot call the host, and "
            "only effects outside conditions and loops run on the host after the graph.",
            where, "move the print out of the condition or loop, or run this function with "
                   "the default backend.")

    def convert(self, sig: Signature | None = None, attrs=None) -> GeModel:
        sig = sig or Signature()
        main = self.funcs["main"]
        block = parse.entry_block(main)
        args = list(block.arguments)
        if any("token" in str(a.type) for a in args):
            raise self._host_effect_error(block)
        n_data = len(args) if sig.n_data is None else sig.n_data
        b = GraphBuilder(self.name, self.namer)
        ctx = Context(self, b)
        feeds = []
        for i, a in enumerate(args):
            shape, dtype = parse.value_type(a)
            if i < n_data:
                feeds.append(b.add("Data", [], [(dtype, shape)], {"index": i},
                                   name=self.namer.take(f"input_{i}"))[0])
                continue
            j = i - n_data
            if sig.const_values is not None:
                feeds.append(b.const(np.asarray(sig.const_values[j], dtype)))
            else:
                feeds.append(b.add("Variable", [], [(dtype, shape)], {"index": j},
                                   name=self.namer.take(sig.variables[j]))[0])
        variables = {sig.variables[j]: feeds[n_data + j] for j in range(len(args) - n_data)}
        with _numpy_errors():
            results = ctx.run_block(block, feeds)
        n_outs = len(results) if sig.n_outs is None else sig.n_outs
        outputs = results[:n_outs] + results[n_outs + len(sig.assign_to):]
        assigns = []
        if sig.const_values is None:
            for j, var in enumerate(sig.assign_to):
                value = results[n_outs + j]
                ref = variables.get(var)
                if ref is None:
                    ref = b.add("Variable", [], [(value.dtype, value.shape)],
                                {"index": len(variables)}, name=self.namer.take(var))[0]
                    variables[var] = ref
                out = b.add("Assign", [ref, value], [(value.dtype, value.shape)])[0]
                assigns.append(out.ref.rsplit(":", 1)[0])
        b.add("NetOutput", [list(outputs)], [], name=self.namer.take("NetOutput"),
              control=assigns)
        g = b.graph
        g.inputs = [f"{n.name}:0" for n in g.nodes if n.type == "Data"]
        g.outputs = [t.ref for t in outputs]
        model_attrs = dict(MODEL_ATTRS)
        model_attrs.update(attrs or {})
        return passes.run(GeModel(self.name, [g] + self.subgraphs, model_attrs))


class _numpy_errors:
    """Constant folding in converters may overflow on purpose (wrapping ints)."""

    def __enter__(self):
        self._old = np.seterr(all="ignore")

    def __exit__(self, *exc):
        np.seterr(**self._old)


def convert_module(module, name: str = "graph", sig: Signature | None = None,
                   attrs=None) -> GeModel:
    """Convert a StableHLO module (jaxlib MLIR ``Module``) to a GE model."""
    with module.context:
        return Converter(module, name).convert(sig, attrs)
