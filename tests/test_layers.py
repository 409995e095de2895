"""The layers of msxla hold: import-linter's contracts in pyproject.toml.

``nn > jit > (capture | lower | ge) > ops > autodiff > common``: every
package imports only the ones below it (imports inside functions count too),
capture, lower and ge do not import one another, and there are no import
cycles inside jit, lower, capture and the bytecode front end. A failure
prints the offending import chains.
"""
from __future__ import annotations

import pathlib

from importlinter.cli import lint_imports

ROOT = pathlib.Path(__file__).resolve().parents[1]


def test_import_contracts_hold():
    code = lint_imports(config_filename=str(ROOT / "pyproject.toml"), no_cache=True,
                        no_logo=True)
    assert code == 0, "an import breaks the layers (see the report above)"
