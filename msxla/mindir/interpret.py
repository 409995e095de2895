"""Running a loaded MindIR graph on msxla's ops.

    outs = run(graph, inputs, params)   # Tensors in, Tensors (or a tuple) out

Nodes run in the graph's order (each after its inputs). A node's primitive
is looked up in ``LOADERS`` (``load_ops.py``: MindSpore's graph plumbing
such as ``Load``, ``Depend``, ``MakeTuple``, operators whose MindIR form
differs from msxla's Primitive, and MindSpore's internal operators);
otherwise a primitive function runs as ``msxla.ops.<Name>(**init)(*inputs)``,
its arguments split by MindSpore's operator layout (``optable.py``), and an
old-style primitive as ``msxla.ops.<Name>()`` with the file's attributes set
on it (as MindSpore's loader sets them), called on the inputs.

Every op is an msxla op, so the graph runs eagerly, under ``jit`` in any
capture mode, and under ``grad``. An unsupported primitive is a
``MindIRLoadError`` naming it, its node and MindSpore's scope of the node.
"""
from __future__ import annotations

import numpy as np

from msxla.errors import MsxlaError, _compose
from msxla.mindir import optable
from msxla.mindir.values import Monad

LOADERS: dict = {}


def loader(*names):
    """Register ``fn(node, *inputs) -> value`` for the MindSpore primitives ``names``."""
    def deco(fn):
        for name in names:
            if name in LOADERS:
                raise ValueError(f"two MindIR loaders for {name}")
            LOADERS[name] = fn
        return fn
    return deco


class MindIRLoadError(MsxlaError, RuntimeError):
    """A MindIR node msxla cannot run."""

    __module__ = "msxla.mindir"


def unsupported(node, why: str, hint: str | None = None) -> MindIRLoadError:
    where = f" (node '{node.name.split(':', 1)[-1]}'" + (f", scope {node.scope})" if node.scope
                                                        else ")")
    return MindIRLoadError(_compose(f"MindIR operator '{node.op}'{where}: {why}", None, hint))


def run(graph, inputs, params):
    """Evaluate ``graph``; ``inputs`` are Tensors by position, ``params`` maps the graph's
    parameter names to Parameters."""
    from msxla.mindir import load_ops  # noqa: F401 - registers LOADERS
    env = dict(params)
    for spec, value in zip(graph.inputs, inputs):
        env[spec.name] = value
    for node in graph.nodes:
        if node.op == "Constant":
            env[node.name] = node.value
            continue
        args = [env[name] for name in node.inputs]
        env[node.name] = call(node, args)
    return env[graph.output]


def call(node, args):
    fn = LOADERS.get(node.op)
    if fn is not None:
        return fn(node, *args)
    if node.function:
        return call_function(node, args)
    return call_primitive(node, args)


def tensor(value):
    """A node value as an op argument: numpy constants become Tensors."""
    from msxla.common.tensor import Tensor
    if isinstance(value, np.ndarray):
        return Tensor(value)
    return value


def primitive_class(node):
    import msxla.ops as ops
    cls = getattr(ops, node.op, None)
    if not isinstance(cls, type):
        raise unsupported(node, "msxla has no such operator.",
                          "Export the network with operators msxla implements, or add the "
                          "operator to msxla's op table.")
    return cls


def split_arguments(node, args):
    """``(call arguments, init keyword arguments)`` of a primitive-function node."""
    layout = optable.layout(node.op)
    if layout is None:
        raise unsupported(node, "MindSpore's layout of this operator is unknown.")
    n_init = sum(a.init for a in layout)
    n_plain = len(layout) - n_init
    variadic = any(a.variadic for a in layout)
    positional, init = [], {}
    extra = len(args) - len(layout)
    i = 0
    for spec in layout:
        if spec.variadic:
            count = extra + 1
            positional.extend(tensor(a) for a in args[i:i + count])
            i += count
            continue
        if i >= len(args):
            break
        value = args[i]
        i += 1
        if spec.init:
            init[spec.name] = convert(spec, value)
        else:
            positional.append(tensor(convert(spec, value)))
    if not variadic and len(args) > n_plain + n_init:
        raise unsupported(node, f"{len(args)} inputs, but the operator takes {len(layout)}.")
    return positional, init


def convert(spec, value):
    """MindIR's stored form of an argument -> the Python value an msxla op takes."""
    if isinstance(value, Monad):
        return value
    if spec.convert == "type_id" and isinstance(value, (int, np.integer)):
        return optable.from_type_id(int(value))
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool) and (
            spec.convert == "enum" or (isinstance(spec.default, str)
                                       and optable.has_enum(spec.name))):
        return optable.enum_word(spec.name, int(value))
    return value


def call_function(node, args):
    args = [a for a in args if not isinstance(a, Monad)]
    cls = primitive_class(node)
    positional, init = split_arguments(node, args)
    try:
        prim = cls(**init)
    except TypeError as e:
        raise unsupported(node, f"msxla's Primitive does not take these attributes ({e}).") \
            from None
    return prim(*positional)


def call_primitive(node, args):
    """An old-style primitive: attributes set on the Primitive, inputs call arguments."""
    from msxla.mindir.load_ops import old_style
    return old_style(node, args)
