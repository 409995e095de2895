"""The user functions a function may call, and the outside names their code stores to.

A capture must know which names that outlive the call (globals, closure
variables, attributes of outside objects) the captured code may rebind
(``rebinds.py``). The jitted function is not the only code that runs: the
helpers it calls run too, and their helpers. ``reachable`` finds them in the
code, without running it: a name the code loads (a global, a closure
variable, ``self`` of a bound method) and the attributes read off it
(``mod.helper``, ``self.update``, ``Helper.step``) are looked up statically
(``inspect.getattr_static``: no property or ``__getattr__`` runs); every
user function, method, Cell ``construct``, ``functools.partial`` or jitted
function found that way is searched in turn. A function passed in as an
argument or taken out of a container is not found (its rebinds are not
watched).

``stores(fn, owner)`` lists what one function's code stores to outside:
``("global", globals, name, loc)``, ``("closure", cell, name, loc)`` and
``("attribute", obj, name, loc)``, with ``loc`` the user's line of the store.
"""
from __future__ import annotations

import dis
import functools
import inspect
import types

from msxla._source import SourceLoc, is_user_code
from msxla.common.cell_base import CellBase
from msxla.options import Jitted

MAX_FUNCTIONS = 64
_ATTRS = frozenset({"LOAD_ATTR", "LOAD_METHOD"})
_NOTHING = object()


def _is_user_function(f) -> bool:
    return type(f) is types.FunctionType and is_user_code(f.__code__)


def _targets(value, owner=None):
    """``(function, bound owner)`` pairs that calling ``value`` runs (user code only)."""
    out, todo = [], [(value, owner)]
    while todo and len(out) < 8:
        v, own = todo.pop()
        if isinstance(v, Jitted):
            todo.append((v.fn, own))
        elif isinstance(v, types.MethodType):
            todo.append((v.__func__, v.__self__))
            if isinstance(v.__self__, CellBase) and not _is_user_function(v.__func__):
                todo.append((v.__self__, None))  # a Cell's call (GRAPH_MODE, jit of a Cell)
        elif isinstance(v, (staticmethod, classmethod)):
            todo.append((v.__func__, None))
        elif isinstance(v, functools.partial):
            todo.append((v.func, own))
            todo.extend((a, None) for a in v.args)
        elif _is_user_function(v):
            out.append((v, own))
        elif isinstance(v, CellBase):
            todo.append((type(v).construct, v))
        elif type(v) is types.FunctionType and "__wrapped__" in v.__dict__:  # a decorator's
            todo.append((v.__wrapped__, own))
    return out


def _attribute(obj, name):
    """``obj.name`` looked up without running code; a function found on an instance's
    class comes back bound to the instance (a method)."""
    try:
        value = inspect.getattr_static(obj, name)
    except (AttributeError, TypeError):
        return _NOTHING
    if type(value) is types.FunctionType and not isinstance(obj, (type, types.ModuleType)) \
            and name not in getattr(obj, "__dict__", {}):
        return types.MethodType(value, obj)
    return value


def _codes(code):
    """``code`` and the code of the functions and lambdas defined inside it."""
    yield code
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            yield from _codes(const)


def _walk(fn, owner):
    """``(code, instruction, object it acts on or _NOTHING)`` over ``fn``'s code and the
    code nested in it: the object is what the instructions before loaded (a name, then
    attributes read off it)."""
    closure = dict(zip(fn.__code__.co_freevars, fn.__closure__ or ()))
    self_name = fn.__code__.co_varnames[0] if owner is not None and \
        fn.__code__.co_argcount else None
    for code in _codes(fn.__code__):
        top = code is fn.__code__
        held = _NOTHING
        for ins in dis.get_instructions(code):
            yield code, ins, held
            op, name = ins.opname, ins.argval
            if op in _ATTRS and held is not _NOTHING:
                held = _attribute(held, name)
            elif op == "LOAD_GLOBAL":
                held = fn.__globals__.get(name, _NOTHING)
            elif op == "LOAD_DEREF" and name in closure:
                try:
                    held = closure[name].cell_contents
                except ValueError:
                    held = _NOTHING
            elif op == "LOAD_FAST" and top and name == self_name:
                held = owner
            elif op not in ("CACHE", "PRECALL", "KW_NAMES", "PUSH_NULL"):
                held = _NOTHING


def reachable(roots):
    """``(function, owner)`` for ``roots`` (functions, methods, Cells, partials) and the
    user functions their code may call, transitively (at most ``MAX_FUNCTIONS``)."""
    found, seen = [], set()
    todo = [t for r in roots for t in _targets(r)]
    while todo and len(found) < MAX_FUNCTIONS:
        fn, owner = todo.pop(0)
        key = (id(fn), id(owner))
        if key in seen:
            continue
        seen.add(key)
        found.append((fn, owner))
        todo.extend(_callees(fn, owner))
    return found


def _callees(fn, owner):
    """The user functions named in ``fn``'s code (loaded names, attributes read off them)."""
    out, seen = [], {}
    for _, _, held in _walk(fn, owner):
        if held is not _NOTHING and id(held) not in seen:
            seen[id(held)] = held  # kept alive: bound methods are made for the lookup
            out.extend(_targets(held))
    return out


def stores(fn, owner):
    """What ``fn``'s code stores to outside the call (see the module doc)."""
    closure = dict(zip(fn.__code__.co_freevars, fn.__closure__ or ()))
    out = []
    for code, ins, held in _walk(fn, owner):
        op, name = ins.opname, ins.argval
        if op in ("STORE_GLOBAL", "DELETE_GLOBAL"):
            out.append(("global", fn.__globals__, name, SourceLoc.from_code(code, ins.offset)))
        elif op in ("STORE_DEREF", "DELETE_DEREF") and code is fn.__code__ and name in closure:
            out.append(("closure", closure[name], name, SourceLoc.from_code(code, ins.offset)))
        elif op == "STORE_ATTR" and held is not _NOTHING and hasattr(held, "__dict__") \
                and not isinstance(held, type):
            out.append(("attribute", held, name, SourceLoc.from_code(code, ins.offset)))
    return out
