"""The persistent compile cache (``enable_compile_cache`` / ``MS_COMPILER_CACHE_*``).

A second process loads the executables (and GE graphs) the first one made; a cache file
that is truncated, foreign or holds another key's entry is ignored with a
warning and rewritten, never run; two processes filling one cache at once
leave only valid entries. Each process computes ``sin(x) * 2 + 1`` and is
checked against numpy.
"""
from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys

import numpy as np

from msxla.jit import compile_cache

ROOT = pathlib.Path(__file__).resolve().parents[2]
CHILD = """
import json, sys
import numpy as np
import msxla as ms
from msxla import Tensor, ops
from msxla.jit import compile_cache
if sys.argv[1] != "-":
    ms.set_context(enable_compile_cache=True, compile_cache_path=sys.argv[1])
x = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
out = ms.jit(lambda a: ops.sin(a) * 2 + 1, jit_level="O1")(x)
ge = ms.jit(lambda a: a * 3 - 1, backend="GE")(x) if "ge" in sys.argv else None
print(json.dumps({"out": out.asnumpy().tolist(), **compile_cache.stats(),
                  "ge_out": None if ge is None else ge.asnumpy().tolist()}))
"""
WANT = np.sin(np.arange(6, dtype=np.float32).reshape(2, 3)) * 2 + 1


def _start(tmp_path, cache, env=None, *extra):
    script = tmp_path / "child.py"
    script.write_text(CHILD)
    full_env = dict(os.environ, PYTHONPATH=str(ROOT), JAX_PLATFORMS="cpu", **(env or {}))
    return subprocess.Popen([sys.executable, str(script), str(cache), *extra], cwd=tmp_path,
                            env=full_env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)


def _finish(proc):
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err
    result = json.loads(out.strip().splitlines()[-1])
    np.testing.assert_allclose(result["out"], WANT, rtol=1e-6)
    if result["ge_out"] is not None:
        np.testing.assert_allclose(result["ge_out"], np.arange(6).reshape(2, 3) * 3 - 1)
    return result, err


def _run(tmp_path, cache, env=None, *extra):
    return _finish(_start(tmp_path, cache, env, *extra))


def _entries(cache):
    return sorted((cache / "rank_0" / "xla").glob("*-cache"))


def test_a_second_process_loads_what_the_first_compiled(tmp_path):
    cache = tmp_path / "cache"
    cold, _ = _run(tmp_path, cache, None, "ge")
    assert cold["writes"] >= 1 and cold["dir"] == str(cache / "rank_0" / "xla")
    assert cold["ge"]["writes"] == 1  # the GE graph's conversion
    names = {p.name for p in _entries(cache)}
    assert any(n.startswith("jit__lambda") for n in names)
    # the environment variables turn the same cache on
    warm, _ = _run(tmp_path, "-", {"MS_COMPILER_CACHE_ENABLE": "1",
                                   "MS_COMPILER_CACHE_PATH": str(cache)}, "ge")
    assert warm["writes"] == 0 and warm["hits"] >= 1 and warm["rejected"] == 0
    assert warm["ge"] == {"hits": 1, "misses": 0, "rejected": 0, "writes": 0}
    assert {p.name for p in _entries(cache)} == names


def test_bad_files_are_ignored_with_a_warning_and_rewritten(tmp_path):
    cache = tmp_path / "cache"
    _run(tmp_path, cache)
    entries = _entries(cache)
    graph = next(p for p in entries if p.name.startswith("jit__lambda"))
    other = next(p for p in entries if p != graph)
    graph.write_bytes(other.read_bytes())  # another key's (valid) entry under this name
    other.write_bytes(other.read_bytes()[:-100])  # truncated
    foreign = graph.parent / "notes.txt"
    foreign.write_text("not a cache entry")
    result, err = _run(tmp_path, cache)
    assert result["rejected"] == 2 and result["writes"] >= 2
    assert "is not a valid entry" in err
    for p in _entries(cache):
        assert compile_cache.unpack(p.name[:-len("-cache")], p.read_bytes()) is not None
    assert foreign.read_text() == "not a cache entry"


def test_two_processes_fill_one_cache_at_once(tmp_path):
    cache = tmp_path / "cache"
    procs = [_start(tmp_path, cache) for _ in range(2)]
    for proc in procs:
        _finish(proc)
    entries = _entries(cache)
    assert entries and not list((cache / "rank_0" / "xla").glob(".*.tmp"))
    for p in entries:
        assert compile_cache.unpack(p.name[:-len("-cache")], p.read_bytes()) is not None


def test_envelope():
    payload = bytes(range(256)) * 3
    data = compile_cache.pack("k1", payload)
    assert compile_cache.unpack("k1", data) == payload
    assert compile_cache.unpack("k2", data) is None              # another key
    assert compile_cache.unpack("k1", data[:-1]) is None         # truncated
    assert compile_cache.unpack("k1", data[:-1] + b"\0") is None  # changed
    assert compile_cache.unpack("k1", payload) is None           # no envelope
