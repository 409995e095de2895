"""``msrun`` / ``python -m msxla.launch``: start a distributed MindSpore job on msxla.

    msrun --worker_num=4 --local_worker_num=4 --master_port=8118 --log_dir=logs \
          --join=True train.py --epochs 3

takes MindSpore 2.10's ``msrun`` flags (``_args``) and starts one process per
local worker (``_manager``), each running the script with ``mindspore``
resolving to msxla and joined to the others through jax's distributed
runtime (``_worker``).
"""
from __future__ import annotations

import sys

from msxla.launch._args import get_args, parser  # noqa: F401
from msxla.launch._manager import ProcessManager


def run(args) -> int:
    """Start the workers; with ``args.join`` wait for them and return the job's status."""
    manager = ProcessManager(args)
    manager.start()
    if not args.join:
        return 0
    print("[WARNING] Distributed job is spawned. Waiting all processes to exit...", flush=True)
    return manager.join()


def main(argv=None) -> None:
    """The ``msrun`` console script."""
    args = get_args(argv)
    try:
        code = run(args)
    except ValueError as err:
        print(f"msrun: error: {err}", file=sys.stderr)
        code = 2
    sys.exit(code)
