"""Cell hooks: forward-pre, forward and backward hooks with removable handles.

Forward hooks are plain Python around ``construct`` (under jit they run while
the graph is captured, so their effect on values is part of the graph).
Backward hooks wrap the Cell call in a ``jax.custom_vjp`` whose backward pass
calls ``hook(cell, grad_input, grad_output)``; a hook that returns a tuple
replaces the gradients of the Cell's inputs.
"""
from __future__ import annotations

import itertools

import jax

_ids = itertools.count()


class HookHandle:
    """Returned by ``register_*_hook``; ``remove()`` unregisters the hook."""

    def __init__(self, hooks, kind, key):
        self._hooks, self._kind, self._key = hooks, kind, key

    def remove(self):
        self._hooks.remove(self._kind, self._key)


class HookSet:
    __slots__ = ("forward_pre", "forward", "backward", "backward_pre", "active")

    def __init__(self):
        self.forward_pre, self.forward, self.backward, self.backward_pre = {}, {}, {}, {}
        self.active = False

    def add(self, kind, fn, prepend, with_kwargs):
        if not callable(fn):
            raise TypeError(f"The hook function must be callable, but got {type(fn).__name__}.")
        table = getattr(self, kind)
        key = next(_ids)
        entry = (fn, with_kwargs)
        if prepend:
            items = [(key, entry)] + list(table.items())
            table.clear()
            table.update(items)
        else:
            table[key] = entry
        self.active = True
        from msxla.nn.cell import bump_epoch
        bump_epoch()
        return HookHandle(self, kind, key)

    def remove(self, kind, key):
        getattr(self, kind).pop(key, None)
        self.active = any((self.forward_pre, self.forward, self.backward, self.backward_pre))
        from msxla.nn.cell import bump_epoch
        bump_epoch()

    def run(self, cell, args, kwargs):
        for fn, with_kwargs in list(self.forward_pre.values()):
            if with_kwargs:
                res = fn(cell, args, kwargs)
                if res is not None:
                    args, kwargs = res
            else:
                res = fn(cell, args)
                if res is not None:
                    args = res if isinstance(res, tuple) else (res,)
        if self.backward or self.backward_pre:
            out = _call_with_backward_hooks(cell, args, kwargs, self)
        else:
            out = cell.construct(*args, **kwargs)
        for fn, with_kwargs in list(self.forward.values()):
            res = fn(cell, args, kwargs, out) if with_kwargs else fn(cell, args, out)
            if res is not None:
                out = res
        return out


def _call_with_backward_hooks(cell, args, kwargs, hooks):
    from msxla.common.tensor import Tensor, wrap
    slots = [i for i, a in enumerate(args) if isinstance(a, Tensor)]

    def run(*arrays):
        call_args = list(args)
        for i, a in zip(slots, arrays):
            call_args[i] = wrap(a)
        out = cell.construct(*call_args, **kwargs)
        return jax.tree_util.tree_map(lambda t: t._data, out,
                                      is_leaf=lambda t: isinstance(t, Tensor))

    @jax.custom_vjp
    def f(*arrays):
        return run(*arrays)

    def fwd(*arrays):
        out, vjp = jax.vjp(run, *arrays)
        return out, vjp

    def bwd(vjp, dout):
        wrap_tree = lambda tree: jax.tree_util.tree_map(wrap, tree)  # noqa: E731
        grad_output = wrap_tree(dout if isinstance(dout, tuple) else (dout,))
        for fn, _ in list(hooks.backward_pre.values()):
            res = fn(cell, grad_output)
            if res is not None:
                grad_output = res if isinstance(res, tuple) else (res,)
                dout = jax.tree_util.tree_map(lambda t: t._data, grad_output,
                                              is_leaf=lambda t: isinstance(t, Tensor))
                dout = dout if isinstance(dout, tuple) and len(dout) > 1 else dout[0]
        grads = vjp(dout)
        grad_input = tuple(wrap(g) for g in grads)
        for fn, _ in list(hooks.backward.values()):
            res = fn(cell, grad_input, grad_output)
            if res is not None:
                grad_input = res if isinstance(res, tuple) else (res,)
        return tuple(g._data for g in grad_input)

    f.defvjp(fwd, bwd)
    out = f(*[args[i]._data for i in slots])
    return jax.tree_util.tree_map(wrap, out)
