"""Checking and normalising the arguments of the differentiation APIs.

``grad_position`` becomes a tuple of ints (or None), ``weights`` a list of
Tensors plus whether a single Parameter was given (its gradient is then
returned bare), and the call's arguments are checked against the positions.
Errors use MindSpore's exception types and name the API and the argument.
"""
from __future__ import annotations

from msxla.common.tensor import Tensor
from msxla.errors import user_error


def check_bool(api, name, value):
    if not isinstance(value, bool):
        raise user_error(TypeError, f"For '{api}', the '{name}' should be bool, but got "
                         f"{type(value).__name__}.")


def check_callable(api, fn):
    if not callable(fn):
        raise user_error(TypeError, f"For '{api}', the fn should be callable, but got "
                         f"{type(fn).__name__}.",
                         hint="pass the function or Cell itself, not the result of calling it.")


def normalize_positions(api, grad_position):
    """``grad_position`` as a tuple of ints (MindSpore's checks and messages)."""
    if isinstance(grad_position, bool):
        grad_position = int(grad_position)
    if isinstance(grad_position, int):
        if grad_position < 0:
            raise user_error(ValueError, f"For '{api}', grad_position must be >= 0, but got "
                             f"{grad_position}.")
        return (grad_position,)
    if not isinstance(grad_position, tuple):
        raise user_error(TypeError, f"For '{api}', the 'grad_position' must be int or tuple, "
                         f"but got {type(grad_position).__name__}.")
    if len(set(grad_position)) != len(grad_position):
        raise user_error(ValueError, f"For '{api}', there are duplicate positions in "
                         f"`grad_position` {grad_position}, please check it.")
    out = []
    for gp in grad_position:
        if isinstance(gp, bool):
            gp = int(gp)
        if not isinstance(gp, int):
            raise user_error(TypeError, f"For '{api}', the element in 'grad_position' must be "
                             f"int, but got {type(gp).__name__}.")
        if gp < 0:
            raise user_error(ValueError, f"For '{api}', the element in grad_position must be "
                             f">= 0, but got {gp}.")
        out.append(gp)
    if not out:
        raise user_error(RuntimeError, f"For '{api}', grad_position should not be empty when "
                         "grad by position!")
    return tuple(out)


def normalize_weights(api, weights):
    """``(list_of_tensors, single)``; ``single`` when one Parameter (not a list) was given."""
    if isinstance(weights, Tensor):
        return [weights], True
    if isinstance(weights, (list, tuple)):
        for w in weights:
            if not isinstance(w, Tensor):
                raise user_error(TypeError, f"For '{api}', the weights you provided is expected "
                                 "to be a Parameter, or a list or tuple of Parameters, but it "
                                 f"holds a {type(w).__name__}.",
                                 hint="pass net.trainable_params() or a list of Parameters.")
        return list(weights), False
    raise user_error(TypeError, f"For '{api}', the weights you provided is expected to be a "
                     "Parameter, or a list or tuple of Parameters, but got "
                     f"{type(weights).__name__}.",
                     hint="pass net.trainable_params() or a list of Parameters.")


def check_positions_in_range(api, positions, n_inputs, exc=RuntimeError):
    for p in positions:
        if p >= n_inputs:
            raise user_error(exc, f"For '{api}', position index {p} exceeds the number of "
                             f"inputs ({n_inputs}): grad_position must belong to "
                             f"[0, {n_inputs}).")


def split_sens(args, kwargs):
    """``(args, kwargs, sens)``: ``sens=`` keyword, or else the last positional argument."""
    if "sens" in kwargs:
        kwargs = dict(kwargs)
        return args, kwargs, kwargs.pop("sens")
    if not args:
        raise user_error(TypeError, "With sens_param=True the gradient of the output (sens) "
                         "must be passed as the last argument, but no argument was given.")
    return args[:-1], kwargs, args[-1]
