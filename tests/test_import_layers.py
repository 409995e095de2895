"""The layers of msxla hold: import-linter's contracts in pyproject.toml.

``nn > jit > (capture | lower | ge) > ops > autodiff > common``: every
package imports only the ones below it (imports inside functions count too),
capture, lower and ge do not import one another, and there are no import
cycles inside jit, lower, capture and the bytecode front end. A failure
prints the offending import chains. The linter runs in its own process (it
reconfigures logging, which would silence msxla's logger for later tests).
"""
from __future__ import annotations

import os
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
LINT = ("import sys; from importlinter.cli import lint_imports; "
        "sys.exit(lint_imports(config_filename=sys.argv[1], no_cache=True, no_logo=True))")


def test_import_contracts_hold():
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    run = subprocess.run([sys.executable, "-c", LINT, str(ROOT / "pyproject.toml")],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout + run.stderr
