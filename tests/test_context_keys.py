"""Every key MindSpore 2.10's ``set_context`` accepts, against ``golden/context_keys.json``
(``make_context_keys.py`` lists the keys from MindSpore itself): each is accepted with
MindSpore's default, reads back what MindSpore reads back, and refuses bad values with
MindSpore's exception type. Each check runs on a fresh ``Context`` so the process-wide
one is left alone."""
import builtins
import json
import os

import pytest

from msxla.context import Context

with open(os.path.join(os.path.dirname(__file__), "golden", "context_keys.json")) as f:
    KEYS = json.load(f)["keys"]

# Defaults that depend on the machine (MindSpore: the number of cores).
MACHINE = {"runtime_num_threads"}


@pytest.mark.parametrize("rec", KEYS, ids=[r["key"] for r in KEYS])
def test_key_as_mindspore_has_it(rec):
    key, ctx = rec["key"], Context()
    if "default" in rec:
        if key not in MACHINE:
            assert ctx.get(key) == rec["default"], key
    else:
        with pytest.raises(getattr(builtins, rec["default_error"])):
            ctx.get(key)
    if "sample" in rec:
        if rec["set"] == "ok":
            ctx.set(**{key: rec["sample"]})
            if "read_back" in rec and key != "save_graphs_path":
                assert ctx.get(key) == rec["read_back"], key
        elif rec["set"] is not None:
            with pytest.raises(getattr(builtins, rec["set"])):
                ctx.set(**{key: rec["sample"]})
    if "bad" in rec and rec["bad_error"] is not None:
        with pytest.raises(getattr(builtins, rec["bad_error"])):
            Context().set(**{key: rec["bad"]})


def test_save_graphs_path_reads_back_absolute(tmp_path):
    ctx = Context()
    ctx.set(save_graphs_path=str(tmp_path / "graphs" / ".."))
    assert ctx.get("save_graphs_path") == str(tmp_path)


def test_context_jit_level_is_the_default_of_graph_mode_cells():
    import msxla as ms
    from msxla.jit.config import options_from_config
    try:
        ms.set_context(jit_level="O1")
        assert options_from_config({}).jit_level == "O1"
        ms.set_context(jit_config={"jit_level": "O0"})
        assert options_from_config({}).jit_level == "O0"  # jit_config wins
        assert options_from_config({"jit_level": "O1"}).jit_level == "O1"  # the Cell's wins
    finally:
        ms.set_context(jit_level="", jit_config={})
    assert options_from_config({}).jit_level == "O0"
