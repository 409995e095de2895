"""Concurrency and resources: one jitted function called from 8 threads at
once, many jitted functions captured at once, and a function called with many
distinct shapes (a bounded cache that evicts, and one recompile warning).

The 1,000-shape run is ``slow``; the fast test shrinks the cache limit so the
same eviction is exercised with a few dozen shapes.
"""
import gc
import importlib
import logging
import threading
import tracemalloc

import numpy as np
import pytest

import msxla as ms
from msxla import Parameter, Tensor, nn, ops
from msxla.jit.entry import Entry

jit_function = importlib.import_module("msxla.jit.function")
jit_cache = importlib.import_module("msxla.jit.cache")
THREADS = 8


def run_threads(target, n=THREADS):
    barrier = threading.Barrier(n)
    results, errors = [None] * n, []

    def worker(i):
        try:
            barrier.wait()
            results[i] = target(i)
        except BaseException as err:  # noqa: BLE001 - reported below
            errors.append(err)
    threads = [threading.Thread(target=worker, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=300)
    assert not errors, errors
    return results


@pytest.mark.parametrize("capture_mode", ["trace", "ast", "bytecode"])
def test_eight_threads_one_signature_compile_once(capture_mode):
    w = Parameter(Tensor(np.array([2.0, 3.0], np.float32)), name="w")

    def affine(x, y):
        return ops.tanh(x) * w + y

    fn = ms.jit(affine, capture_mode=capture_mode)

    def call(i):
        outs = []
        for k in range(5):
            x = np.full((2,), 0.1 * i + k, np.float32)
            outs.append((x, fn(Tensor(x), Tensor(x)).asnumpy()))
        return outs
    for outs in run_threads(call):
        for x, out in outs:
            np.testing.assert_allclose(out, np.tanh(x) * [2.0, 3.0] + x, rtol=1e-6)
    assert fn.stats.captures == 1 and fn.stats.compiles <= 1


def test_eight_threads_two_signatures_compile_each_once():
    fn = ms.jit(lambda x: x * 2 + 1)

    def call(i):
        shape = (2,) if i % 2 else (3, 2)
        return [fn(Tensor(np.full(shape, i, np.float32))).asnumpy() for _ in range(3)]
    for i, outs in enumerate(run_threads(call)):
        for out in outs:
            np.testing.assert_array_equal(out, 2 * i + 1)
    assert fn.stats.captures == 2


def test_eight_threads_capture_different_functions_at_once():
    """Captures running concurrently keep their state (frames, guards) apart."""
    class Scaled(nn.Cell):
        def __init__(self, k):
            super().__init__()
            self.k = k
            self.w = Parameter(Tensor(np.full((2,), float(k), np.float32)), name="w")

        def construct(self, x):
            ops.assign_add(self.w, x)
            return self.w * self.k

    nets = [Scaled(k) for k in range(THREADS)]
    fns = [ms.jit(net, capture_mode=("ast", "trace", "bytecode")[k % 3])
           for k, net in enumerate(nets)]

    def call(i):
        return [float(fns[i](Tensor(np.ones(2, np.float32))).asnumpy()[0]) for _ in range(3)]
    for k, outs in enumerate(run_threads(call)):
        assert outs == [(k + 1) * k, (k + 2) * k, (k + 3) * k]
        assert float(nets[k].w.asnumpy()[0]) == k + 3


def live_entries(name):
    """Compiled entries of the function named ``...name`` still alive anywhere."""
    gc.collect()
    return [o for o in gc.get_objects()
            if isinstance(o, Entry) and o.graph.name.endswith(name)]


def test_many_shapes_evict_and_warn_once(monkeypatch, caplog):
    monkeypatch.setattr(jit_cache, "CACHE_SIZE", 4)
    monkeypatch.setattr(jit_function, "RECOMPILE_WARNING", 6)

    def evict_probe(x):
        return x * 2
    fn = ms.jit(evict_probe, capture_mode="trace")
    with caplog.at_level(logging.WARNING, logger="msxla"):
        for n in range(1, 21):
            assert fn(Tensor(np.ones(n, np.float32))).asnumpy().sum() == 2 * n
    assert len(fn.cache.entries) == 4 and len(live_entries("evict_probe")) == 4
    warnings = [r for r in caplog.records if "has been captured 6 times" in r.getMessage()]
    assert len(warnings) == 1 and "dynamic=1" in warnings[0].getMessage()
    assert fn(Tensor(np.ones(1, np.float32))).asnumpy().tolist() == [2.0]  # evicted: again
    assert fn.stats.captures == 21


@pytest.mark.slow
def test_a_thousand_shapes_keep_memory_bounded(caplog):
    def thousand_probe(x):
        return x * 2 + 1
    fn = ms.jit(thousand_probe, capture_mode="trace")

    def run(lo, hi):
        for n in range(lo, hi):
            assert fn(Tensor(np.ones(n, np.float32))).asnumpy()[-1] == 3.0

    with caplog.at_level(logging.WARNING, logger="msxla"):
        run(1, 301)
        gc.collect()
        tracemalloc.start()
        before = _msxla_bytes()
        run(301, 1001)
        gc.collect()
        grown = _msxla_bytes() - before
        tracemalloc.stop()
    assert len(fn.cache.entries) == jit_cache.CACHE_SIZE and len(fn.cache.hot) <= jit_cache.HOT_SIZE
    assert len(live_entries("thousand_probe")) == jit_cache.CACHE_SIZE
    assert grown < 2_000_000, f"memory held by msxla grew by {grown} bytes over 700 shapes"
    assert sum("has been captured" in r.getMessage() for r in caplog.records) == 1


def _msxla_bytes():
    """Bytes allocated from msxla's own files that are still alive."""
    snapshot = tracemalloc.take_snapshot().filter_traces(
        [tracemalloc.Filter(True, f"{ms.__path__[0]}/*")])
    return sum(stat.size for stat in snapshot.statistics("filename"))
