"""Saving a failing generated program as a regression test.

When the differential check fails, hypothesis shrinks the program and runs the
smallest failing one last; ``save(program, error)`` writes each failing
program it is given to ``regressions/test_new_failure.py`` (so the file ends
up holding the shrunk one). Rename it to say what it catches, fill in the
reason, and commit it: it runs ``check_program`` on the saved source and
calls, in every mode, like the tests already in ``regressions/``.
"""
from __future__ import annotations

import os

REGRESSIONS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "regressions")
NEW_FAILURE = os.path.join(REGRESSIONS, "test_new_failure.py")

TEMPLATE = '''"""Regression found by the differential check: {title}

{details}
"""
{imports}from differential import check_program
from program import Call, Program

SOURCE = {source}

PROGRAM = Program(SOURCE, calls=(
{calls}
), dtype={dtype!r}, container={container!r})


{marker}def test_{name}():
    check_program(PROGRAM)
'''


def _quote(source: str) -> str:
    if "'''" not in source and not source.endswith("'"):
        return "'''\\\n" + source + "'''"
    return repr(source)


def render(program, name="new_failure", title="(describe the bug)", details="",
           xfail_reason=None) -> str:
    details = "\n".join(line.rstrip() for line in details.splitlines()[:40])
    calls = "\n".join(f"    {call!r}," for call in program.calls)
    marker = imports = ""
    if xfail_reason:
        imports = "import pytest\n\n"
        marker = f"@pytest.mark.xfail(strict=True, reason={xfail_reason!r})\n"
    return TEMPLATE.format(title=title, details=details, imports=imports,
                           source=_quote(program.source), calls=calls, dtype=program.dtype,
                           container=program.container, marker=marker, name=name)


def save(program, error) -> str:
    """Write ``program`` as ``regressions/test_new_failure.py``; returns the path."""
    text = render(program, details=str(error).split("\n--- program", 1)[0])
    with open(NEW_FAILURE, "w") as f:
        f.write(text)
    return NEW_FAILURE
