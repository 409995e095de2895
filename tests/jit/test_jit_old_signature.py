"""``jit``'s MindSpore 2.x arguments keep their meaning: ``mode`` picks the
capture, ``jit_config`` the level and backend, ``input_signature`` declares
dynamic dimensions (one capture for every batch size); ``hash_args`` and
``compile_once`` are accepted (free variables are guarded on every call)."""
import logging

import numpy as np
import pytest

import msxla as ms
from msxla import JitConfig, Tensor


def f(x):
    return x * 2 + 1


def _calls(jitted, sizes=(2, 4, 5)):
    for n in sizes:
        x = np.arange(n * 3, dtype=np.float32).reshape(n, 3)
        np.testing.assert_allclose(jitted(Tensor(x)).asnumpy(), x * 2 + 1)
    return jitted


@pytest.mark.parametrize("mode,capture", [("PSJit", "ast"), ("PIJit", "bytecode")])
def test_mode_picks_the_capture(mode, capture):
    assert _calls(ms.jit(f, mode=mode)).options.capture_mode == capture


def test_an_unknown_mode_is_refused():
    with pytest.raises(ValueError, match="'PSJit' or 'PIJit'"):
        ms.jit(f, mode="Graph")


def test_jit_config_sets_level_and_backend():
    jitted = _calls(ms.jit(f, jit_config=JitConfig(jit_level="O1")))
    assert jitted.options.jit_level == "O1" and jitted.stats.compiles_by_backend == {"XLA": 3}


def test_jit_config_means_what_it_means_on_a_cell():
    # O2 (JitConfig only), GE as the backend, STRICT syntax as fullgraph
    jitted = ms.jit(f, jit_config=JitConfig(jit_level="O2", jit_syntax_level="STRICT",
                                            backend="GE"))
    assert (jitted.options.jit_level, jitted.options.backend, jitted.options.fullgraph) == \
        ("O2", "GE", True)


def test_input_signature_declares_dynamic_dimensions():
    sig = Tensor(shape=[None, 3], dtype=ms.float32)
    assert _calls(ms.jit(f, input_signature=sig)).stats.captures == 1
    assert _calls(ms.jit(f, input_signature=(sig,))).stats.captures == 1
    assert _calls(ms.jit(f)).stats.captures == 3  # without it: one graph per shape


@pytest.mark.parametrize("kw", [dict(hash_args=[1]), dict(compile_once=True)])
def test_hash_args_and_compile_once_are_accepted_without_a_warning(kw, caplog):
    with caplog.at_level(logging.WARNING, logger="msxla"):
        _calls(ms.jit(f, **kw), sizes=(2,))
    assert "not recognized" not in caplog.text
