"""The flat interface of one graph ``if`` or loop: variables, Parameters, in-place Tensors.

A ``Plan`` lists, in order, what a ``lax.cond`` returns or a
``lax.while_loop`` carries: the arrays of each variable (by its layout), the
new values of the Parameters some path writes, and the new values of the
watched Tensors some path changes in place. The plan is first guessed from
the values before the construct; a path that does not fit raises ``Replan``
from inside jax's tracing, the caller widens the plan with what the paths
produced and traces again (at most a few times; the plan only widens).
"""
from __future__ import annotations

from msxla.capture.ast import aliases
from msxla.capture.ast import layout as L


class Replan(Exception):
    """A path does not fit the plan; trace again with a wider one."""


class Plan:
    def __init__(self, names, values, dead=frozenset()):
        self.names = tuple(names)
        # ``dead``: indices of variables nothing reads after the construct (a helper
        # function defined in a branch): never handed on, so a new Python object on
        # each trace does not force another trace.
        self.dead = frozenset(dead)
        self.nodes = [L.DROP if i in self.dead else L.observe(v) for i, v in enumerate(values)]
        self.params: list = []     # Parameters written on some path
        self.mutated: list = []    # watch indices changed in place on some path

    def pack(self, result, watch, param_now, baseline=None) -> list:
        """The arrays of one path's ``PathResult`` (raises Replan if it does not fit).
        ``param_now(p)`` gives the value of a Parameter the path did not write."""
        out: list = []
        try:
            for node, value in zip(self.nodes, result.values):
                L.pack(node, value, out)
        except L.Misfit:
            raise Replan() from None
        planned = {id(p) for p in self.params}  # by identity: Tensor == is element-wise
        if any(id(p) not in planned for p in result.written) or any(
                i not in self.mutated for i in result.mutated):
            raise Replan()
        for p in self.params:
            out.append(result.param_values[p] if p in result.param_values else param_now(p))
        before = watch.before if baseline is None else baseline
        for i in self.mutated:
            out.append(result.mutated.get(i, before[i]))
        return out

    def zeros(self, watch, param_now) -> list:
        """Arrays of the plan's shape for a path that raises (never used)."""
        out: list = []
        for node in self.nodes:
            L.zeros(node, out)
        out += [param_now(p) for p in self.params]
        out += [watch.before[i] for i in self.mutated]
        return out

    def pack_values(self, values, param_now, datas) -> list:
        """The arrays of the values before a loop (its initial carry)."""
        out: list = []
        for node, value in zip(self.nodes, values):
            L.pack(node, value, out)
        out += [param_now(p) for p in self.params]
        out += [datas[i] for i in self.mutated]
        return out

    def widen(self, results, include_self, resolve, fail):
        """Join the plan (if ``include_self``) with the paths' results.

        ``resolve(i, node)`` decides a variable undefined on some path only;
        ``fail(i, JoinFailure)`` raises the user-facing error."""
        nodes = []
        for i in range(len(self.names)):
            if i in self.dead:
                nodes.append(L.DROP)
                continue
            seen = ([self.nodes[i]] if include_self else []) + [
                L.observe(r.values[i]) for r in results]
            node = seen[0]
            try:
                for other in seen[1:]:
                    node = L.join(node, other)
            except L.JoinFailure as failure:
                raise fail(i, failure) from None
            if type(node) is L.MaybeUndef:
                node = resolve(i, node.layout)
            nodes.append(node)
        self.nodes = nodes
        for r in results:
            planned = {id(p) for p in self.params}
            self.params += [p for p in r.written if id(p) not in planned]
            self.mutated = sorted(set(self.mutated) | set(r.mutated))

    def unpack(self, flat, set_state, watch, rebind=None):
        """Bind the construct's results: variables, Parameters, in-place Tensors.
        ``rebind(values)`` may swap a variable's new Tensor for the object it is
        (``aliases.bind``)."""
        it = iter(flat)
        values = tuple(L.unpack(node, it, name) for node, name in zip(self.nodes, self.names))
        for p in self.params:
            p._data = next(it)
        for i in self.mutated:
            aliases.set_data(watch.tensors[i], next(it))
        watch.before = [t._data for t in watch.tensors]
        set_state(values if rebind is None else rebind(values))

    def split(self, flat):
        """``(variable values, {param: value}, {watch index: data})`` of a loop carry."""
        it = iter(flat)
        values = tuple(L.unpack(node, it, name) for node, name in zip(self.nodes, self.names))
        params = {p: next(it) for p in self.params}
        datas = {i: next(it) for i in self.mutated}
        return values, params, datas
