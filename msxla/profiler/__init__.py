"""``mindspore.profiler``: ``profile`` / ``Profiler`` on jax's profiler (TensorBoard and
Perfetto traces), ``schedule`` and ``tensorboard_trace_handler``, and MindSpore's
option enumerations (accepted; the Ascend ones have no effect on XLA)."""
import enum

from msxla.profiler.profiler import Profile, Profiler
from msxla.profiler.schedule import ProfilerAction, schedule, tensorboard_trace_handler

profile = Profile


class ProfilerLevel(enum.Enum):
    LevelNone = "LevelNone"
    Level0 = "Level0"
    Level1 = "Level1"
    Level2 = "Level2"


class ProfilerActivity(enum.Enum):
    NPU = "NPU"
    GPU = "GPU"
    CPU = "CPU"


class ExportType(enum.Enum):
    Db = "db"
    Text = "text"


class AicoreMetrics(enum.Enum):
    PipeUtilization = "PipeUtilization"
    ArithmeticUtilization = "ArithmeticUtilization"
    Memory = "Memory"
    MemoryL0 = "MemoryL0"
    MemoryUB = "MemoryUB"
    ResourceConflictRatio = "ResourceConflictRatio"
    L2Cache = "L2Cache"
    MemoryAccess = "MemoryAccess"
    AiCoreNone = "None"


__all__ = ["Profiler", "profile", "schedule", "tensorboard_trace_handler", "ProfilerAction",
           "ProfilerLevel", "ProfilerActivity", "ExportType", "AicoreMetrics"]
