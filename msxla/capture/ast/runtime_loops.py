"""Loops at capture time: unrolled Python loops or ``lax.while_loop``.

``while_stmt`` runs the loop in Python while its condition is a Python value
(each iteration's operations go into the graph, unrolled). When the
condition becomes a graph Tensor, the rest of the loop is a
``lax.while_loop``: its carry follows a ``Plan`` of the variables the body
assigns (Python scalars that change become 0-d values), the Parameters it
writes and the Tensors it changes in place. A variable a graph loop needs
that has no value before it, or that changes shape or dtype in the body,
raises at the user's line.

``for_stmt`` iterates Python iterables in Python (MindSpore unrolls them as
well). A ``break`` or ``return`` under a Tensor condition makes the loop's
flag a graph value: every later iteration then runs under a graph ``if``.
``loop_cond`` combines those flags with the loop's own condition.
"""
from __future__ import annotations

import jax.numpy as jnp

from msxla.capture.ast import aliases
from msxla.capture.ast import errors as E
from msxla.capture.ast import grad_loop, raises
from msxla.capture.ast import layout as L
from msxla.capture.ast.branches import Watch, run_path
from msxla.capture.ast.plan import Plan, Replan
from msxla.capture.ast.runtime_cond import MAX_TRACES, RETVAL, _changed_container, graph_cond
from msxla.capture.ast.values import condition, is_traced
from msxla.common.tensor import wrap
from msxla.errors import user_error


def loop_cond(flags, test):
    """``not any(flags) and test()`` where the flags may be graph booleans."""
    stop = None
    for flag in flags:
        c = condition(flag)
        if not is_traced(c):
            if c:
                return False
            continue
        stop = c if stop is None else jnp.logical_or(stop, c)
    result = True if test is None else test()
    if stop is None:
        return result
    return wrap(jnp.logical_and(jnp.logical_not(stop), condition(result)))


def while_stmt(test, body, get_state, set_state, names, info, get_watch=None):
    while True:
        pred = condition(test())
        if is_traced(pred):
            break
        if not pred:
            return
        body()
    _graph_while(test, body, get_state, set_state, names, info,
                 get_watch() if get_watch is not None else ())


def for_stmt(iterable, extra_test, body, get_state, set_state, names, info, get_watch=None):
    filename, here, wheres, live, carried = info
    # an iteration under a graph `if` hands on what later code or the next iteration reads
    if_info = (filename, here, wheres, (here,) * len(names),
               tuple(n for n in names if n in live or n in carried))
    for item in iterable:
        if extra_test is not None:
            pred = condition(extra_test())
            if is_traced(pred):
                graph_cond(pred, (_noop, body), get_state, set_state, names, if_info,
                           get_watch() if get_watch is not None else (), args=(item,))
                continue
            if not pred:
                break
        body(item)


def _noop(*args):
    pass


def _graph_while(test, body, get_state, set_state, names, info, watched):
    filename, here, wheres, live, test_names = info
    init = get_state()
    watch = Watch(tuple(init) + tuple(watched))
    plan = Plan(names, init)
    observed: list = []
    # which existing Tensor a variable is: one carried flag per (variable, Tensor)
    kept = aliases.loop_keys(init, watch.tensors)

    def install(carry):
        carry, flags = aliases.split_flags(carry, len(kept))
        values, params, datas = plan.split(carry)
        values = aliases.keep_identity(values, kept, flags)
        set_state(values)
        baseline = list(watch.before)
        for i, d in datas.items():
            baseline[i] = d
        return values, params, baseline

    def cond_fn(carry):
        values, params, baseline = install(carry)
        result = run_path(test_path, values, get_state, set_state, watch, params, baseline)
        if result.written:
            raise user_error(E.UnsupportedError, "The condition of a while loop writes a "
                             "Parameter.", loc=E.loc(filename, here),
                             hint="write the Parameter in the loop body instead.")
        return jnp.asarray(box[0]) if not is_traced(box[0]) else box[0]

    box = [None]

    def test_path():
        box[0] = condition(test())

    def body_fn(carry):
        values, params, baseline = install(carry)
        try:
            result = run_path(body, values, get_state, set_state, watch, params, baseline)
        except Exception as exc:
            if raises.is_user_raise(exc):
                raise raises.in_loop(exc) from exc
            raise
        observed[:] = [result]
        if result.container is not None:
            raise _changed_container(filename, here)
        return (tuple(plan.pack(result, watch, params.__getitem__, baseline))
                + aliases.path_flags(result.values, kept))

    def resolve(i, node):
        name = names[i]
        if name == RETVAL:
            return L.ZerosIfUndef(node)
        if name in live or name in test_names:
            raise user_error(E.UndefinedInBranchError,
                             f"The variable '{name}' is assigned in the body of a loop whose "
                             "condition is a Tensor but has no value before the loop.",
                             loc=E.loc(filename, wheres[i]), extra_locs=[E.loc(filename, here)],
                             hint=f"give '{name}' a value before the loop.")
        return L.DROP

    def fail(i, failure):
        return user_error(
            E.ShapeJoinError if failure.kind == "shape" else E.TypeJoinError,
            f"The variable '{names[i]}' changes from {L.describe(failure.left)} before the "
            f"loop to {L.describe(failure.right)} in its body, but the condition of the loop "
            "is a Tensor, so it is a graph loop whose values keep their shape and dtype.",
            loc=E.loc(filename, wheres[i]), extra_locs=[E.loc(filename, here)],
            hint="keep the shape and dtype the same in every iteration (or make the loop's "
                 "condition a Python value so the loop is unrolled).")

    params_now = _param_reader()
    for _ in range(MAX_TRACES):
        try:
            carry = plan.pack_values(init, params_now, watch.before)
            carry = tuple(carry) + tuple(jnp.asarray(t is init[i]) for i, t in kept)
            flat = grad_loop.while_loop(cond_fn, body_fn, carry)
        except (Replan, L.Misfit):
            plan.widen(observed, True, resolve, fail)
            continue
        found = aliases.loop_keys(init, watch.tensors, observed[0].values if observed else None)
        if aliases.same_keys(found, kept):
            break
        kept[:] = found  # the body leaves another existing Tensor in a variable
    else:
        raise RuntimeError("ast capture: the carry of a Tensor while loop keeps changing.")
    set_state(init)
    flat, flags = aliases.split_flags(flat, len(kept))
    plan.unpack(flat, set_state, watch, lambda values: aliases.keep_identity(values, kept, flags))


def _param_reader():
    return lambda p: p._data
