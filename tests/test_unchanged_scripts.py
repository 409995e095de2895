"""Unchanged MindSpore programs run through ``python -m msxla`` print what MindSpore 2.10 prints.

The programs are in ``tests/scripts`` (how each is run: ``runs.py``); what
MindSpore printed for each is ``tests/golden/scripts.json``. Numbers are
compared to float32 precision, everything else word for word.
"""
import json
import os
import re
import subprocess
import sys

import pytest

from helpers import ROOT, run_msxla

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPTS = os.path.join(HERE, "scripts")
GOLDEN = json.load(open(os.path.join(HERE, "golden", "scripts.json")))
NUMBER = re.compile(r"-?\d+\.\d+(?:e[-+]?\d+)?|-?\d+")


def _same_output(got: str, want: str):
    got_lines, want_lines = got.splitlines(), want.splitlines()
    assert len(got_lines) == len(want_lines), f"\n--- msxla\n{got}\n--- MindSpore\n{want}"
    for g, w in zip(got_lines, want_lines):
        assert NUMBER.sub("#", g) == NUMBER.sub("#", w), f"msxla: {g!r}\nMindSpore: {w!r}"
        for a, b in zip(NUMBER.findall(g), NUMBER.findall(w)):
            assert float(a) == pytest.approx(float(b), rel=2e-5, abs=2e-6), (g, w)


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_script_prints_what_mindspore_prints(name):
    run = GOLDEN[name]
    proc = run_msxla(run["argv"], cwd=SCRIPTS)
    assert proc.returncode == 0, proc.stderr[-4000:]
    _same_output(proc.stdout, run["stdout"])


def test_error_in_script_names_the_users_line(tmp_path):
    script = tmp_path / "broken.py"
    script.write_text("import mindspore\nfrom mindspore import ops\n\nx = ops.ones((2, 3))\n"
                      "y = ops.matmul(x, x)\n")
    proc = run_msxla([str(script)], cwd=str(tmp_path))
    assert proc.returncode == 1
    assert f'File "{script}", line 5' in proc.stderr
    assert "Traceback" in proc.stderr


def test_exit_status_and_argv(tmp_path):
    script = tmp_path / "status.py"
    script.write_text("import sys, mindspore\nprint(sys.argv)\nsys.exit(3)\n")
    proc = run_msxla([str(script), "a", "--b=1"], cwd=str(tmp_path))
    assert proc.returncode == 3
    assert proc.stdout.strip() == repr([str(script), "a", "--b=1"])


def test_missing_script_and_usage():
    proc = run_msxla(["no_such_file.py"], cwd=SCRIPTS)
    assert proc.returncode != 0 and "no_such_file.py" in proc.stderr
    proc = run_msxla([])
    assert proc.returncode == 2 and "python -m msxla SCRIPT.py" in proc.stdout


def test_child_processes_resolve_mindspore_to_msxla(tmp_path):
    script = tmp_path / "spawn.py"
    script.write_text(
        "import multiprocessing as mp, subprocess, sys\n"
        "import mindspore\n"
        "def child(q):\n"
        "    import mindspore, mindspore.nn\n"
        "    q.put(mindspore.nn.__name__)\n"
        "if __name__ == '__main__':\n"
        "    out = subprocess.run([sys.executable, '-c', 'import mindspore.ops as o; "
        "print(o.__name__)'], capture_output=True, text=True, check=True).stdout.strip()\n"
        "    ctx = mp.get_context('spawn')\n"
        "    q = ctx.Queue(); p = ctx.Process(target=child, args=(q,)); p.start()\n"
        "    got = q.get(timeout=120); p.join(timeout=120)\n"
        "    print(mindspore.__name__, out, got, p.exitcode)\n")
    proc = run_msxla([str(script)], cwd=str(tmp_path))
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout.split() == ["msxla", "msxla.ops", "msxla.nn", "0"]


def test_a_real_mindspore_is_not_hidden_silently(tmp_path):
    fake = tmp_path / "site" / "mindspore"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text("REAL = True\n")
    env = dict(os.environ, PYTHONPATH=str(tmp_path / "site"))
    script = tmp_path / "which.py"
    script.write_text("import mindspore\nprint(hasattr(mindspore, 'REAL'), mindspore.__name__)\n")
    proc = run_msxla([str(script)], cwd=str(tmp_path), env=env)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["False", "msxla"]
    assert "is not used" in proc.stderr and str(fake) in proc.stderr
    # in-process: once the real one is imported, the alias refuses with what to do
    code = ("import mindspore, msxla\n"
            "try:\n    msxla.alias_mindspore()\nexcept ImportError as e:\n    print('refused', e)\n")
    proc = subprocess.run([sys.executable, "-c", code], env=dict(
        env, PYTHONPATH=os.pathsep.join([str(tmp_path / "site"), ROOT])), capture_output=True,
        text=True, timeout=300)
    assert "refused" in proc.stdout and "before the first 'import mindspore'" in proc.stdout
