"""The differential check: a program's jitted calls equal its PyNative calls.

``check_program(program)`` runs the program's calls in PyNative (the
reference), then again, from a freshly executed module, under jit in every
capture mode at O0 and O1 (and ``backend="GE"`` where this build has a GE
backend). After each call every output, every Parameter, every plain Tensor
of the program's state (changed in place from inside the function) and the
caller's argument Tensors must equal the reference (tolerance by dtype).
What each mode must do is explicit:

- trace: a call whose PyNative run asked a Tensor for its truth value or its
  Python value (Python control flow on a Tensor, ``float(t)``) must raise ``ConcretizationError`` naming
  a line of the program, leave every Parameter as it was, and leave the
  function usable (its Parameters are then set to the reference's values so
  the later calls stay comparable);
- ast and bytecode: every call returns the reference's values (ast turns the
  condition into graph control flow, bytecode breaks the graph there);
- a call repeated without any change hits the cache (no new capture).
"""
from __future__ import annotations

import contextlib
import dataclasses
import importlib.util
import atexit
import itertools
import os
import shutil
import sys
import tempfile

import numpy as np

import msxla as ms
from msxla.errors import ConcretizationError
from modes import available_modes
from program import Program, apply_changes, call_args

_DIR = tempfile.mkdtemp(prefix="msxla_fuzz_")  # the programs' files, gone at exit
atexit.register(shutil.rmtree, _DIR, True)
_COUNT = itertools.count()
# float64 at float32 precision: float64 programs mix in float32 values (optimizer
# hyper-parameters such as Adam's beta powers) whose rounding XLA's O1 simplifier may move.
TOL = {"float16": (2e-3, 2e-3), "float32": (2e-4, 2e-5), "float64": (1e-6, 1e-9)}


TALLY = {"programs": 0, "checks": 0, "mismatches": 0, "known": 0}


# Known bugs, each with an xfail(strict=True) test under regressions/:
# (mode prefix, what it affects: "all" or "cache", predicate(program, reference), why).
KNOWN: list = []


def known(label, program, ref):
    """{scope: reason} of the known bugs that apply to ``program`` in mode ``label``."""
    return {scope: why for prefix, scope, applies, why in KNOWN
            if label.startswith(prefix) and applies(program, ref)}


class Mismatch(AssertionError):
    """A jitted call differs from PyNative."""


class InvalidProgram(AssertionError):
    """The reference run failed: the generator (or PyNative) is wrong."""


def ge_available() -> bool:
    """Whether ``backend="GE"`` runs through a GE backend in this build."""
    if hasattr(ms, "export"):
        return True
    try:
        import msxla.ge as ge
    except ImportError:
        return False
    return bool(getattr(ge, "JIT_BACKEND", False))


def jit_modes():
    """(label, jit keyword arguments) for every mode the check runs."""
    out = []
    for label in available_modes():
        if label == "pynative":
            continue
        capture_mode, level = label.split("-")
        out.append((label, dict(capture_mode=capture_mode, jit_level=level)))
    if ge_available():
        out.append(("ast-O0-GE", dict(capture_mode="ast", jit_level="O0", backend="GE")))
    return out


# ------------------------------------------------------------------ running
@dataclasses.dataclass
class Outcome:
    value: object
    error: BaseException | None
    state: dict
    before: dict
    concretized: bool = False
    captures: int | None = None
    args: object = None        # the caller's argument Tensors after the call


def source_path(program: Program) -> str:
    path = os.path.join(_DIR, f"prog_{program.digest}.py")
    if not os.path.exists(path):
        with open(path, "w") as f:
            f.write(program.source)
    return path


@contextlib.contextmanager
def loaded(program: Program):
    """A fresh module object executed from the program's file."""
    name = f"fuzzprog_{program.digest}_{next(_COUNT)}"
    spec = importlib.util.spec_from_file_location(name, source_path(program))
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
        yield module
    finally:
        sys.modules.pop(name, None)


@contextlib.contextmanager
def counting_truth_values():
    """Counts ``bool(tensor)``, ``float(tensor)`` and ``int(tensor)`` calls (Python
    control flow on, and Python values of, Tensors)."""
    names = ("__bool__", "__float__", "__int__")
    originals = {name: getattr(ms.Tensor, name) for name in names}
    counter = [0]

    def counting(original):
        def counted(self):
            counter[0] += 1
            return original(self)
        return counted
    for name, original in originals.items():
        setattr(ms.Tensor, name, counting(original))
    try:
        yield counter
    finally:
        for name, original in originals.items():
            setattr(ms.Tensor, name, original)


def to_host(value):
    if isinstance(value, ms.Tensor):
        return HostTensor(str(value.dtype), value.asnumpy().copy())
    if isinstance(value, (tuple, list)):
        return type(value)(to_host(v) for v in value)
    if isinstance(value, dict):
        return {k: to_host(v) for k, v in value.items()}
    return value


@dataclasses.dataclass
class HostTensor:
    dtype: str
    array: np.ndarray


def snapshot(module):
    return {name: p.asnumpy().copy() for name, p in module.state().items()}


def run(program: Program, wrap, reference=None):
    """The outcomes of the program's calls with ``wrap`` as its jit."""
    outcomes = []
    with loaded(program) as module:
        entry = module.make_entry(wrap)
        stats = getattr(entry, "stats", None)
        for i, call in enumerate(program.calls):
            apply_changes(module, program, call)
            args = call_args(program, call)
            before = snapshot(module)
            guard = counting_truth_values() if reference is None else contextlib.nullcontext([0])
            with guard as counter:
                try:
                    value, error = to_host(entry(*args)), None
                except Exception as err:  # compared with the reference below
                    value, error = None, err
            outcomes.append(Outcome(value, error, snapshot(module), before, counter[0] > 0,
                                    None if stats is None else stats.captures,
                                    to_host(args[:2] + args[3:])))
            if error is not None and reference is not None:
                for name, array in reference[i].state.items():  # resynchronise the state
                    target = module.state()[name]
                    if isinstance(target, ms.Parameter):
                        target.set_data(ms.Tensor(array))
                    else:
                        target.assign_value(ms.Tensor(array))
    return outcomes


# -------------------------------------------------------------- comparison
def differences(ref, got, where="out", tol=None):
    """Human-readable differences between two host values (empty when equal)."""
    if isinstance(ref, HostTensor):
        if not isinstance(got, HostTensor):
            return [f"{where}: expected a Tensor, got {type(got).__name__} {got!r}"]
        if ref.dtype != got.dtype or ref.array.shape != got.array.shape:
            return [f"{where}: expected {ref.dtype}{list(ref.array.shape)}, "
                    f"got {got.dtype}{list(got.array.shape)}"]
        return _array_differences(ref.array, got.array, where, tol)
    if isinstance(ref, (tuple, list)):
        if type(got) is not type(ref) or len(got) != len(ref):
            return [f"{where}: expected {type(ref).__name__} of {len(ref)}, got {got!r}"]
        return [d for i, (r, g) in enumerate(zip(ref, got))
                for d in differences(r, g, f"{where}[{i}]", tol)]
    if isinstance(ref, dict):
        if not isinstance(got, dict) or list(got) != list(ref):
            return [f"{where}: expected dict with keys {list(ref)}, got {got!r}"]
        return [d for k in ref for d in differences(ref[k], got[k], f"{where}[{k!r}]", tol)]
    if type(got) is not type(ref) or got != ref:
        return [f"{where}: expected {ref!r}, got {got!r}"]
    return []


def _array_differences(ref, got, where, tol=None):
    rtol, atol = tol or TOL.get(np.asarray(ref).dtype.name, (0, 0))
    try:
        np.testing.assert_allclose(got, ref, rtol=rtol, atol=atol, equal_nan=True)
    except AssertionError as err:
        lines = [ln for ln in str(err).splitlines() if ln.strip()][1:]
        return [f"{where}: values differ: " + " | ".join(lines)[:600]]
    return []


def state_differences(ref: dict, got: dict, where, tol=None):
    if list(ref) != list(got):
        return [f"{where}: Parameters {list(got)} != {list(ref)}"]
    return [d for k in ref for d in _array_differences(ref[k], got[k], f"{where} {k}", tol)]


def program_tolerance(program: Program):
    """An optimizer's update goes through float32 scalars (Adam's ``1 - beta2_power``
    cancels, and XLA's O1 may contract it into a fused multiply-add where PyNative
    rounds twice), and every later output depends on the updated Parameters: a
    program with an optimizer is compared at float32's tolerance."""
    return TOL["float32"] if "opt(grads" in program.source else None


def check_mode(program: Program, label, ref, got, check_cache=True):
    """The mismatches of one mode's outcomes against the reference."""
    problems, path = [], source_path(program)
    tol = program_tolerance(program)
    for i, (r, g) in enumerate(zip(ref, got)):
        at = f"[{label}] call {i}"
        if label.startswith("trace") and r.concretized:
            if not isinstance(g.error, ConcretizationError):
                problems.append(f"{at}: expected ConcretizationError (Tensor control flow under "
                                f"trace), got {g.error!r}" if g.error else
                                f"{at}: expected ConcretizationError, got a value")
            elif os.path.basename(path) not in str(g.error):
                problems.append(f"{at}: the error does not name the program's line: {g.error}")
            problems += state_differences(g.before, g.state, f"{at} after the error:")
            continue
        if g.error is not None:
            problems.append(f"{at}: raised {type(g.error).__name__}: {g.error}")
            continue
        problems += differences(r.value, g.value, f"{at} out", tol)
        problems += state_differences(r.state, g.state, f"{at} Parameter", tol)
        problems += differences(r.args, g.args, f"{at} caller's argument", tol)
        if (check_cache and i and program.calls[i] == program.calls[i - 1]
                and g.captures is not None
                and got[i - 1].error is None and g.captures != got[i - 1].captures):
            problems.append(f"{at}: an unchanged repeated call captured again")
    return problems


def check_program(program: Program, modes=None):
    """Runs the differential check; returns the number of modes compared."""
    ref = run(program, lambda f: f)
    for i, r in enumerate(ref):
        if r.error is not None:
            raise InvalidProgram(f"PyNative call {i} raised {type(r.error).__name__}: "
                                 f"{r.error}\n{program}") from r.error
    problems, compared = [], 0
    for label, kwargs in jit_modes() if modes is None else modes:
        bugs = known(label, program, ref)
        if "all" in bugs:
            TALLY["known"] += 1
            continue
        got = run(program, lambda f, kw=kwargs: ms.jit(f, **kw), ref)
        problems += check_mode(program, label, ref, got, check_cache="cache" not in bugs)
        compared += 1
    TALLY["programs"] += 1
    TALLY["checks"] += compared
    if problems:
        TALLY["mismatches"] += 1
        raise Mismatch("\n".join(problems[:20]) + f"\n{program}")
    return compared
