"""``jit`` arguments, backend options and ``JitConfig``: validation and meaning.

Every check reproduces MindSpore 2.10's exception type and message. The
options map onto XLA where a meaning exists:

- ``jit_level``: O0 = each op its own kernel on a GPU (XLA fuses within an
  op, never across ops; on a CPU, as O1), O1 = XLA's full pipeline; O2
  (JitConfig only) = O1 plus XLA's more aggressive options (see
  ``msxla.lower.options``). Unlike MindSpore, O2 does not switch the
  backend to GE.
- ``exec_order``: 'bfs' / 'dfs' is accepted; XLA schedules kernels itself.
- ``disable_format_transform``: accepted; XLA chooses layouts itself.
- ``infer_boost``: accepted ('on' / 'off'); no effect on XLA.
- ``ge_options``: validated here, consumed by ``backend="GE"``.

Options that have no meaning on XLA log a one-time note saying they apply to
Ascend only.
"""
from __future__ import annotations

from msxla._log import LOG, note_once
from msxla.options import BACKENDS, CAPTURE_MODES, JIT_LEVELS, JitOptions

_ASCEND_ONLY = ("exec_order", "infer_boost", "disable_format_transform", "auto_offload")


def _check_choice(name, value, choices):
    if not isinstance(value, str) or value not in choices:
        raise ValueError(f"For 'jit', the '{name}' must be str and must be in "
                         f"'{list(choices)}', but got '{value}'.")


def _check_exec_order(value):
    if not isinstance(value, str):
        raise TypeError(f"For 'jit(options)', the type of 'exec_order' must be str, but got "
                        f"{type(value)}.")
    if value not in ("bfs", "dfs"):
        raise ValueError("For 'exec_order', the value of 'exec_order' must be one of "
                         f"['bfs', 'dfs'], but got '{value}'.")


def _check_bool_option(name, value):
    if not isinstance(value, bool):
        raise TypeError(f"For 'jit(options)', the type of '{name}' must be bool, but got "
                        f"{type(value)}.")


def _check_infer_boost(value):
    if not isinstance(value, str):
        raise TypeError(f"For 'jit(options)', the type of 'infer_boost' must be str, but got "
                        f"{type(value)}.")
    if value not in ("on", "off"):
        raise ValueError("For 'infer_boost', the value of 'infer_boost' must be one of "
                         f"['on', 'off'], but got '{value}'.")


def check_ge_options(value):
    if not isinstance(value, dict):
        raise TypeError(f"For 'jit(options)', the type of 'ge_options' must be dict, but got "
                        f"{type(value)}.")
    for scope, table in value.items():
        if scope not in ("global", "session"):
            raise ValueError("For 'ge_options', the key of 'ge_options' must be one of "
                             f"['global', 'session'], but got '{scope}'.")
        if not isinstance(table, dict):
            raise TypeError(f"For 'ge_options', the type of '{scope}' must be dict, but got "
                            f"{type(table)}.")
        for k, v in table.items():
            if not isinstance(k, str) or not isinstance(v, str):
                bad = k if not isinstance(k, str) else v
                raise TypeError("For 'ge_options', the type of key and value must be str, but "
                                f"got {type(bad)}. The error value is {bad}")


_OPTION_CHECKS = {
    "exec_order": _check_exec_order,
    "disable_format_transform": lambda v: _check_bool_option("disable_format_transform", v),
    "infer_boost": _check_infer_boost,
    "ge_options": check_ge_options,
    "auto_offload": lambda v: None,
}


def _freeze(value):
    if isinstance(value, dict):
        return tuple(sorted((k, _freeze(v)) for k, v in value.items()))
    return value


def make_options(capture_mode="ast", jit_level="O0", dynamic=0, fullgraph=False, backend="",
                 **options) -> JitOptions:
    """Validate ``jit``'s arguments like MindSpore does."""
    _check_choice("capture_mode", capture_mode, CAPTURE_MODES)
    _check_choice("jit_level", jit_level, JIT_LEVELS)
    if not isinstance(dynamic, int) or isinstance(dynamic, bool) or dynamic not in (0, 1):
        raise ValueError(f"For 'jit', the 'dynamic' must be in range of [0, 1], but got "
                         f"{dynamic} with type '{type(dynamic).__name__}'.")
    if not isinstance(fullgraph, bool):
        raise TypeError(f"For 'jit', the 'fullgraph' must be a bool, but got "
                        f"{type(fullgraph).__name__}.")
    if not isinstance(backend, str):
        raise TypeError(f"For 'jit', the 'backend' must be str, but got "
                        f"{type(backend).__name__}.")
    kept = {}
    for key, value in options.items():
        check = _OPTION_CHECKS.get(key)
        if check is None:
            LOG.warning("For 'jit', the option argument '%s' is not recognized and is ignored.",
                        key)
            continue
        check(value)
        if key in _ASCEND_ONLY:
            note_once(f"option:{key}", f"jit option '{key}' only changes execution on Ascend; "
                      "on XLA (CPU/GPU) it is accepted and has no effect.")
        kept[key] = _freeze(value)
    return JitOptions(capture_mode, jit_level, dynamic, fullgraph, backend,
                      tuple(sorted(kept.items())))


def check_backend_at_call(backend: str):
    """Unknown backends fail when the function is first called (as in MindSpore)."""
    if backend not in BACKENDS:
        raise RuntimeError(f"Invalid backend name: {backend}, you should register custom "
                           "backend first")


class JitConfig:
    """Compile settings for a Cell (``Cell.set_jit_config``) or GRAPH_MODE.

    Args:
        jit_level: "O0", "O1" or "O2" ("" lets the framework choose: O0).
        exc_mode: "auto", "sink" or "no_sink" (sink applies on Ascend only).
        jit_syntax_level: "STRICT", "COMPATIBLE", "LAX" or "" (use the context's); only
            STRICT changes what msxla captures (fullgraph), as COMPATIBLE and LAX both
            keep the JIT Fallback.
    """

    def __init__(self, jit_level="", exc_mode="auto", jit_syntax_level="", debug_level="RELEASE",
                 infer_boost="off", **kwargs):
        if jit_level not in ("", "O0", "O1", "O2"):
            raise ValueError("For 'jit_level' must be one of ['O0', 'O1', 'O2'].")
        if exc_mode not in ("auto", "sink", "no_sink"):
            raise ValueError("For 'exc_mode' must be one of '['auto', 'sink', 'no_sink']'.")
        if jit_syntax_level not in ("", "STRICT", "COMPATIBLE", "LAX"):
            raise ValueError("For 'jit_syntax_level' must be one of '['STRICT', 'LAX']'.")
        if debug_level not in ("RELEASE", "DEBUG"):
            raise ValueError("For 'debug_level' must be one of '['RELEASE', 'DEBUG']'.")
        _check_infer_boost(infer_boost)
        backend = kwargs.pop("backend", "ms_backend")
        self.jit_config_dict = {
            "jit_level": jit_level, "exc_mode": exc_mode, "jit_syntax_level": jit_syntax_level,
            "debug_level": debug_level, "infer_boost": infer_boost, "backend": backend,
        }
        self.jit_config_dict.update(kwargs)

    def __repr__(self):
        return f"JitConfig({self.jit_config_dict})"


def context_jit_level() -> str:
    """The jit level set on the context ("" when none): ``jit_config`` first."""
    from msxla.context import CONTEXT
    return CONTEXT.get("jit_config").get("jit_level") or CONTEXT.get("jit_level")


def options_from_config(config: dict, capture_mode="ast") -> JitOptions:
    """JitOptions for a Cell compiled in GRAPH_MODE under ``Cell.set_jit_config``; without
    a level of its own, the context's (``set_context(jit_config={"jit_level": ...})`` or
    ``set_context(jit_level=...)``) applies, then O0."""
    level = config.get("jit_level") or context_jit_level() or "O0"
    backend = config.get("backend", "")
    options = ()
    if "ge_options" in config:
        check_ge_options(config["ge_options"])
        options = (("ge_options", _freeze(config["ge_options"])),)
    return JitOptions(capture_mode=capture_mode, jit_level=level,
                      fullgraph=config.get("jit_syntax_level") == "STRICT",
                      backend="" if backend == "ms_backend" else backend, options=options)
