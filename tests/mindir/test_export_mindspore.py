"""msxla's MindIR export, checked against what MindSpore 2.10 did with msxla's files.

tests/golden/make_mindir_export.py had MindSpore load every file msxla
writes for the networks of mindir_nets.py and the single-op cases (OP_CASES), run
it, and check it against the same network run in MindSpore; it stored
MindSpore's outputs and the primitives each file uses. Here msxla exports
the same cases again and checks that

- every primitive in the file is one MindSpore ran in some golden case (a
  new form of export must be shown to MindSpore before it is trusted), and
- msxla's loader, run on the file, gives MindSpore's outputs.
"""
import json
import os

import numpy as np
import pytest

import msxla as ms
from msxla import nn
from msxla.mindir.schema import pb

from mindir_nets import NETS, OP_CASES, op_case

HERE = os.path.dirname(__file__)
GOLDEN = json.load(open(os.path.join(HERE, "..", "golden", "mindir_export.json")))["cases"]
RAN_IN_MINDSPORE = {p for case in GOLDEN.values() for p in case["primitives"]}


def _build(name):
    return op_case(ms, name[3:]) if name.startswith("op_") else NETS[name](ms)


def _flat(out):
    if isinstance(out, (tuple, list)):
        return [v for o in out for v in _flat(o)]
    return [out]


def _primitives(path):
    model = pb.ModelProto()
    with open(path, "rb") as f:
        model.ParseFromString(f.read())
    return {p.op_type for p in model.primitives}


def _export_and_check(name, tmp_path):
    net, inputs = _build(name)
    path = ms.export(net, *inputs, file_name=str(tmp_path / name), file_format="MINDIR")
    assert path.endswith(f"{name}.mindir")
    assert not os.access(path, os.W_OK) or os.geteuid() == 0  # left read-only
    unseen = _primitives(path) - RAN_IN_MINDSPORE
    assert not unseen, f"{name} writes primitives MindSpore has not run: {sorted(unseen)}"
    got = _flat(nn.GraphCell(ms.load(path))(*inputs))
    want = GOLDEN[name]["outputs"]
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g.shape == tuple(w["shape"])
        assert str(g.asnumpy().dtype) == w["dtype"]
        np.testing.assert_allclose(g.asnumpy().astype(np.float64),
                                   np.asarray(w["value"], np.float64), rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("name", sorted(NETS))
def test_exported_network_runs_as_in_mindspore(name, tmp_path):
    _export_and_check(name, tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(f"op_{n}" for n in OP_CASES))
def test_exported_ops_run_as_in_mindspore(name, tmp_path):
    _export_and_check(name, tmp_path)
