"""``mindspore.data_sink(fn, dataset, sink_size, jit_config)``.

The returned function runs ``fn`` on the next ``sink_size`` batches of
``dataset`` (continuing across the data's epochs) and returns the last
call's output. With a ``jit_config`` the ``sink_size`` calls are one XLA
executable (``_sink.SinkLoop``: ``fn`` compiled at the config's level,
inlined into a device-side loop over the batches, which are transferred
together); without one, ``fn`` runs once per batch as written (PyNative).
MindSpore refuses data sinking on CPU; msxla sinks on every device.
"""
from __future__ import annotations

import functools

from msxla.common.tensor import Tensor
from msxla.jit import JitConfig, JitFunction
from msxla.jit.config import options_from_config
from msxla.train._sink import SinkLoop
from msxla.train.dataset_helper import DataSource, stack_batches, to_tensor

__all__ = ["data_sink"]


def _check_signature(input_signature, batch, source):
    batch = tuple(to_tensor(t, source.column_label(i)) for i, t in enumerate(batch))
    specs = input_signature if isinstance(input_signature, (list, tuple)) else [input_signature]
    if len(specs) != len(batch):
        raise TypeError(f"The dataset has {len(batch)} columns ({source.describe(batch)}), but "
                        f"'input_signature' describes {len(specs)}.")
    for i, (spec, t) in enumerate(zip(specs, batch)):
        if not isinstance(spec, Tensor):
            continue
        shape_ok = len(spec.shape) == len(t.shape) and all(
            s in (-1, None) or s == d for s, d in zip(spec.shape, t.shape))
        if spec.dtype != t.dtype or not shape_ok:
            raise TypeError(f"The dataset column {source.column_label(i)} is {t.dtype} "
                            f"{tuple(t.shape)}, but 'input_signature' says {spec.dtype} "
                            f"{tuple(spec.shape)}.")


def data_sink(fn, dataset, sink_size=1, jit_config=None, input_signature=None):
    """``fn`` run on ``sink_size`` batches of ``dataset`` per call (see the module doc)."""
    if not isinstance(sink_size, int) or isinstance(sink_size, bool):
        raise TypeError(f"For 'Data sink', the type of 'sink_size' should be 'int', but got type "
                        f"'{type(sink_size).__name__}'.")
    if sink_size <= 0:
        raise ValueError(f"The 'sink_size' must be positive, but got sink_size {sink_size}.")
    if jit_config is not None and not isinstance(jit_config, JitConfig):
        raise TypeError(f"The 'jit_config' must be a JitConfig, but got "
                        f"{type(jit_config).__name__}.")
    source = dataset if isinstance(dataset, DataSource) else DataSource(dataset)
    state = {"stream": None, "loop": None}

    def next_batches():
        if state["stream"] is None:
            host = jit_config is not None  # stacked on the host, transferred once per column
            source.open(-1, host=host)
            state["stream"] = source.stream(host=host)
        batches = [next(state["stream"]) for _ in range(sink_size)]
        if input_signature is not None:
            _check_signature(input_signature, batches[0], source)
        return batches

    @functools.wraps(fn)
    def sink_process(*args, **kwargs):
        batches = next_batches()
        if jit_config is None:
            out = None
            for batch in batches:
                out = fn(*batch)
            return out
        if state["loop"] is None:
            config = jit_config.jit_config_dict
            opts = options_from_config(config, capture_mode=config.get("capture_mode", "ast"))
            step = fn if isinstance(fn, JitFunction) else JitFunction(fn, opts)
            state["loop"] = SinkLoop(step=step, jit_level=opts.jit_level)
        return state["loop"](*stack_batches(batches, source))

    return sink_process
