"""What a function can reach: Parameters (graph state), Cells and baked-in values.

Before a function is captured, its code is walked (not run): the globals it
names, its closure variables, the Cells it is bound to or receives, and the
same for the user functions and Cell methods those lead to. The walk yields

- the Parameters the capture should take as state inputs (a Parameter read
  that the walk missed is found during capture, which then restarts once);
- the Cells whose attributes the graph may depend on (guarded as a whole);
- guards on globals and closure variables (data by value, objects by identity,
  constant Tensors by identity of their value).

Code inside msxla, jax and the standard library is not walked.
"""
from __future__ import annotations

import dataclasses
import dis
import inspect
import types

from msxla._source import is_internal_file
from msxla.capture import guards as G
from msxla.common.cell_base import CellBase
from msxla.common.parameter import Parameter
from msxla.common.tensor import Tensor
from msxla.options import Jitted

_MAX_DEPTH = 12


@dataclasses.dataclass
class Discovery:
    params: dict = dataclasses.field(default_factory=dict)    # id -> Parameter (ordered)
    cells: dict = dataclasses.field(default_factory=dict)     # id -> Cell
    guards: list = dataclasses.field(default_factory=list)
    _seen: set = dataclasses.field(default_factory=set)

    def param_list(self):
        return list(self.params.values())


def discover(fn, args=(), kwargs=None) -> Discovery:
    out = Discovery()
    _visit(fn, out, 0, guard_source=None)
    for value in list(args) + list((kwargs or {}).values()):
        _visit_arg(value, out, 0)
    return out


def _visit_arg(value, out, depth):
    """Arguments are guarded by the call signature; collect only their Cells/Parameters."""
    if depth > 3:
        return
    if isinstance(value, CellBase):
        _visit_cell(value, out, depth)
    elif isinstance(value, Parameter):
        out.params.setdefault(id(value), value)
    elif isinstance(value, (list, tuple)):
        for v in value:
            _visit_arg(v, out, depth + 1)
    elif isinstance(value, dict):
        for v in value.values():
            _visit_arg(v, out, depth + 1)


def _visit(obj, out, depth, guard_source):
    if depth > _MAX_DEPTH or id(obj) in out._seen:
        return
    if isinstance(obj, Parameter):
        out.params.setdefault(id(obj), obj)
        return
    if isinstance(obj, CellBase):
        _visit_cell(obj, out, depth)
        return
    if isinstance(obj, Jitted):
        out._seen.add(id(obj))
        _visit(obj.fn, out, depth + 1, None)
        return
    if isinstance(obj, types.MethodType):
        out._seen.add(id(obj))
        _visit(obj.__self__, out, depth + 1, None)
        _visit(obj.__func__, out, depth + 1, None)
        return
    if isinstance(obj, types.FunctionType):
        out._seen.add(id(obj))
        _visit_function(obj, out, depth)
        return
    if isinstance(obj, (list, tuple, dict)) and not G.is_data(obj):
        out._seen.add(id(obj))
        keys = list(obj.keys() if isinstance(obj, dict) else range(len(obj)))[:256]
        for k in keys:
            v = obj[k]
            if isinstance(v, (Parameter, CellBase, list, tuple, dict, types.FunctionType)):
                _visit(v, out, depth + 1, None)
            elif isinstance(v, Tensor) and id(v) not in out._seen:
                # a plain Tensor held in a container (``self.ts[0].add_(x)``): baked in
                # by value, and graph state if the function changes it in place
                out._seen.add(id(v))
                out.guards.append(G.tensor_data_guard(f"{guard_source or '<list>'}[{k!r}]", v))


def _visit_cell(cell, out, depth):
    if id(cell) in out._seen:
        return
    for _, sub in cell.cells_and_names():
        if id(sub) in out._seen:
            continue
        out._seen.add(id(sub))
        out.cells.setdefault(id(sub), sub)
        for param in sub._params.values():
            if param is not None:
                out.params.setdefault(id(param), param)
        user_cell = not type(sub).__module__.startswith("msxla")
        for name, value in sub.__dict__.items():
            if user_cell and type(value) in (list, dict, set) and name not in G.CELL_INTERNAL:
                # changed in place between calls (``net.coeffs[1] = 5.0``): no attribute is
                # set, so the Cell snapshot would not see it; its contents are guarded
                out.guards.append(G.container_guard(f"{type(sub).__name__}.{name}",
                                                    lambda d=sub.__dict__, n=name: d[n], value))
            if isinstance(value, (list, tuple, dict)):
                _visit(value, out, depth + 1, f"{type(sub).__name__}.{name}")
            elif isinstance(value, types.FunctionType):
                _visit(value, out, depth + 1, None)
            elif isinstance(value, Tensor) and not isinstance(value, Parameter):
                out.guards.append(G.tensor_data_guard(f"{type(sub).__name__}.{name}", value))
        for klass in type(sub).__mro__:
            if klass.__module__.startswith("msxla") or klass is object:
                continue
            for attr in vars(klass).values():
                func = getattr(attr, "__func__", attr)
                if isinstance(func, types.FunctionType):
                    _visit_function(func, out, depth + 1)


def _code_names(code, names=None):
    names = set() if names is None else names
    names.update(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            _code_names(const, names)
    return names


# Methods of list, dict, set and deque that only write (their result is None).
_WRITE_ONLY_METHODS = frozenset({"append", "extend", "insert", "add", "update", "clear",
                                 "remove", "discard", "appendleft", "extendleft", "sort",
                                 "reverse"})
_LOADS = frozenset({"LOAD_GLOBAL", "LOAD_DEREF", "LOAD_CLASSDEREF", "LOAD_NAME",
                    "LOAD_FAST"})


def _write_only_names(code, reads=None, writes=None):
    """Names that ``code`` (and the code nested in it) only ever uses as
    ``name.append(...)``-style receivers. Such a list only records what the
    function did: its contents do not shape the graph, so it is guarded by
    identity alone and appending to it does not recapture (a list that is also
    read, ``len(log)``, is guarded by contents)."""
    top = reads is None
    reads, writes = (set(), set()) if top else (reads, writes)
    instrs = list(dis.get_instructions(code))
    for ins, nxt in zip(instrs, instrs[1:] + [None]):
        if ins.opname not in _LOADS:
            continue
        name = ins.argval
        if nxt is not None and nxt.opname in ("LOAD_ATTR", "LOAD_METHOD") and \
                nxt.argval in _WRITE_ONLY_METHODS:
            writes.add(name)
        else:
            reads.add(name)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            _write_only_names(const, reads, writes)
    return writes - reads if top else None


def _visit_function(fn, out, depth):
    code = fn.__code__
    if id(code) in out._seen:
        return
    if is_internal_file(code.co_filename):
        _visit_library_closure(fn, out, depth)
        return
    out._seen.add(id(code))
    fglobals = fn.__globals__
    write_only = _write_only_names(code)
    for name in sorted(_code_names(code)):
        if name not in fglobals:
            continue
        value = fglobals[name]
        _guard_and_visit(f"global '{name}' ({fn.__module__})",
                         lambda g=fglobals, n=name: g[n], value, out, depth,
                         name in write_only)
    for i, value in enumerate(fn.__defaults__ or ()):  # a mutable default may change
        _guard_and_visit(f"default {i} of {fn.__qualname__}",
                         lambda f=fn, i=i: f.__defaults__[i], value, out, depth)
    for name, value in (fn.__kwdefaults__ or {}).items():
        _guard_and_visit(f"default '{name}' of {fn.__qualname__}",
                         lambda f=fn, n=name: f.__kwdefaults__[n], value, out, depth)
    if fn.__closure__:
        for name, cell in zip(code.co_freevars, fn.__closure__):
            try:
                value = cell.cell_contents
            except ValueError:  # not yet bound
                continue
            _guard_and_visit(f"closure variable '{name}' of {fn.__qualname__}",
                             lambda c=cell: c.cell_contents, value, out, depth,
                             name in write_only)


def _visit_library_closure(fn, out, depth):
    """A function msxla made (``value_and_grad(net)``, ``grad(f)``) is not walked, but
    the user functions, Cells and Parameters it closes over are: their globals,
    closure variables and attributes are baked into the graph too."""
    key = ("closure", id(fn))
    if depth > _MAX_DEPTH or key in out._seen:
        return
    out._seen.add(key)
    for cell in fn.__closure__ or ():
        try:
            value = cell.cell_contents
        except ValueError:  # not yet bound
            continue
        if isinstance(value, (CellBase, Parameter, Jitted, types.FunctionType,
                              types.MethodType, list, tuple, dict)):
            _visit(value, out, depth + 1, None)


def _guard_and_visit(source, fetch, value, out, depth, write_only=False):
    if isinstance(value, types.ModuleType):
        return
    if isinstance(value, (types.BuiltinFunctionType, type)) and _is_library(value):
        return
    if isinstance(value, (types.FunctionType, types.MethodType)) and _is_library(value):
        if isinstance(value, types.FunctionType):
            _visit_library_closure(value, out, depth + 1)
        return
    if isinstance(value, Tensor) and not isinstance(value, Parameter):
        out.guards.append(G.value_guard(source, fetch, value))
        out.guards.append(G.tensor_data_guard(source, value))
        return
    if write_only:
        out.guards.append(G.LogGuard(source, fetch, value) if type(value) is list else
                          G.value_guard(source, fetch, value))
    else:
        out.guards.append(G.container_guard(source, fetch, value))
    if isinstance(value, (Parameter, CellBase, types.FunctionType, types.MethodType, list, tuple,
                          dict)) or hasattr(value, "fn"):
        _visit(value, out, depth + 1, source)


def _is_library(value) -> bool:
    """Functions and classes from msxla, jax, numpy or Python itself are not user state."""
    module = getattr(value, "__module__", None) or ""
    if module.split(".")[0] in ("msxla", "jax", "jaxlib", "numpy", "builtins", "math",
                                "functools", "itertools", "operator", "collections", "typing"):
        return True
    try:
        filename = inspect.getsourcefile(value) or ""
    except (TypeError, OSError):
        return True
    return is_internal_file(filename) or "site-packages" in filename
