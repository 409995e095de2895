"""``mindspore.profiler`` on jax's profiler and ``mindspore.runtime`` / ``mindspore.hal``.

The schedule's actions equal MindSpore 2.10's (``golden/profiler_schedule.json``); a
profiler writes the traces TensorBoard and Perfetto open, at the steps its schedule
records, and hands them to ``on_trace_ready``; the runtime's memory counters follow
the live arrays and its events time device work."""
import glob
import gzip
import json
import os

import numpy as np
import pytest

import msxla as ms
from msxla import hal, runtime
from msxla.profiler import Profiler, profile, schedule, tensorboard_trace_handler

with open(os.path.join(os.path.dirname(__file__), "golden", "profiler_schedule.json")) as f:
    SCHEDULES = json.load(f)


@pytest.mark.parametrize("case", SCHEDULES, ids=lambda c: str(c["config"]))
def test_schedule_actions_match_mindspore(case):
    s = schedule(**case["config"])
    assert [str(s(i)) for i in range(20)] == case["actions"]


def _work(n):
    x = ms.Tensor(np.ones((64, 64), np.float32))
    for _ in range(n):
        x = ms.ops.matmul(x, x) * 0.01
    return x.asnumpy()


def _runs(path):
    return sorted(glob.glob(os.path.join(path, "*_msxla", "plugins", "profile", "*")))


def test_profiler_writes_tensorboard_and_perfetto_traces(tmp_path):
    prof = Profiler(output_path=str(tmp_path))
    _work(3)
    prof.stop()
    prof.analyse()
    (run,) = _runs(tmp_path)
    assert glob.glob(os.path.join(run, "*.xplane.pb"))
    with gzip.open(os.path.join(run, "perfetto_trace.json.gz")) as f:
        trace = json.load(f)
    assert trace["traceEvents"]


def test_profile_follows_its_schedule_and_calls_on_trace_ready(tmp_path):
    ready = []
    handler = tensorboard_trace_handler(str(tmp_path))

    def on_ready(prof):
        ready.append(prof.step_num)
        handler(prof)
    on_ready.dir_name = handler.dir_name  # where the trace goes
    with profile(schedule=schedule(wait=1, warmup=1, active=2, repeat=2),
                 on_trace_ready=on_ready) as prof:
        for _ in range(10):
            _work(1)
            prof.step()
    assert ready == [4, 8]  # the last recorded step of each of the two cycles
    assert len(_runs(tmp_path)) == 2


def test_profile_as_context_manager_without_schedule(tmp_path):
    with profile(output_path=str(tmp_path)) as prof:
        _work(1)
        prof.add_metadata("model", "mlp")
    assert _runs(tmp_path)
    with open(os.path.join(prof.trace_path, "profiler_metadata.json")) as f:
        assert json.load(f) == {"model": "mlp"}


def test_runtime_memory_follows_live_arrays():
    runtime.synchronize()
    before = runtime.memory_allocated()
    x = ms.Tensor(np.ones((512, 512), np.float32))
    runtime.synchronize()
    assert runtime.memory_allocated() >= before + x.nbytes
    assert runtime.max_memory_allocated() >= runtime.memory_allocated()
    stats = runtime.memory_stats()
    assert stats["total_allocated_memory"] == runtime.memory_allocated()
    assert hal.memory_allocated("CPU") == runtime.memory_allocated()
    del x


def test_events_time_device_work_and_devices_are_listed():
    start, end = runtime.Event(enable_timing=True), runtime.Event(enable_timing=True)
    start.record()
    _work(5)
    end.record()
    assert start.elapsed_time(end) > 0
    with pytest.raises(RuntimeError):
        runtime.Event().elapsed_time(runtime.Event())
    assert runtime.current_stream() == runtime.default_stream()
    assert hal.device_count("CPU") >= 1 and hal.is_available("CPU")
    assert hal.get_device_name(0, "CPU")
    with pytest.raises(ValueError):
        hal.device_count("TPU")
    with pytest.raises(ValueError):
        runtime.set_memory(max_size="10")
