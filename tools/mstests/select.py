"""Which of MindSpore's test files run, and which tests inside them.

MindSpore marks every system test with its platforms and level:
``@arg_mark(plat_marks=['cpu_linux'], level_mark='level0', card_mark='onecard',
...)`` becomes the pytest marks ``cpu_linux``, ``level0``, ``onecard``; older
files use ``@pytest.mark.platform_x86_cpu``. A file is selected when it lies
in one of the areas and names a CPU mark; inside it, pytest's ``-m``
expression (``mark_expression``) keeps the tests marked for CPU at the chosen
levels on one card.
"""
from __future__ import annotations

import fnmatch
import os
import re

# area name -> directory under the checkout (MindSpore's own layout)
AREAS = {
    "compiler": "tests/st/compiler",
    "pi_jit": "tests/st/pi_jit",
    "pynative": "tests/st/pynative",
    "nn": "tests/st/nn",
    "ops": "tests/st/ops",
    "tensor": "tests/st/tensor",
}
CPU_MARKS = ("cpu_linux", "platform_x86_cpu", "platform_arm_cpu")
LEVELS = ("level0", "level1", "level2", "level3", "level4")
DEFAULT_LEVELS = ("level0", "level1")
MULTI_CARD = ("allcards", "dryrun", "dryrun_only", "env_cluster")
_CPU_TEXT = re.compile("|".join(CPU_MARKS))


def area_of(path: str) -> str | None:
    """The area of a checkout-relative test path (``tests/st/ops/cpu/x.py`` -> ``ops``)."""
    for name, root in AREAS.items():
        if path == root or path.startswith(root + "/"):
            return name
    return None


def subarea_of(path: str) -> str:
    """``tests/st/compiler/fallback/test_x.py`` -> ``compiler/fallback``; a file directly
    in an area's directory -> the area."""
    area = area_of(path)
    rest = path[len(AREAS[area]) + 1:] if area else path
    head = rest.split("/", 1)
    return f"{area}/{head[0]}" if len(head) == 2 else str(area)


def mark_expression(levels=DEFAULT_LEVELS) -> str:
    """The ``pytest -m`` expression: a CPU mark, one of ``levels``, not multi-card.

    Old-style files (``platform_x86_cpu``) carry no level mark; they are kept
    whatever the levels."""
    cpu = " or ".join(CPU_MARKS)
    unlevelled = " and ".join(f"not {lv}" for lv in LEVELS)
    level = " or ".join(levels)
    multi = " or ".join(MULTI_CARD)
    return f"({cpu}) and (({level}) or ({unlevelled})) and not ({multi})"


def select_files(checkout: str, areas=None, patterns=None, every=1) -> list[str]:
    """Checkout-relative paths of the test files to run, sorted.

    ``areas``: names from ``AREAS`` (all when None). ``patterns``: shell-style
    patterns matched against the relative path (``*fallback*``,
    ``tests/st/ops/cpu/test_a*.py``); a file must match one of them.
    ``every``: keep the 1st, (K+1)-th, (2K+1)-th... file of each area (in sorted
    order), a fixed sample of a large area.
    """
    if every < 1:
        raise SystemExit(f"--every must be at least 1, not {every}")
    if not os.path.isdir(os.path.join(checkout, "tests", "st")):
        raise SystemExit(f"{checkout} is not a checkout of MindSpore's repository "
                         "(it has no tests/st/)")
    chosen = []
    for name in areas or AREAS:
        if name not in AREAS:
            raise SystemExit(f"unknown area {name!r}; areas: {', '.join(AREAS)}")
        root = os.path.join(checkout, AREAS[name])
        in_area = []
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames.sort()
            for fname in sorted(filenames):
                if not (fname.startswith("test_") and fname.endswith(".py")):
                    continue
                full = os.path.join(dirpath, fname)
                rel = os.path.relpath(full, checkout).replace(os.sep, "/")
                if patterns and not any(fnmatch.fnmatch(rel, p) for p in patterns):
                    continue
                if has_cpu_mark(full):
                    in_area.append(rel)
        chosen += sorted(in_area)[::every]
    return sorted(chosen)


def has_cpu_mark(path: str) -> bool:
    with open(path, encoding="utf-8", errors="replace") as f:
        return _CPU_TEXT.search(f.read()) is not None
