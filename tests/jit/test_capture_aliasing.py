"""Shared capture-mode suite: which Tensor object a variable is after a Tensor
condition. In-place ops in one branch and rebinding in the other, and an alias
chosen by a Tensor condition then changed in place, change exactly the caller's
Tensors PyNative changes (compared after every call, with the outputs)."""
import numpy as np
import pytest

from msxla import Tensor, ops
from agree import Program, agree
from modes import ANY_MODES, any_modes


def tensors(sign):
    a = Tensor(np.full((2, 3), sign, np.float32))
    b = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3) / 4)
    x = Tensor(np.full((2, 3), 3.0, np.float32))
    return a, b, x


# ---------------------------------------------- in place on one side, rebound on the other
def inplace_else_rebind_then(a, b, x):
    if a.sum() > 0:
        b = b * 0.5
    else:
        b.add_(5.0)
    return b + 1


def setitem_else_rebind_then(a, b, x):
    if a.sum() > 0:
        b = b * 0.5
    else:
        b[:, 0] = 1.5
    return b + 1


def assign_then_rebind_else(a, b, x):
    if a.sum() > 0:
        ops.assign(b, b * 2)
    else:
        b = x - 1
    b.add_(1.0)  # the caller's b again on the first path only
    return b * 1


def inplace_both_sides_then_read(a, b, x):
    if a.mean() > 0:
        b.mul_(2.0)
        y = b
    else:
        x.sub_(1.0)
        y = x
    return y + b


# ---------------------------------------------- an alias chosen by a Tensor condition
def ternary_alias(a, b, x):
    t = x if a.mean() > 0 else b
    t.add_(10.0)
    return t * 1


def if_alias(a, b, x):
    if a.mean() > 0:
        t = x
    else:
        t = b
    t.add_(10.0)
    return t * 1


def rebound_on_branch_not_taken(a, b, x):
    y = x
    if a.mean() < 0:
        y = b
    y[0] = 7.0
    return y * 1


def alias_sees_later_change(a, b, x):
    t = x if a.mean() > 0 else b
    b.add_(1.0)  # t is b on one path: it changes too
    return t + 0


def alias_changed_in_loop(a, b, x):
    t = x if a.mean() > 0 else b
    for _ in range(2):
        t.add_(1.0)
    i = 0
    while a.sum() > i:
        i += 3
        t[1] = t[1] * 2
    return t * 1


def alias_through_two_conditions(a, b, x):
    y = x
    if a.mean() > 0:
        y = b
    if b.sum() > 3:
        y.add_(2.0)
    else:
        y = y * 3
    y.add_(1.0)
    return y * 1


CASES = [inplace_else_rebind_then, setitem_else_rebind_then, assign_then_rebind_else,
         inplace_both_sides_then_read, ternary_alias, if_alias, rebound_on_branch_not_taken,
         alias_sees_later_change, alias_changed_in_loop, alias_through_two_conditions]


def every_case(a, b0, x0, b1, x1, b2, x2, b3, x3, b4, x4, b5, x5, b6, x6, b7, x7, b8, x8, b9,
               x9):
    """Each case on its own pair of the caller's Tensors (one graph for all of them)."""
    return (inplace_else_rebind_then(a, b0, x0), setitem_else_rebind_then(a, b1, x1),
            assign_then_rebind_else(a, b2, x2), inplace_both_sides_then_read(a, b3, x3),
            ternary_alias(a, b4, x4), if_alias(a, b5, x5), rebound_on_branch_not_taken(a, b6, x6),
            alias_sees_later_change(a, b7, x7), alias_changed_in_loop(a, b8, x8),
            alias_through_two_conditions(a, b9, x9))


def build_every_case():
    pos, neg = Tensor(np.ones((2, 3), np.float32)), Tensor(-np.ones((2, 3), np.float32))
    pairs = [tensors(1.0)[1:] for _ in CASES]
    flat = [t for pair in pairs for t in pair]
    state = {f"{case.__name__}.{n}": t for case, pair in zip(CASES, pairs)
             for n, t in zip("bx", pair)}
    return Program(every_case, [(pos, *flat), (neg, *flat), (neg, *flat), (pos, *flat)], state)


@pytest.mark.parametrize("any_mode", any_modes(slow=("bytecode",)))  # graph breaks: ~15 s
def test_alias_and_in_place(any_mode):
    """Every case, with the condition's sign flipping between calls on the same
    caller Tensors."""
    agree(any_mode, build_every_case, tensor_control=True)


def alias_chosen_in_nested_conditions(a, b, x):
    """The alias is chosen by an inner Tensor condition inside an outer one."""
    t = x * 2.0
    if a.max() > 0:
        if b.sum() < 100:
            t = b
    t.add_(1.0)
    return t * 1


def build_nested_alias():
    pos, neg = Tensor(np.ones((2, 3), np.float32)), Tensor(-np.ones((2, 3), np.float32))
    _, b, x = tensors(1.0)
    return Program(alias_chosen_in_nested_conditions, [(pos, b, x), (neg, b, x), (pos, b, x)],
                   {"b": b, "x": x})


@pytest.mark.parametrize("any_mode", any_modes())
def test_alias_chosen_in_nested_conditions(any_mode):
    agree(any_mode, build_nested_alias, tensor_control=True)


# ---------------------------------------------- a Tensor while loop that may not rebind
def loop_may_not_rebind(a, b, x):
    """Zero iterations leave ``b`` the caller's Tensor, which the assign then halves."""
    while ops.abs(b).sum() < a.sum():
        b = ops.abs(b) * 1.5 + 0.5
    ops.assign(b, b * 0.5)
    return b * 1


def loop_changes_then_rebinds(a, b, x):
    """The first iteration writes the caller's ``b``, a later one leaves ``x`` in it."""
    i = a.sum() * 0
    while i < a.sum():
        b.add_(1.0)
        b = b * 2.0 if i > 0 else x
        i += 1
    b.mul_(3.0)
    return b * 1


def alias_chosen_in_loop_under_condition(a, b, x):
    """A loop nested in a Tensor condition leaves the caller's ``b`` or a new Tensor."""
    if a.max() > 0:
        while ops.abs(b).sum() < a.sum() * 3:
            b = ops.abs(b) * 1.5 + 0.5
    b.sub_(0.25)
    return b * 1


def build_loop_aliases():
    # a.sum(): 0 (no iteration), 6 and 18 (some), -6 (none); the same caller Tensors
    a_values = [Tensor(np.full((2, 3), v, np.float32)) for v in (0.0, 1.0, 3.0, -1.0)]
    _, b, x = tensors(1.0)
    _, b2, x2 = tensors(1.0)
    _, b3, x3 = tensors(1.0)

    def every_case(a, b, x, b2, x2, b3, x3):
        return (loop_may_not_rebind(a, b, x), loop_changes_then_rebinds(a, b2, x2),
                alias_chosen_in_loop_under_condition(a, b3, x3))
    return Program(every_case, [(a, b, x, b2, x2, b3, x3) for a in a_values],
                   {"b": b, "x": x, "b2": b2, "x2": x2, "b3": b3, "x3": x3})


@pytest.mark.parametrize("any_mode", any_modes())
def test_alias_kept_through_tensor_loops(any_mode):
    """Which Tensor a variable is after a Tensor ``while`` loop: the caller's own
    when no iteration rebinds it, another existing one when an iteration leaves
    that; in-place ops in the body and after it change exactly those."""
    agree(any_mode, build_loop_aliases, tensor_control=True)
