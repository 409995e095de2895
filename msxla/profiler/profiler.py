"""``mindspore.profiler.profile`` and ``mindspore.Profiler`` on jax's profiler.

A profiler records a trace of what runs (XLA executables, host and device
activity, ``jax.profiler`` annotations) with ``jax.profiler.start_trace`` and
writes it when it stops, each trace in its own directory
``<output_path>/<host>_<pid>_<time>_msxla/plugins/profile/<run>/`` (as MindSpore
names one directory per trace): the ``*.xplane.pb`` file TensorBoard's profile
plugin opens (``tensorboard --logdir <output_path>``) and, as
``perfetto_trace.json.gz``, a Perfetto trace. ``step()`` follows the
``schedule`` (warm-up steps run untraced, a trace is written at the last
recorded step of a cycle and handed to ``on_trace_ready``); each recorded step
is a ``ProfilerStep#N`` annotation in the trace. MindSpore's Ascend options
(``aic_metrics``, ``l2_cache``, ``hbm_ddr``, ...) are accepted and have no
effect. ``analyse()`` has nothing left to do: jax writes the trace complete.
"""
from __future__ import annotations

import logging
import os
import socket
import time

import jax

from msxla.profiler.schedule import ProfilerAction, default_schedule

LOG = logging.getLogger("msxla")
_active = [None]  # the profiler whose trace is being recorded (jax allows one)


class Profile:
    """``mindspore.profiler.profile(activities=..., schedule=..., on_trace_ready=...)``."""

    def __init__(self, activities=None, with_stack=False, profile_memory=False,
                 data_process=False, parallel_strategy=False, start_profile=True, hbm_ddr=False,
                 pcie=False, sync_enable=True, record_shapes=False, schedule=None,
                 on_trace_ready=None, experimental_config=None, output_path=None, **ascend):
        self.activities = activities
        self.profile_memory, self.with_stack = profile_memory, with_stack
        self.on_trace_ready = on_trace_ready
        self.schedule = schedule if schedule is not None else default_schedule
        handler_dir = getattr(on_trace_ready, "dir_name", None)
        self.output_path = os.path.realpath(output_path or handler_dir or "./data")
        self.step_num = 0
        self._metadata = {}
        self._annotation = None
        self._tracing = False
        self.trace_path = None
        self.current_action = self.schedule(self.step_num)
        self._start_profile = start_profile

    # ----------------------------------------------------------- recording
    def _start_trace(self):
        if self._tracing:
            return
        if _active[0] is not None:
            raise RuntimeError("A profiler is already recording; stop it before starting "
                               "another one.")
        run = f"{socket.gethostname()}_{os.getpid()}_{time.time_ns() // 1000}_msxla"
        self.trace_path = os.path.join(self.output_path, run)
        os.makedirs(self.trace_path, exist_ok=True)
        jax.profiler.start_trace(self.trace_path, create_perfetto_trace=True)
        _active[0], self._tracing = self, True
        self._annotate()

    def _stop_trace(self, save=True):
        if not self._tracing:
            return
        self._end_annotation()
        jax.block_until_ready(jax.numpy.zeros(()))  # let queued device work reach the trace
        jax.profiler.stop_trace()
        _active[0], self._tracing = None, False
        if self._metadata:
            import json
            with open(os.path.join(self.trace_path, "profiler_metadata.json"), "w") as f:
                json.dump(self._metadata, f, indent=1)
        if save and self.on_trace_ready is not None:
            self.on_trace_ready(self)

    def _annotate(self):
        self._end_annotation()
        self._annotation = jax.profiler.StepTraceAnnotation("ProfilerStep",
                                                            step_num=self.step_num)
        self._annotation.__enter__()

    def _end_annotation(self):
        if self._annotation is not None:
            self._annotation.__exit__(None, None, None)
            self._annotation = None

    # -------------------------------------------------------------- public
    def start(self):
        """Start recording (the schedule decides from the current step)."""
        if self.current_action in (ProfilerAction.RECORD, ProfilerAction.RECORD_AND_SAVE):
            self._start_trace()

    def stop(self):
        """Stop recording and write the trace."""
        self._stop_trace(save=True)

    def step(self):
        """Mark the end of a training step and move the schedule on."""
        previous = self.current_action
        self.step_num += 1
        self.current_action = self.schedule(self.step_num)
        if previous == ProfilerAction.RECORD_AND_SAVE:
            self._stop_trace(save=True)
        if self.current_action in (ProfilerAction.RECORD, ProfilerAction.RECORD_AND_SAVE):
            if self._tracing:
                self._annotate()
            else:
                self._start_trace()

    def add_metadata(self, key: str, value: str):
        """A key/value pair written beside the trace (``profiler_metadata.json``)."""
        self._metadata[str(key)] = str(value)

    def add_metadata_json(self, key: str, value: str):
        self._metadata[str(key)] = value

    def __enter__(self):
        if self._start_profile:
            self.start()
        return self

    def __exit__(self, *exc):
        self.stop()
        return False


class Profiler(Profile):
    """``mindspore.Profiler(output_path="./data", start_profile=True, ...)``: records from
    construction (or ``start()``) until ``stop()``; ``analyse()`` is a no-op."""

    def __init__(self, **kwargs):
        start_profile = kwargs.pop("start_profile", True)
        super().__init__(start_profile=start_profile, **kwargs)
        if start_profile:
            self.start()

    def analyse(self, offline_path=None, pretty=False, step_list=None, mode="sync"):
        """The trace is complete when ``stop()`` returns; nothing is left to analyse."""
        if self._tracing:
            self.stop()
        LOG.info("Profiler trace under %s", self.output_path)

    @classmethod
    def offline_analyse(cls, path: str, pretty=False, step_list=None, data_simplification=True):
        LOG.info("Profiler trace under %s (written complete; nothing to analyse)", path)

    def op_analyse(self, op_name, device_id=None):
        raise NotImplementedError("Profiler.op_analyse reads Ascend operator statistics; on "
                                  "XLA, open the trace in TensorBoard's profile plugin.")
