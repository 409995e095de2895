"""Developer and environment flags, read in one place.

- ``MSXLA_EXPLAIN_RECOMPILES=1``: log why a jitted function recompiles
  (``msxla.jit.explain_recompiles`` turns it on or off at run time).
- ``MSXLA_DEBUG_AST=1``: log the converted source of every ast capture.
- ``MS_DEV_JIT_SYNTAX_LEVEL=0|1|2``: MindSpore's override of the graph syntax
  level (0 STRICT, 1 COMPATIBLE, 2 LAX) for every ast capture.
- ``MS_COMPILER_CACHE_ENABLE=1`` / ``MS_COMPILER_CACHE_PATH=DIR``: MindSpore's
  persistent compile cache (``set_context(enable_compile_cache=...,
  compile_cache_path=...)`` sets the same).

Each is read when it is needed, so a test or a notebook may change it.
"""
from __future__ import annotations

import os


def _on(name: str) -> bool:
    return os.environ.get(name, "").strip() not in ("", "0")


def explain_recompiles() -> bool:
    return _on("MSXLA_EXPLAIN_RECOMPILES")


def debug_ast() -> bool:
    return _on("MSXLA_DEBUG_AST")


def jit_syntax_level() -> str | None:
    """``"0"``, ``"1"`` or ``"2"`` when ``MS_DEV_JIT_SYNTAX_LEVEL`` sets one, else None."""
    env = os.environ.get("MS_DEV_JIT_SYNTAX_LEVEL", "").strip()
    return env if env in ("0", "1", "2") else None


def compile_cache_enabled() -> bool:
    return _on("MS_COMPILER_CACHE_ENABLE")


def compile_cache_path() -> str | None:
    return os.environ.get("MS_COMPILER_CACHE_PATH", "").strip() or None
