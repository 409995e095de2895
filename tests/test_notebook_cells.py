"""Code typed in notebook cells jits as code in files does.

IPython keeps each cell's source in ``linecache``; ast capture reads it from
there. The cells run in a real IPython shell, in a fresh process.
"""
import os
import subprocess
import sys

import pytest

pytest.importorskip("IPython")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

CELLS = [
    "import msxla; msxla.alias_mindspore()",
    "import numpy as np\nimport mindspore as ms\nfrom mindspore import nn, ops, Tensor\n"
    "def f(x, y):\n    if x.sum() > 0:\n        return x * y\n    return x - y\n",
    "x = Tensor(np.array([1.0, -3.0], np.float32)); y = Tensor(np.array([2.0, 5.0], np.float32))\n"
    "want = [f(x, y).asnumpy().tolist(), f(-x, y).asnumpy().tolist()]\n"
    "for mode in ('ast', 'bytecode'):\n"
    "    g = ms.jit(f, capture_mode=mode)\n"
    "    print(mode, [g(x, y).asnumpy().tolist(), g(-x, y).asnumpy().tolist()] == want)\n",
    "class Net(nn.Cell):\n    def construct(self, x):\n        if x.max() > 2:\n"
    "            return ops.relu(x) * 2\n        return x\n"
    "ms.set_context(mode=ms.GRAPH_MODE)\n"
    "print('graph', Net()(Tensor(np.array([-1.0, 3.0], np.float32))).asnumpy().tolist())\n",
    "def broken(x):\n    return ops.matmul(x, x)\n"
    "try:\n    ms.jit(broken)(Tensor(np.ones((2, 3), np.float32)))\n"
    "except Exception as e:\n    print('error names the cell:', '<ipython-input-' in str(e) or "
    "'ipykernel' in str(e))\n",
]


def test_cells_jit_like_files():
    code = ("from IPython.core.interactiveshell import InteractiveShell\n"
            "shell = InteractiveShell.instance(colors='nocolor')\n"
            f"for cell in {CELLS!r}:\n"
            "    result = shell.run_cell(cell)\n"
            "    if not result.success:\n"
            "        raise SystemExit(f'cell failed: {result.error_in_exec!r}')\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=600, env=dict(os.environ, PYTHONPATH=ROOT))
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    lines = proc.stdout.splitlines()
    assert "ast True" in lines and "bytecode True" in lines
    assert "graph [-0.0, 6.0]" in lines or "graph [0.0, 6.0]" in lines
    assert "error names the cell: True" in lines
