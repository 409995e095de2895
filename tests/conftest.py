import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "jit"))


def _share_compilation_cache():
    """One jax persistent compilation cache for the whole run.

    Many tests compile the same small XLA programs (an eager ``add`` of two
    (2, 3) float32 Tensors, one graph in several parametrised cases, in every
    xdist worker); with a cache shared by the run's processes each is
    compiled once and then read back. The controller makes the directory and
    the xdist workers find it in ``MSXLA_TEST_XLA_CACHE``; programs that tests
    start (scripts, launched workers) compile on their own, as a user's do.
    A ``JAX_COMPILATION_CACHE_DIR`` already set (a cache kept between runs)
    is used as it is; ``MSXLA_TEST_CACHE=0`` turns the cache off. Returns the
    directory this process made (removed at the end), or None.
    """
    if os.environ.get("JAX_COMPILATION_CACHE_DIR") or os.environ.get("MSXLA_TEST_CACHE") == "0":
        return None
    made = None
    path = os.environ.get("MSXLA_TEST_XLA_CACHE")
    if not path:
        path = made = tempfile.mkdtemp(prefix="msxla-tests-xla-cache-")
        os.environ["MSXLA_TEST_XLA_CACHE"] = path
    import jax

    jax.config.update("jax_compilation_cache_dir", path)
    jax.config.update("jax_persistent_cache_min_compile_time_secs", 0.0)
    jax.config.update("jax_persistent_cache_min_entry_size_bytes", 0)
    _write_cache_entries_whole()
    return made


def _write_cache_entries_whole():
    """jax writes a cache entry in place, so a worker reading it meanwhile could
    get half of it (a warning and a recompile); write a temporary file and
    rename it instead. (jax's own locking comes with its size limit, whose
    eviction scans the whole directory on every write.)"""
    try:
        from jax._src import lru_cache
    except ImportError:  # another jax layout: keep its own writes
        return
    cls, suffix = lru_cache.LRUCache, getattr(lru_cache, "_CACHE_SUFFIX", None)
    put = cls.put
    if suffix is None or getattr(put, "writes_whole", False):
        return

    def put_whole(self, key, value):
        if self.eviction_enabled or not key:
            return put(self, key, value)
        path = self.path / f"{key}{suffix}"
        if not path.exists():
            part = self.path / f"{key}{suffix}.{os.getpid()}.part"
            part.write_bytes(value)
            os.replace(part, path)

    put_whole.writes_whole = True
    cls.put = put_whole


_OWN_CACHE = _share_compilation_cache()

import pytest  # noqa: E402

from modes import any_modes, available_modes  # noqa: E402


def pytest_unconfigure(config):
    if _OWN_CACHE is not None:
        shutil.rmtree(_OWN_CACHE, ignore_errors=True)


MODES = available_modes()


@pytest.fixture(params=MODES)
def mode(request):
    """PyNative and every jit capture mode x O0/O1 of this build."""
    return request.param


@pytest.fixture(params=[m for m in MODES if m != "pynative"])
def jit_mode(request):
    """Every jit capture mode x O0/O1 of this build."""
    return request.param


@pytest.fixture(params=any_modes())
def any_mode(request):
    """Every jit capture mode x O0/O1, and GRAPH_MODE at O0/O1 (O1 marked slow)."""
    return request.param
