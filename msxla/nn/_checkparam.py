"""Argument checks for nn hyper-parameters, with MindSpore's exact messages.

Optimizers, learning-rate schedules and the checkpoint functions validate
their arguments the way ``mindspore._checkparam`` does (same exception
types, same wording), so code that catches or matches those errors keeps
working.
"""
from __future__ import annotations

import math
from collections.abc import Iterable

_REL = {"gt": ("> {}", lambda a, b: a > b), "ge": (">= {}", lambda a, b: a >= b)}


def _prefix(prim_name):
    return f"For '{prim_name}', the " if prim_name else "The "


def _check_number(arg_value, value, rel, arg_type, arg_name=None, prim_name=None):
    info = _prefix(prim_name) + (f"'{arg_name}'" if arg_name else "input value")
    if not isinstance(arg_value, arg_type):
        raise TypeError(f"{info} must be {arg_type.__name__}, but got '{type(arg_value).__name__}'")
    if math.isinf(arg_value) or math.isnan(arg_value):
        raise ValueError(f"{info} must be a legal value, but got '{arg_value}'.")
    rel_str, ok = _REL[rel]
    mismatch = isinstance(arg_value, bool)
    if mismatch or not ok(arg_value, value):
        msg = (f"{info} must be {arg_type.__name__} and must {rel_str.format(value)}, but got "
               f"'{arg_value}' with type '{type(arg_value).__name__}'.")
        raise (TypeError if mismatch else ValueError)(msg)
    return arg_value


def check_positive_int(arg_value, arg_name=None, prim_name=None):
    return _check_number(arg_value, 0, "gt", int, arg_name, prim_name)


def check_non_negative_int(arg_value, arg_name=None, prim_name=None):
    return _check_number(arg_value, 0, "ge", int, arg_name, prim_name)


def check_positive_float(arg_value, arg_name=None, prim_name=None):
    return _check_number(arg_value, 0, "gt", float, arg_name, prim_name)


def check_non_negative_float(arg_value, arg_name=None, prim_name=None):
    return _check_number(arg_value, 0, "ge", float, arg_name, prim_name)


def check_is_float(arg_value, arg_name=None, prim_name=None):
    prefix = f"For '{prim_name}', the" if prim_name else "The"
    name = f"'{arg_name}'" if arg_name else "input value"
    if not isinstance(arg_value, float) or isinstance(arg_value, bool):
        raise TypeError(f"{prefix} type of {name} must be 'float', but got "
                        f"'{type(arg_value).__name__}'.")
    if math.isinf(arg_value) or math.isnan(arg_value):
        raise ValueError(f"{prefix} {name} must be a legal float, but got '{arg_value}'.")
    return arg_value


def check_float_range_open(arg_value, lower, upper, arg_name=None, prim_name=None):
    """``lower < arg_value < upper`` (MindSpore's ``check_float_range(..., INC_NEITHER)``)."""
    prefix = f"For '{prim_name}', the" if prim_name else "The"
    name = f"'{arg_name}'" if arg_name else "input value"
    if not isinstance(arg_value, float) or isinstance(arg_value, bool):
        raise TypeError(f"{prefix} {name} must be 'float',  but got '{type(arg_value).__name__}'.")
    if not lower < arg_value < upper:
        raise ValueError(f"{prefix} {name} must be in range of ({lower}, {upper}), but got "
                         f"{arg_value} with type '{type(arg_value).__name__}'.")
    return arg_value


def check_bool(arg_value, arg_name=None, prim_name=None):
    prefix = f"For '{prim_name}', the" if prim_name else "The"
    name = f"'{arg_name}'" if arg_name else "input value"
    if not isinstance(arg_value, bool):
        raise TypeError(f"{prefix} {name} must be a bool, but got {type(arg_value).__name__}.")
    return arg_value


def check_value_type(arg_name, arg_value, valid_types, prim_name=None):
    valid_types = tuple(valid_types) if isinstance(valid_types, Iterable) else (valid_types,)

    def fail():
        names = [getattr(t, "__name__", str(t)) for t in valid_types]
        many = len(valid_types) > 1
        prefix = f"For '{prim_name}', the" if prim_name else "The"
        raise TypeError(f"{prefix} type of '{arg_name}' should be {'one of ' if many else ''}"
                        f"'{names if many else names[0]}', but got type "
                        f"'{type(arg_value).__name__}'.")

    if isinstance(arg_value, bool) and bool not in valid_types:
        fail()
    if not isinstance(arg_value, valid_types):
        fail()
    return arg_value


def check_isinstance(arg_name, arg_value, classes):
    if not isinstance(arg_value, classes):
        raise ValueError(f"The parameter '{arg_name}' must be isinstance of {classes}, but got "
                         f"{arg_value}.")
    return arg_value
