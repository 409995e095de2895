"""Timing for the jit tutorial's table: prepare, interleaved rounds, the machine.

- ``prepare``: the wall time of the first call (capture, lowering and XLA
  compile for a jitted variant), synchronised on its output.
- ``run_rounds``: every round times a block of calls of every variant, in an
  order rotated by one each round, so background load on a shared machine
  hits all variants alike; a block stops the clock only after its last output
  is ready (``block_until_ready``). Per-call time is the best block of the
  rounds divided by its calls (also in process CPU time, which counts every
  thread of the process and not the time other processes held the cores);
  ``time for 1000 calls`` is the mean over every
  timed call times 1000. Blocks of slow variants are shortened to about
  ``max_block_s`` seconds (at least ``min_calls`` call); cheap tables get
  more rounds, until they have been timed for ``min_s`` seconds.
"""
from __future__ import annotations

import gc
import os
import platform
import sys
import time

import jax
import numpy as np


def as_jax(out):
    """The jax arrays of a result (msxla Tensors, jax arrays, nested containers)."""
    if isinstance(out, (tuple, list)):
        return [a for item in out for a in as_jax(item)]
    if isinstance(out, dict):
        return [a for item in out.values() for a in as_jax(item)]
    data = getattr(out, "_data", out)
    return [data]


def sync(out):
    jax.block_until_ready(as_jax(out))
    return out


def prepare(runner):
    start = time.perf_counter()
    out = sync(runner())
    return time.perf_counter() - start, out


def time_block(runner, n):
    """(wall seconds, process CPU seconds) of ``n`` calls, synchronised on the last output."""
    gc.collect()
    gc.disable()
    try:
        start, cpu = time.perf_counter(), time.process_time()
        for _ in range(n):
            out = runner()
        sync(out)
        return time.perf_counter() - start, time.process_time() - cpu
    finally:
        gc.enable()


def block_sizes(runners, calls, max_block_s, min_calls):
    """Calls per block for each runner: ``calls``, or fewer for slow variants."""
    sizes = []
    for runner in runners:
        one = time_block(runner, 1)[0]  # a warm call (the first one compiled)
        sizes.append(max(min_calls, min(calls, int(max_block_s / max(one, 1e-9)))))
    return sizes


def run_rounds(runners, rounds, calls, max_block_s=2.0, min_s=0.0, max_rounds=100,
               min_calls=1):
    """{variant name: timing dict} after at least ``rounds`` interleaved rounds, and more
    (up to ``max_rounds``) until the rounds have taken ``min_s`` seconds."""
    sizes = block_sizes(runners, calls, max_block_s, min_calls)
    blocks = [[] for _ in runners]
    start, r = time.perf_counter(), 0
    while r < rounds or (time.perf_counter() - start < min_s and r < max_rounds):
        for i in [(r + j) % len(runners) for j in range(len(runners))]:
            blocks[i].append(time_block(runners[i], sizes[i]))
        r += 1
    result = {}
    for runner, n, timed in zip(runners, sizes, blocks):
        times = [wall for wall, _ in timed]
        total_calls = n * len(times)
        result[runner.variant.name] = {
            "per_call_us": min(times) / n * 1e6,
            "cpu_per_call_us": min(cpu for _, cpu in timed) / n * 1e6,
            "median_call_us": float(np.median(times)) / n * 1e6,
            "time_for_1000_calls_s": sum(times) / total_calls * 1000,
            "timed_calls": total_calls,
            "calls_per_round": n,
        }
    return result


def select_device(device):
    """Make ``device`` ("cpu" / "gpu") jax's default for msxla and the jax peers, or stop
    with what to do when jax has no such platform. On a GPU every row computes in
    full float32: msxla's matmuls ask for it (MindSpore's GPU default refuses TF32
    for matmuls), while jax's default there is TF32 for float32 dots and
    convolutions."""
    import msxla as ms
    try:
        ms.set_context(device_target=device.upper())
    except ValueError as err:
        raise SystemExit(f"--device {device}: {err} Install jax with CUDA support (pip install "
                         "'jax[cuda12]') on a machine with an NVIDIA GPU, or run with "
                         "--device cpu.") from None
    if device == "gpu":
        jax.config.update("jax_default_matmul_precision", "highest")


def _cpu_model():
    try:
        with open("/proc/cpuinfo") as fh:
            for line in fh:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def machine(device):
    """The machine and the versions a result was measured with."""
    import jaxlib

    import msxla
    dev = jax.devices(device)[0] if device != "cpu" else jax.devices("cpu")[0]
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:
        cores = os.cpu_count()
    return {
        "cpu": _cpu_model(),
        "cores": cores,
        "device": f"{dev.platform}: {getattr(dev, 'device_kind', dev.platform)}",
        "load_average_at_start": [round(x, 2) for x in os.getloadavg()],
        "python": sys.version.split()[0],
        "jax": jax.__version__,
        "jaxlib": jaxlib.__version__,
        "msxla": getattr(msxla, "__version__", "unknown"),
        "numpy": np.__version__,
        "platform": platform.platform(),
    }
