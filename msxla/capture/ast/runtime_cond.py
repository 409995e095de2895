"""Conditionals at capture time: Python choice or ``lax.cond``.

``if_stmt`` asks ``condition(test)``: a Python bool runs one branch as plain
Python (the other never reaches the graph, as in MindSpore's constant
folding); a graph Tensor runs both branches as a ``lax.cond`` whose outputs
follow a ``Plan`` (variables, Parameters written, Tensors changed in place).
Values the branches cannot share raise at the user's lines: different dtypes
(``TypeError``) or shapes (``ValueError``), naming both branches' lines; a
variable defined in one branch only and used later (``UnboundLocalError``).

``if_exp``, ``and_``, ``or_`` and ``not_`` follow the same rule for
expressions (``a and b`` on a graph Tensor is ``b if a else a``, MindSpore's
semantics); ``ret`` ends a function converted by ``convert_return``.
"""
from __future__ import annotations

import jax.numpy as jnp
from jax import lax

from msxla.capture.ast import aliases
from msxla.capture.ast import errors as E
from msxla.capture.ast import layout as L
from msxla.capture.ast import raises
from msxla.capture.ast.branches import Watch, run_path
from msxla.capture.ast.plan import Plan, Replan
from msxla.capture.ast.values import Undefined, condition, is_traced, is_undefined
from msxla.common.tensor import wrap
from msxla.errors import ConcretizationError, UnsupportedError, user_error

MAX_TRACES = 4
RETVAL = "ms__retval"


def if_stmt(test, body, orelse, get_state, set_state, names, info, get_watch=None):
    pred = condition(test)
    if not is_traced(pred):
        (body if pred else orelse)()
        return
    graph_cond(pred, (orelse, body), get_state, set_state, names, info,
               get_watch() if get_watch is not None else ())


def graph_cond(pred, paths, get_state, set_state, names, info, watched=(), args=()):
    """``lax.cond`` over ``paths`` (false path first), binding the results."""
    filename, here, true_wheres, false_wheres, live = info
    init = get_state()
    watch = Watch(tuple(init) + tuple(watched))
    # user variables nothing reads later are not handed on (the converter's own
    # ``ms__`` flags, such as a loop's break flag, are read by the code it made)
    plan = Plan(names, init, [i for i, n in enumerate(names)
                              if n not in live and not n.startswith("ms__")])
    observed: dict = {}
    raised: dict = {}
    keys: list = []  # aliases.nested_keys: their flags are outputs too

    def runner(k):
        def run():
            try:
                result = run_path(paths[k], init, get_state, set_state, watch, args=args)
            except Exception as exc:
                if not raises.is_user_raise(exc):
                    raise
                raised[k] = exc
                err = raises.in_branch(exc)
                if err is not None:
                    raise err from exc
                return (tuple(plan.zeros(watch, lambda p: p._data))
                        + tuple(jnp.asarray(False) for _ in keys))
            observed[k] = result
            if result.container is not None:
                raise _changed_container(filename, here)
            return (tuple(plan.pack(result, watch, lambda p: p._data))
                    + aliases.path_flags(result.values, keys))
        return run

    def resolve(i, node):
        name = names[i]
        if name == RETVAL:
            return L.ZerosIfUndef(node)
        if name in live:
            defined_true = not is_undefined(observed[1].values[i]) if 1 in observed else False
            side, other = ("true", "false") if defined_true else ("false", "true")
            where = true_wheres[i] if defined_true else false_wheres[i]
            raise user_error(
                E.UndefinedInBranchError,
                f"The local variable '{name}' is not defined in {other} branch, but defined "
                f"in {side} branch (the condition is a Tensor, so both branches are part of "
                "the graph).", loc=E.loc(filename, where), extra_locs=[E.loc(filename, here)],
                hint=f"give '{name}' a value before the if, or in both branches.")
        return L.DROP

    def fail(i, failure):
        return join_error(filename, names[i], failure, true_wheres[i], false_wheres[i], here)

    for _ in range(MAX_TRACES):
        try:
            flat = lax.cond(pred, runner(1), runner(0))
        except Replan:
            plan.widen([observed[k] for k in sorted(observed) if k not in raised], False,
                       resolve, fail)
            continue
        found = aliases.nested_keys({k: r for k, r in observed.items() if k not in raised})
        if aliases.same_keys(found, keys):
            break
        keys[:] = found  # a path chose a variable's object inside it: trace with its flags
    else:
        raise RuntimeError("ast capture: the branches of a Tensor `if` keep changing.")
    if len(raised) == 2:  # both paths raise: so does the program, whatever the condition
        raise raised[1]
    done = {k: r for k, r in observed.items() if k not in raised}
    flat, flags = aliases.split_flags(flat, len(keys))
    plan.unpack(flat, set_state, watch,
                lambda values: aliases.bind(values, done, pred, keys, flags))


def join_error(filename, name, failure, true_where, false_where, here):
    kind = failure.kind
    cls = E.ShapeJoinError if kind == "shape" else E.TypeJoinError
    head = {"dtype": "Type Join Failed", "shape": "Shape Join Failed",
            "value": "Type Join Failed"}[kind]
    # MindSpore's wording for the return value
    what = ("Cannot join the return values of different branches" if name == RETVAL else
            f"Cannot join the values of '{name}' from the two branches")
    msg = (f"{what} of a Tensor condition ({head}): {L.describe(failure.right)} in the true "
           f"branch and {L.describe(failure.left)} in the false branch.")
    locs = [E.loc(filename, w) for w in (true_where, false_where)]
    return user_error(cls, msg, loc=locs[0], extra_locs=[locs[1]],
                      hint="make both branches give the same dtype and shape (cast with "
                           ".astype(), or choose element-wise with ops.select).")


def _changed_container(filename, here):
    return user_error(ConcretizationError,
                      "A list or dict is changed (or an attribute of an object rebound) inside a "
                      "branch or loop whose condition is a Tensor: whether the change happens is "
                      "only known when the graph runs.",
                      loc=E.loc(filename, here),
                      hint="build a new list in both branches and assign it, or use "
                           "fullgraph=False (the function then runs in Python).")


# ------------------------------------------------------------ expressions
def if_exp(test, body, orelse, info, get_watch=None):
    pred = condition(test)
    if not is_traced(pred):
        return body() if pred else orelse()
    return _select(pred, body, orelse, info, _watched(get_watch))


def _watched(get_watch):
    if get_watch is None:
        return ()
    try:
        return get_watch()
    except (NameError, UnboundLocalError):  # a name bound later: the expression raises itself
        return ()


def _select(pred, body, orelse, info, watched=()):
    filename, here, body_where, else_where = info
    box = [Undefined("<expression>")]

    def set_state(values):
        box[0] = values[0]

    def path(thunk):
        return lambda: set_state((thunk(),))
    graph_cond(pred, (path(orelse), path(body)), lambda: (box[0],), set_state,
               ("<expression>",), (filename, here, (body_where,), (else_where,),
                                   ("<expression>",)), watched)
    return box[0]


def _bool_info(thunk):
    code = thunk.__code__
    where = (code.co_firstlineno, None, None, code.co_name)
    return (code.co_filename, where, where, where)


def and_(*thunks):
    value = thunks[0]()
    for thunk in thunks[1:]:
        pred = condition(value)
        if is_traced(pred):
            prev = value
            value = _select(pred, thunk, lambda prev=prev: prev, _bool_info(thunk))
        elif not pred:
            return value
        else:
            value = thunk()
    return value


def or_(*thunks):
    value = thunks[0]()
    for thunk in thunks[1:]:
        pred = condition(value)
        if is_traced(pred):
            prev = value
            value = _select(pred, lambda prev=prev: prev, thunk, _bool_info(thunk))
        elif pred:
            return value
        else:
            value = thunk()
    return value


def not_(value):
    pred = condition(value)
    if is_traced(pred):
        return wrap(jnp.logical_not(pred))
    return not pred


def ret(do_return, retval, always):
    """The value a converted function returns (see ``convert_return``)."""
    pred = condition(do_return)
    if not is_traced(pred):
        return retval if pred else None
    if always and not is_undefined(retval):
        return retval
    raise user_error(UnsupportedError, "The function returns a value on some paths and falls "
                     "off its end (returning None) on others, and which path runs depends on "
                     "a Tensor.", hint="end the function with a return statement, so every "
                     "path returns the same kind of value.")
