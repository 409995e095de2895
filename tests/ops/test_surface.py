"""The op surface is generated from the op table: every public callable of ``ops``,
``ops.operations``, ``ops.functional`` and ``Tensor`` traces back to an op row, a
composite, a registered Tensor method or a short, named list of non-ops, and
carries a MindSpore 2.10 name (``golden/api_names.json``)."""
import importlib
import inspect
import json
import os
import pkgutil
import re

import pytest

import msxla
from msxla import Tensor, ops
from msxla.ops import surface
from msxla.ops.opdef import REGISTRY
from msxla.ops.primitive import PRIMITIVES, REQUIRED

_HERE = os.path.dirname(os.path.abspath(__file__))
_GOLDEN = json.load(open(os.path.join(_HERE, "..", "golden", "api_names.json")))["names"]

# Public callables of ``ops`` that are not ops, and why.
NON_OPS = {
    "Primitive": "base class of user primitives",
    "PrimitiveWithInfer": "base class of user primitives",
    "PrimitiveWithCheck": "base class of user primitives",
    "prim_attr_register": "decorator of user primitive constructors",
    "constexpr": "decorator of compile-time functions (ops.primitive)",
    "vmap": "vectorizing transform (msxla.autodiff)",
    "MultitypeFuncGraph": "type-dispatch helper (ops.composite)",
    "HyperMap": "mapping helper (ops.composite)",
    "Map": "mapping helper (ops.composite)",
    "partial": "functools.partial (ops.composite)",
    "add_flags": "sets compile flags on a function (ops.composite)",
    "ReduceOp": "the reduction names of the collectives (ops.comm_ops), an enumeration",
    "GradOperation": "autodiff (msxla.autodiff)",
    "grad": "autodiff", "value_and_grad": "autodiff", "get_grad": "autodiff",
    "vjp": "autodiff", "jvp": "autodiff", "jacfwd": "autodiff", "jacrev": "autodiff",
    "linearize": "autodiff", "derivative": "autodiff", "jet": "autodiff",
}

# Public names msxla has that MindSpore 2.10 does not have at that path.
EXTRA_OPS = {"scatter_sub", "tensor_shape"}
EXTRA_TENSOR = {"exp2", "is_dynamic_spec"}


def _origins():
    """id(object) -> what it comes from, for every object the op table generates."""
    out = {}
    for row in REGISTRY.values():
        out[id(row.public)] = ("row", row.name)
        for cls in row.prims:
            out[id(cls)] = ("primitive of row", row.name)
    for name, record in surface.COMPOSITES.items():
        out[id(record.public)] = ("composite", name)
    for _, _, obj in surface.exported():
        out.setdefault(id(obj), ("composite primitive", obj.__name__))
    return out


def _public_callables(module):
    return {n: v for n, v in vars(module).items()
            if not n.startswith("_") and callable(v) and not inspect.ismodule(v)}


def test_every_ops_callable_is_an_op_or_named():
    origins = _origins()
    stray = sorted(n for n, v in _public_callables(ops).items()
                   if id(v) not in origins and n not in NON_OPS)
    assert not stray, f"ops names that come from no row, composite or NON_OPS: {stray}"


def test_every_functional_callable_is_an_op_or_named():
    import msxla.ops.functional as F
    origins = _origins()
    stray = sorted(n for n, v in _public_callables(F).items()
                   if id(v) not in origins and n not in NON_OPS)
    assert not stray, stray


def test_every_primitive_comes_from_a_row_or_composite():
    import msxla.ops.operations as P
    built = {cls for row in REGISTRY.values() for cls in row.prims}
    built |= {cls for record in surface.COMPOSITES.values() for cls in record.prims}
    built |= {obj for _, _, obj in surface.exported() if inspect.isclass(obj)}
    assert set(PRIMITIVES.values()) == built
    for name, cls in _public_callables(P).items():
        assert cls is ops.Primitive or cls in built, name


def test_every_tensor_member_is_bound_by_the_method_table_or_the_class():
    """A Tensor member is either a row of the method table (and still the object the
    table bound) or written in the class body of ``msxla/common/tensor.py``."""
    body = inspect.getsource(Tensor)
    implicit = {"__module__", "__qualname__", "__doc__", "__dict__", "__weakref__", "__slots__",
                "_data"}
    for name, value in vars(Tensor).items():
        if name in surface.METHODS:
            assert value is surface.METHODS[name][0], f"Tensor.{name} was rebound"
        elif name not in implicit:
            assert re.search(rf"(def {re.escape(name)}\(|^\s+{re.escape(name)} = )", body,
                             re.M), f"Tensor.{name} is set outside msxla.ops.surface"


def test_row_methods_and_operators_are_the_rows_public_functions():
    for row in REGISTRY.values():
        if row.method:
            assert surface.METHODS[row.method][1] is row, row.name
            assert getattr(Tensor, row.method) is row.public, row.name
        for opname in row.operators:
            assert surface.METHODS[opname][1] is row, (row.name, opname)


def test_only_the_surface_sets_tensor_attributes():
    root = os.path.dirname(msxla.__file__)
    pattern = re.compile(r"setattr\(\s*Tensor\b|^\s*Tensor\.\w+\s*=[^=]", re.M)
    offenders = []
    for dirpath, _, files in os.walk(root):
        for f in files:
            path = os.path.join(dirpath, f)
            if f.endswith(".py") and path != surface.__file__:
                if pattern.search(open(path, encoding="utf-8").read()):
                    offenders.append(os.path.relpath(path, root))
    assert not offenders, offenders


def test_family_all_is_the_registry():
    families = [info.name for info in pkgutil.iter_modules(ops.__path__)
                if not info.name.startswith("_") and info.name not in (
                    "opdef", "primitive", "surface", "functional", "function", "composite",
                    "operations", "auto_generate")]
    registered = {}
    for module, name, obj in surface.exported():
        registered.setdefault(module.rsplit(".", 1)[-1], set()).add(name)
    for fam in families:
        mod = importlib.import_module(f"msxla.ops.{fam}")
        assert set(mod.__all__) == registered.get(fam, set()), fam
        for name in mod.__all__:
            assert getattr(ops, name) is getattr(mod, name), (fam, name)


def test_generated_names_are_mindspores():
    ms_ops, ms_prims = set(_GOLDEN["mindspore.ops"]), set(_GOLDEN["mindspore.ops.operations"])
    fn_names = {n for _, n, o in surface.exported() if not inspect.isclass(o)}
    assert sorted(fn_names - ms_ops) == sorted(EXTRA_OPS)
    assert not sorted(set(PRIMITIVES) - ms_prims), "Primitive names MindSpore 2.10 lacks"
    tensor_names = {n for n in dir(Tensor) if not n.startswith("_")}
    assert sorted(tensor_names - set(_GOLDEN["mindspore.Tensor"])) == sorted(EXTRA_TENSOR)


def test_primitives_construct_with_their_defaults():
    for name, cls in PRIMITIVES.items():
        if any(v is REQUIRED for _, v in cls.init_args):
            with pytest.raises(TypeError, match="missing"):
                cls()
            continue
        prim = cls()
        assert prim.name == name and repr(prim) == f"Prim[{name}]"
        for key, value in prim.attrs.items():  # init attributes read as attributes
            assert getattr(prim, key) is value, (name, key)
