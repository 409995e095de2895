"""Export every network of mindir_nets.py (and every case of OP_CASES) with msxla's MindIR export.

    python tests/mindir/export_nets.py OUT_DIR

Run by tests/golden/make_mindir_export.py (in msxla's environment, so
MindSpore can then load what msxla wrote) and by the tests.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

import msxla as ms  # noqa: E402
from mindir_nets import NETS, OP_CASES, op_case  # noqa: E402


def export_all(out_dir, names=None):
    paths = {}
    for name, build in NETS.items():
        if names is None or name in names:
            net, inputs = build(ms)
            paths[name] = ms.export(net, *inputs, file_name=os.path.join(out_dir, name),
                                    file_format="MINDIR")
    for name in OP_CASES:
        if names is None or f"op_{name}" in names:
            net, inputs = op_case(ms, name)
            paths[f"op_{name}"] = ms.export(net, *inputs, file_format="MINDIR",
                                            file_name=os.path.join(out_dir, f"op_{name}"))
    return paths


if __name__ == "__main__":
    for name, path in export_all(sys.argv[1]).items():
        print(name, path)
