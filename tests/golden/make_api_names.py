"""Public names of MindSpore 2.10's API namespaces -> api_names.json.

Run in the oracle venv: GLOG_v=3 ~/ms-oracle/bin/python tests/golden/make_api_names.py
The lists are the names ``dir()`` shows without a leading underscore, so the
op-surface tests can check that each name msxla generates is MindSpore's and
``tools/api_coverage.py`` can count how many of MindSpore's names msxla has.
"""
import json
import os

import mindspore as ms
from mindspore import Tensor, mint, ops
import mindspore.mint.nn.functional as mint_functional
import mindspore.ops.functional as functional
import mindspore.ops.operations as operations


def public(obj):
    return sorted(n for n in dir(obj) if not n.startswith("_"))


NAMESPACES = {
    "mindspore": ms,
    "mindspore.Tensor": Tensor,
    "mindspore.ops": ops,
    "mindspore.ops.operations": operations,
    "mindspore.ops.functional": functional,
    "mindspore.mint": mint,
    "mindspore.mint.nn.functional": mint_functional,
}

out = {"version": ms.__version__, "names": {k: public(v) for k, v in NAMESPACES.items()}}
path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "api_names.json")
with open(path, "w") as f:
    json.dump(out, f, indent=1, sort_keys=True)
print({k: len(v) for k, v in out["names"].items()})
