"""MindSpore's module paths: every path of one object is that object, in msxla too.

``msxla/_data/mindspore_paths.json.gz`` was written from MindSpore 2.10 by
``tools/make_mindspore_paths.py``: for every public object, all the
``module:name`` paths MindSpore exposes it at.
"""
import gzip
import importlib
import json
import os
import subprocess
import sys

import pytest

import msxla
from msxla import _paths

INDEX = json.load(gzip.open(os.path.join(os.path.dirname(msxla.__file__), "_data",
                                         "mindspore_paths.json.gz"), "rt"))


def _module(name):
    try:
        return importlib.import_module(_paths.msxla_name(name))
    except ImportError:
        return None


def test_every_mindspore_module_path_imports():
    failed = [m for m in INDEX["modules"] if _module(m) is None]
    assert not failed, failed[:20]


def test_each_object_is_one_object_at_all_its_paths():
    split = []
    for group in INDEX["groups"]:
        seen = {}
        for path in group:
            module, name = path.split(":")
            value = getattr(_module(module), name, _paths.MISSING)
            if value is not _paths.MISSING:
                seen.setdefault(id(value), []).append(path)
        if len(seen) > 1:
            split.append(list(seen.values()))
    assert not split, split[:10]


@pytest.mark.parametrize("path, canonical", [
    ("mindspore.common.api:jit", "jit"),
    ("mindspore.common:mutable", "mutable"),
    ("mindspore.common:set_seed", "set_seed"),
    ("mindspore.common.tensor:Tensor", "Tensor"),
    ("mindspore.common.parameter:Parameter", "Parameter"),
    ("mindspore.common.dtype:float32", "float32"),
    ("mindspore.train.serialization:save_checkpoint", "save_checkpoint"),
    ("mindspore.ops.operations:MatMul", "ops.MatMul"),
    ("mindspore.ops.operations.math_ops:MatMul", "ops.MatMul"),
    ("mindspore.ops.functional:cast", "ops.cast"),
    ("mindspore.ops.composite:GradOperation", "ops.GradOperation"),
    ("mindspore.nn.layer.basic:Dense", "nn.Dense"),
    ("mindspore.nn.layer:Conv2d", "nn.Conv2d"),
    ("mindspore.context:set_context", "set_context"),
    ("mindspore.context:GRAPH_MODE", "GRAPH_MODE"),
])
def test_paths_scripts_write(path, canonical):
    module, name = path.split(":")
    want = msxla
    for part in canonical.split("."):
        want = getattr(want, part)
    assert getattr(_module(module), name) is want
    space = {}
    exec(f"from {_paths.msxla_name(module)} import {name} as got", space)
    assert space["got"] is want


def test_derived_module_star_import_and_dir():
    space = {}
    exec("from msxla.ops.operations.math_ops import *", space)
    assert space["MatMul"] is msxla.ops.MatMul
    math_ops = importlib.import_module("msxla.ops.operations.math_ops")
    assert "MatMul" in math_ops.__all__ and "MatMul" in dir(math_ops)


def test_a_name_msxla_lacks_says_so():
    name = next(p.split(":")[1] for g in INDEX["groups"] for p in g
                if p.startswith("mindspore.nn:") and _paths.resolve("msxla.nn", p[13:])
                is _paths.MISSING)
    with pytest.raises(AttributeError, match="msxla does not implement it yet"):
        getattr(msxla.nn, name)
    assert not hasattr(msxla.nn, name)
    with pytest.raises(AttributeError, match="MindSpore 2.10 has no such public name"):
        msxla.nn.NoSuchLayerAnywhere
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("msxla.no_such_module")


def test_alias_in_process_is_the_same_module_objects():
    code = ("import msxla; msxla.alias_mindspore()\n"
            "import mindspore, mindspore.nn as nn\n"
            "from mindspore.ops.operations import math_ops\n"
            "import msxla.ops.operations.math_ops as m2\n"
            "from mindspore.common.api import jit\n"
            "print(mindspore is msxla, nn is msxla.nn, math_ops is m2, jit is msxla.jit,\n"
            "      msxla.nn.__spec__.name)\n"
            "try:\n    import mindspore.no_such_module\n"
            "except ModuleNotFoundError as e:\n    print(e)\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=300, env=dict(os.environ, PYTHONPATH=os.path.dirname(
                              os.path.dirname(msxla.__file__))))
    assert proc.returncode == 0, proc.stderr
    first, second = proc.stdout.splitlines()
    assert first == "True True True True msxla.nn"
    assert second == "No module named 'mindspore.no_such_module'"
