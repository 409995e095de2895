"""Arguments of a type an op does not take: MindSpore's ``TypeError``.

``ops.add(x, "abc")`` (or ``x + "abc"``, a dict, a list of strings, None
where a Tensor is needed) fails somewhere inside the op's implementation,
with the wording of whatever failed there (jax's argument parsing, an
attribute lookup). When an op fails and one of its arguments is not
something an op takes (a Tensor, a number, a numpy value, a dtype, or a
tuple or list of these), the failure is reported as MindSpore reports it::

    Failed calling Add with "Add()(input=Tensor, other=string)".
    For 'Add', 'other' must be a Tensor or a number, but got string.

Nothing is checked on the fast path: the arguments are only looked at after
a failure. Errors an op raises in MindSpore's own words (``For 'Add', ...``)
are kept.
"""
from __future__ import annotations

import functools
import inspect
import numbers

import numpy as np

from msxla.common import dtype as mstype
from msxla.common.tensor import Tensor
from msxla.errors import ArgumentTypeError, user_error

# failures that an unsupported argument can cause inside an op
FAILURES = (TypeError, ValueError, AttributeError, KeyError, IndexError)


def describe(value) -> str:
    """A value's type as MindSpore's messages write it."""
    if isinstance(value, Tensor):
        return "Tensor"
    if value is None:
        return "None"
    if isinstance(value, str):
        return "string"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, numbers.Integral):
        return "int"
    if isinstance(value, numbers.Real):
        return "float"
    if isinstance(value, mstype.Type):
        return "mindspore.dtype"
    if isinstance(value, (list, tuple)):
        kind = "List" if isinstance(value, list) else "Tuple"
        return f"{kind}<{', '.join(describe(v) for v in value)}>"
    return f"<class '{type(value).__name__}'>"


def _takes(value) -> bool:
    """Whether some op could take ``value`` (None only where it is optional)."""
    if value is None or isinstance(value, (Tensor, numbers.Number, np.ndarray, np.generic,
                                           mstype.Type, slice, type(Ellipsis))):
        return True
    if isinstance(value, (list, tuple)):
        return all(v is not None and _takes(v) for v in value)
    return False


_TYPE_SYMPTOMS = ("has no attribute", "unsupported operand", "NoneType", "abstract array",
                  "not a valid", "Error interpreting", "object", "not subscriptable",
                  "not iterable", "must be real number", "argument must be", "jnp", "jax",
                  "hash")


def _type_failure(err) -> bool:
    """Whether a failure reads like an argument of the wrong type."""
    return isinstance(err, (AttributeError, KeyError)) or any(
        s in str(err) for s in _TYPE_SYMPTOMS)


def _own_words(err) -> bool:
    text = str(err)
    return text.startswith(("For '", "Failed calling")) or getattr(err, "loc", None) is not None \
        and "For '" in text.split("\n")[0]


def bad_argument_error(prim, signature, args, kwargs, err, tensors=None):
    """MindSpore's TypeError for this failed call, or None when its arguments are
    all of kinds an op takes (the failure is something else).

    ``tensors``: the names of the arguments that must be Tensors or numbers (a
    row's dynamic arguments); for a hand-written op (None) an argument is only
    blamed when the failure reads like its type was wrong, since some of its
    arguments are options given as strings."""
    if _own_words(err):
        return None
    try:
        bound = signature.bind(*args, **kwargs)
    except TypeError:
        return None
    if tensors is None and not _type_failure(err):
        return None
    candidates = {n: v for n, v in bound.arguments.items() if tensors is None or n in tensors}
    culprit = next((n for n, v in bound.arguments.items() if isinstance(v, (dict, set))), None)
    if culprit is None:  # no op takes a dict; the other kinds only where a value goes
        culprit = next((n for n, v in candidates.items() if not _takes(v)), None)
    if culprit is None:  # a None where the op needs a value: a required one, or named
        required = {n for n, p in signature.parameters.items() if p.default is p.empty}
        culprit = next((n for n, v in candidates.items() if v is None and (
            n in required or "None" in str(err))), None)
    if culprit is None:
        return None
    bound.apply_defaults()
    shown = ", ".join(f"{n}={describe(v)}" for n, v in bound.arguments.items())
    what = describe(bound.arguments[culprit])
    return user_error(ArgumentTypeError,
                      f'Failed calling {prim} with "{prim}()({shown})".\n'
                      f"For '{prim}', '{culprit}' must be a Tensor or a number, but got {what}.")


def reporting_bad_arguments(fn, prim):
    """``fn`` (a hand-written op) with its failures on unsupported arguments reported
    as MindSpore reports them."""
    signature = inspect.signature(fn)

    @functools.wraps(fn)
    def op(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except FAILURES as err:
            new = bad_argument_error(prim, signature, args, kwargs, err)
            if new is None:
                raise
            raise new from None
    return op


class _Refused(TypeError):
    """An argument no op row takes (see ``refuse_text_and_dicts``)."""


def refuse_text_and_dicts(row, args, statics):
    """A string or dict (or a sequence holding one) passed where a row takes Tensors and
    numbers: jax would read a dict as a tree of arrays and give it back."""
    for a in args:
        if _text_or_dict(a):
            raise _Refused(f"{type(a).__name__} argument")


def _text_or_dict(value) -> bool:
    if isinstance(value, (str, dict)):
        return True
    return isinstance(value, (list, tuple)) and any(_text_or_dict(v) for v in value)
