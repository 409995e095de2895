"""Sink mode: N training steps inside one XLA executable.

``SinkLoop(network)(*stacked)`` takes each dataset column with N batches
stacked along a new first axis (transferred to the device together) and
runs ``network`` once per batch in a ``lax.scan``, compiled once per input
signature by ``msxla.jit``. The step is the network's compiled call (its
``construct`` captured as GRAPH_MODE captures it), inlined into the loop body.
Parameters the step writes (weights, optimizer moments and step counters,
BatchNorm statistics, the random state, loss scales) are the loop's carry,
so every step sees the previous one's values, and the graph writes their
final values back once. The result is the last step's output, which is what
MindSpore's sink mode hands to callbacks.
"""
from __future__ import annotations

import jax

from msxla.capture.signature import flatten_output, make_output_builder
from msxla.common import seed as _seed
from msxla.common.state import StateFrame
from msxla.common.tensor import wrap
from msxla.jit import JitFunction, jit
from msxla.jit.config import options_from_config
from msxla.nn.cell import Cell

__all__ = ["SinkLoop", "step_function"]
_MAX_REPLANS = 8


def step_function(network):
    """The compiled call of ``network`` (its JitConfig, captured as GRAPH_MODE does)."""
    config = network.jit_config_dict
    opts = options_from_config(config, capture_mode=config.get("capture_mode", "ast"))
    fn = JitFunction(network._graph_construct, opts, f"{type(network).__name__}.construct")
    fn.declared_inputs = network.get_inputs()
    return fn


class _Replan(Exception):
    """The step wrote Parameters that are not in the carry: trace again with them."""


class _Runner(Cell):
    """Holds the network (or the step function), so the compiled loop finds its
    Parameters; the network's Parameters are the first guess of the carry."""

    def __init__(self, network, step):
        super().__init__(auto_prefix=False)
        if network is not None:
            self.network = network
        self.__dict__["_step"] = step
        self.__dict__["_reach"] = (step,)  # what jit's discovery walks into
        self.__dict__["_carry"] = [] if network is None else list(network.get_parameters())

    def run(self, *stacked):
        for _ in range(_MAX_REPLANS):
            try:
                return self._scan(stacked)
            except _Replan:
                continue
        raise RuntimeError("sink mode: the training step keeps writing new Parameters.")

    def _scan(self, stacked):
        carry_params = self.__dict__["_carry"]
        rng = _seed.rng_state()
        if all(p is not rng for p in carry_params):
            carry_params.append(rng)
        index = {id(p): i for i, p in enumerate(carry_params)}
        written, box = set(), {}

        def body(carry, xs):
            frame = StateFrame(dict(zip(carry_params, carry)))
            with frame:
                out = self._step(*[wrap(x) for x in xs])
                out_spec, arrays = flatten_output(out)  # a Parameter: its value in the frame
            extra = [p for p in frame.written if id(p) not in index]
            if extra:
                carry_params.extend(extra)
                raise _Replan()
            written.update(id(p) for p in frame.written)
            box["spec"] = out_spec
            new = []
            for p, old in zip(carry_params, carry):
                value = frame.values[p]
                new.append(value.astype(old.dtype) if value.dtype != old.dtype else value)
            return new, arrays

        init = [p._data for p in carry_params]
        xs = [t._data for t in stacked]
        final, ys = jax.lax.scan(body, init, xs)
        for p, value in zip(carry_params, final):
            if id(p) in written:
                p._data = value
        return make_output_builder(box["spec"])([y[-1] for y in ys])


class SinkLoop:
    """``loop(*stacked)``: one step per batch of the stacked columns, compiled as one graph.

    ``network``: the Cell to run (its compiled call is the step); or ``step``, any
    callable, with ``jit_level`` for the loop."""

    def __init__(self, network=None, step=None, jit_level=None):
        self.network = network
        runner = _Runner(network, step if step is not None else step_function(network))
        if jit_level is None:
            jit_level = network.jit_config_dict.get("jit_level") or "O0"
        self._runner = runner
        self._fn = jit(runner.run, capture_mode="trace",
                       jit_level="O1" if jit_level == "O2" else jit_level)

    def __call__(self, *stacked):
        return self._fn(*stacked)

    @property
    def stats(self):
        """Capture and compile counters of the compiled loop."""
        return self._fn.stats
