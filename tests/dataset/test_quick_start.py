"""MindSpore's official quick start runs unchanged through ``python -m msxla`` on
MNIST-format files written here (a small, learnable MNIST: each digit is a
fixed random pattern plus noise)."""
import os
import shutil
import subprocess
import sys

import numpy as np
import pytest

from tests.dataset import reader_files

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def _write_mnist(folder, prefix, n, rng, patterns):
    labels = rng.integers(0, 10, n).astype(np.uint8)
    noise = rng.integers(0, 60, (n, 28, 28))
    images = np.clip(patterns[labels] + noise, 0, 255).astype(np.uint8)
    os.makedirs(folder, exist_ok=True)
    reader_files._idx(os.path.join(folder, f"{prefix}-images-idx3-ubyte"), images, 2051)
    reader_files._idx(os.path.join(folder, f"{prefix}-labels-idx1-ubyte"), labels, 2049)


@pytest.mark.slow
def test_official_quick_start_runs_unchanged(tmp_path):
    rng = np.random.default_rng(0)
    patterns = rng.integers(0, 196, (10, 28, 28))
    _write_mnist(tmp_path / "MNIST_Data" / "train", "train", 640, rng, patterns)
    _write_mnist(tmp_path / "MNIST_Data" / "test", "t10k", 192, rng, patterns)
    for name in ("quick_start.py", "download.py"):
        shutil.copy(os.path.join(HERE, "quickstart", name), tmp_path / name)
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.run([sys.executable, "-m", "msxla", "quick_start.py"], cwd=tmp_path,
                          env=env, capture_output=True, text=True, timeout=900)
    out = proc.stdout
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "['image', 'label']" in out
    assert "Shape of image [N, C, H, W]: (64, 1, 28, 28) Float32" in out
    assert "Shape of label: (64,) Int32" in out
    accuracies = [float(line.split("Accuracy: ")[1].split("%")[0])
                  for line in out.splitlines() if "Accuracy:" in line]
    assert len(accuracies) == 3 and accuracies[-1] > 80.0, out
    assert "Done!" in out and "Saved Model to model.ckpt" in out
    assert "Predicted:" in out
