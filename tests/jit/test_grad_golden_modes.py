"""Every MindSpore grad-API golden case, with the differentiated function jitted
in each capture mode x O0/O1: grads through jit must equal MindSpore's (and
hence PyNative's) results in structure, dtype and value."""
import builtins
import os
import sys

import pytest

import msxla as ms
from modes import GRAPH_MODES, JIT_MODES, make, sampled

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "autodiff"))
import test_grad_golden as golden  # noqa: E402
from grad_cases import cases  # noqa: E402


class _JitOps:
    """``ms.ops`` with GradOperation differentiating a jitted function."""

    def __init__(self, mode):
        self._mode = mode

    def __getattr__(self, name):
        return getattr(ms.ops, name)

    def GradOperation(self, *args, **kwargs):  # noqa: N802 - MindSpore's name
        real = ms.ops.GradOperation(*args, **kwargs)
        mode = self._mode

        def apply(fn, *more):
            return real(make(fn, mode), *more)
        return apply


class JitMS:
    """The msxla module, except that every function handed to a grad API is jitted."""

    def __init__(self, mode):
        self._mode = mode
        self.ops = _JitOps(mode)

    def __getattr__(self, name):
        return getattr(ms, name)

    def _wrap(self, api):
        def call(fn, *args, **kwargs):
            return api(make(fn, self._mode), *args, **kwargs)
        return call

    def __getattribute__(self, name):
        if name in ("grad", "value_and_grad", "vjp", "jvp", "jacfwd", "jacrev"):
            return object.__getattribute__(self, "_wrap")(getattr(ms, name))
        return object.__getattribute__(self, name)


RESULT_CASES = sorted(n for n in golden._G["cases"] if "exc" not in golden._G["cases"][n])
ERROR_CASES = sorted(n for n in golden._G["cases"] if "exc" in golden._G["cases"][n])
_BY_MODE = {}


def mode_cases(mode):
    if mode not in _BY_MODE:
        _BY_MODE[mode] = cases(JitMS(mode), golden.DATA)
    return _BY_MODE[mode]


# a third of the (case, mode) pairs in the default run, every case in two modes;
# all of them under -m slow
@pytest.mark.parametrize("name, mode", sampled(RESULT_CASES, JIT_MODES))
def test_grad_api_through_jit_matches_mindspore(mode, name):
    golden._compare(mode_cases(mode)[name](), golden._G["cases"][name], f"{mode}:{name}")


@pytest.mark.parametrize("mode", JIT_MODES)
@pytest.mark.parametrize("name", ERROR_CASES)
def test_grad_api_errors_through_jit(mode, name):
    with pytest.raises(getattr(builtins, golden._G["cases"][name]["exc"])):
        mode_cases(mode)[name]()


INT_CASES = [n for n in RESULT_CASES if n.startswith("int_grad")]


@pytest.mark.parametrize("mode", GRAPH_MODES)
@pytest.mark.parametrize("name", INT_CASES)
def test_integer_grads_of_a_cell_in_graph_mode(mode, name):
    # integer inputs and Parameters differentiated through a Cell compiled in GRAPH_MODE
    golden._compare(mode_cases(mode)[name](), golden._G["cases"][name], f"{mode}:{name}")
