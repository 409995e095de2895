"""``mindspore._extends.parse.compile_config``: switches of MindSpore's graph compiler.

MindSpore reads each switch from this module (``compile_config.NAME = 1``), its default
from the environment variable ``MS_DEV_NAME`` (unset: ``''``). They tune MindSpore's own
compiler passes (lifting, loop unrolling, inlining, evaluation order) and checks.
msxla captures graphs its own way, so no switch changes what it does: a switch set here
is kept and read back, and a program's results are the same with any setting.
"""
from __future__ import annotations

import os


def __getattr__(name):
    if name.isupper():
        return os.environ.get(f"MS_DEV_{name}", "")
    raise AttributeError(f"module 'mindspore._extends.parse.compile_config' has no "
                         f"attribute '{name}'")
