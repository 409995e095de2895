import collections
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
    ``MSXLA_TEST_XLA_CACHE=DIR`` set by hand keeps the cache in DIR between
    runs; ``MSXLA_TEST_CACHE=0`` (or jax's own ``JAX_COMPILATION_CACHE_DIR``)
    leaves jax as it is. Returns the directory this process made (removed at
    the end), or None.
    """
    if os.environ.get("JAX_COMPILATION_CACHE_DIR") or os.environ.get("MSXLA_TEST_CACHE") == "0":
        return None
    made = None
    path = os.environ.get("MSXLA_TEST_XLA_CACHE")
    if not path:
        path = made = tempfile.mkdtemp(prefix="msxla-tests-xla-cache-")
        os.environ["MSXLA_TEST_XLA_CACHE"] = path
    # msxla's own store for enable_compile_cache: checked entries, written whole
    # (no worker reads half an entry), counted apart from the counts tests check
    from msxla._jax_compat import set_persistent_cache
    from msxla.jit.compile_cache import CheckedFileCache

    set_persistent_cache(path, CheckedFileCache(path, collections.Counter()))
    return made


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
