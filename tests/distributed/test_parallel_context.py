"""set/get/reset_auto_parallel_context against MindSpore 2.10 (tests/golden/parallel_context.json),
under mindspore.context and the top level, and the combinations msxla refuses."""
import builtins
import json
import os

import pytest

import msxla as ms
from msxla import context

GOLDEN = json.load(open(os.path.join(os.path.dirname(__file__), "..", "golden",
                                     "parallel_context.json")))


@pytest.fixture(autouse=True)
def _reset():
    context.reset_auto_parallel_context()
    yield
    context.reset_auto_parallel_context()


@pytest.mark.parametrize("key", sorted(GOLDEN["defaults"]))
def test_defaults(key):
    want = GOLDEN["defaults"][key]
    if "error" in want:
        with pytest.raises(getattr(builtins, want["error"])) as info:
            context.get_auto_parallel_context(key)
        assert str(info.value) == want["message"]
    else:
        assert context.get_auto_parallel_context(key) == want["value"]


@pytest.mark.parametrize("case", GOLDEN["cases"], ids=lambda c: ",".join(c["kwargs"]))
def test_set_and_get(case):
    kwargs = case["kwargs"]
    if "error" in case:
        with pytest.raises(Exception) as info:
            ms.set_auto_parallel_context(**kwargs)
        assert type(info.value).__name__ == case["error"]
        assert str(info.value) == case["message"]
        return
    ms.set_auto_parallel_context(**kwargs)
    got = {k: ms.get_auto_parallel_context(k) for k in case["values"]}
    assert got == case["values"]
    ms.reset_auto_parallel_context()
    assert ms.get_auto_parallel_context("parallel_mode") == "stand_alone"


def test_parallel_mode_names_and_paths():
    assert ms.ParallelMode.MODE_LIST == ["stand_alone", "data_parallel", "hybrid_parallel",
                                         "semi_auto_parallel", "auto_parallel"]
    ms.alias_mindspore()
    import mindspore.context
    import mindspore.nn.wrap.cell_wrapper
    assert mindspore.context.ParallelMode is ms.ParallelMode
    assert mindspore.nn.wrap.cell_wrapper.ParallelMode is ms.ParallelMode
    assert mindspore.context.set_auto_parallel_context is ms.set_auto_parallel_context


def test_pipeline_parallelism_is_refused():
    with pytest.raises(ValueError, match="no pipeline parallelism"):
        ms.set_auto_parallel_context(pipeline_stages=2)
    assert ms.get_auto_parallel_context("pipeline_stages") == 1


def test_device_num_defaults_to_the_world_size():
    from msxla.parallel._utils import _get_device_num, _get_global_rank
    ms.set_auto_parallel_context(parallel_mode="data_parallel")
    assert (_get_device_num(), _get_global_rank()) == (1, 0)
    ms.set_auto_parallel_context(device_num=4)
    assert _get_device_num() == 4
