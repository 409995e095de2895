"""Determinism with any number of workers, threads or processes: the same
``set_seed`` gives the same rows in the same order, random transforms
included, and the worker processes end with the iterator."""
import os

import numpy as np
import pytest

import msxla.dataset as ds
import msxla.dataset.vision as vision


def _images(n=24):
    rng = np.random.default_rng(0)
    return rng.integers(0, 255, (n, 12, 10, 3), dtype=np.uint8)


def _pipeline(workers, processes=False):
    d = ds.NumpySlicesDataset({"image": _images(), "label": np.arange(24)}, shuffle=True,
                              num_parallel_workers=workers)
    d = d.map([vision.RandomResizedCrop(6), vision.RandomHorizontalFlip(),
               vision.HWC2CHW()], input_columns=["image"], num_parallel_workers=workers,
              python_multiprocessing=processes)
    return d.batch(5)


def _epochs(dataset, n=2):
    it = dataset.create_tuple_iterator(num_epochs=n, output_numpy=True)
    return [[(b[0].copy(), b[1].tolist()) for b in it] for _ in range(n)]


def _same(a, b):
    assert len(a) == len(b)
    for ea, eb in zip(a, b):
        assert [l for _, l in ea] == [l for _, l in eb]
        for (xa, _), (xb, _) in zip(ea, eb):
            np.testing.assert_array_equal(xa, xb)


def test_same_seed_same_rows_with_any_number_of_threads():
    ds.config.set_seed(5)
    one = _epochs(_pipeline(1))
    for workers in (2, 4):
        ds.config.set_seed(5)
        _same(one, _epochs(_pipeline(workers)))
    assert [l for _, l in one[0]] != [l for _, l in one[1]]  # new order each epoch


def test_same_rows_with_worker_processes():
    ds.config.set_seed(5)
    one = _epochs(_pipeline(1))
    ds.config.set_seed(5)
    _same(one, _epochs(_pipeline(2, processes=True)))


def _children():
    try:
        import psutil
    except ImportError:  # pragma: no cover
        pytest.skip("psutil is not installed")
    return psutil.Process(os.getpid()).children(recursive=True)  # zombies included


def test_worker_processes_end_with_the_iterator():
    before = {c.pid for c in _children()}
    ds.config.set_seed(1)
    it = _pipeline(2, processes=True).create_tuple_iterator(num_epochs=1, output_numpy=True)
    next(it)
    assert {c.pid for c in _children()} - before  # workers are running
    it.stop()
    import time
    deadline = time.time() + 10
    while {c.pid for c in _children()} - before and time.time() < deadline:
        time.sleep(0.1)
    assert not {c.pid for c in _children()} - before


_SCRIPT = """
import sys, time
import numpy as np
sys.path.insert(0, {root!r})
import msxla.dataset as ds
d = ds.NumpySlicesDataset(np.arange(1000), ["x"], shuffle=False).map(
    lambda x: (time.sleep(0.05), x)[1], ["x"], num_parallel_workers=2,
    python_multiprocessing=True)
it = d.create_tuple_iterator(output_numpy=True)
next(it)
print("running", flush=True)
time.sleep(600)
"""


def test_killed_script_leaves_no_worker_behind(tmp_path):
    psutil = pytest.importorskip("psutil")
    import signal
    import subprocess
    import sys
    import time
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    script = tmp_path / "train.py"
    script.write_text(_SCRIPT.format(root=root))
    proc = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline().strip() == "running"
        workers = psutil.Process(proc.pid).children(recursive=True)
        assert len(workers) >= 2
        proc.send_signal(signal.SIGKILL)
        proc.wait(30)
        deadline = time.time() + 20
        while any(w.is_running() and w.status() != psutil.STATUS_ZOMBIE for w in workers) \
                and time.time() < deadline:
            time.sleep(0.2)
        assert not any(w.is_running() and w.status() != psutil.STATUS_ZOMBIE for w in workers)
    finally:
        if proc.poll() is None:
            proc.kill()
