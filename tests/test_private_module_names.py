"""Names MindSpore 2.10 scripts and tests reach that are not in its API docs:
``mindspore.version.__version__``, ``mindspore.run_check()``, the context module
kept as ``mindspore.train.serialization.context`` / ``mindspore.dataset.context``,
and ``mindspore.parallel.merge_pipeline_strategys``."""
import json
import os
import subprocess
import sys

import pytest

import msxla as ms
from msxla import context
from msxla.parallel import merge_pipeline_strategys


def test_version_module_holds_the_version():
    import msxla.version
    assert msxla.version.__version__ == ms.__version__
    assert isinstance(ms.__version__, str) and ms.__version__.count(".") == 2


def test_run_check_prints_mindspore_lines(capsys):
    ms.run_check()
    out = capsys.readouterr().out.splitlines()
    assert out == [f"MindSpore version:  {ms.__version__}",
                   "The result of multiplication calculation is correct, MindSpore has been "
                   f"installed on platform [{ms.get_context('device_target')}] successfully!"]


def test_run_check_reports_a_failure(capsys, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("no device")

    monkeypatch.setattr(ms.ops.Mul, "__call__", broken)
    ms.run_check()
    out = capsys.readouterr().out.splitlines()
    assert out[1:] == ["MindSpore running check failed.", "no device"]


def test_context_module_aliases():
    import msxla.dataset
    import msxla.train.serialization
    assert msxla.train.serialization.context is context
    assert msxla.dataset.context is context


def test_mindspore_paths_resolve():
    code = ("import msxla; msxla.alias_mindspore(quiet=True)\n"
            "import mindspore, mindspore.context\n"
            "from mindspore.version import __version__\n"
            "from mindspore.train.serialization import context as c1\n"
            "from mindspore.dataset import context as c2\n"
            "assert __version__ == mindspore.__version__\n"
            "assert c1 is c2 is mindspore.context\n"
            "assert mindspore.merge_pipeline_strategys is "
            "mindspore.parallel.merge_pipeline_strategys\n")
    subprocess.run([sys.executable, "-c", code], check=True)


def _stage(path, items):
    with open(path, "w", encoding="utf-8") as f:
        json.dump({"current_stage": 0, "parallel_layout_item": items}, f)


def test_merge_pipeline_strategys_joins_every_stage(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    layout = {"dev_matrix": [2], "tensor_map": [0, -1], "field": 0,
              "opt_weight_shard_size": 0, "opt_weight_shard_step": 0}
    _stage(src / "stra0.json", {"stage0.w": layout})
    _stage(src / "stra1.json", {"stage1.w": dict(layout, tensor_map=[-1, 0])})
    (src / "notes.txt").write_text("not a strategy")
    dst = tmp_path / "out" / "merged.json"
    merge_pipeline_strategys(str(src), str(dst))
    with open(dst, encoding="utf-8") as f:
        merged = json.load(f)["parallel_layout_item"]
    assert sorted(merged) == ["stage0.w", "stage1.w"]
    assert merged["stage1.w"]["tensor_map"] == [-1, 0]
    # the merged file is a strategy file the other checkpoint tools read
    strategy = ms.parallel.build_searched_strategy(str(dst))
    assert sorted(strategy) == ["stage0.w", "stage1.w"]


def test_merge_pipeline_strategys_needs_a_directory(tmp_path):
    with pytest.raises(NotADirectoryError, match="is not a directory"):
        merge_pipeline_strategys(str(tmp_path / "missing"), str(tmp_path / "m.json"))
    with pytest.raises(ValueError, match="no JSON strategy file"):
        merge_pipeline_strategys(str(tmp_path), str(tmp_path / "m.json"))
    assert not os.path.exists(tmp_path / "m.json")
