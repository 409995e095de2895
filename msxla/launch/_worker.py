"""A launched worker: join jax's distributed runtime, then run the user's script.

``python -m msxla.launch._worker SCRIPT [args]`` (also ``-m MODULE`` / ``-c
CODE``) is what ``msrun`` starts for each rank. The runtime starts before the
script runs, so a script may create Tensors before it calls
``mindspore.communication.init()`` (jax's distributed runtime must start
before jax uses a device). The script then runs exactly as under
``python -m msxla``.

A script that fails exits at once with its status: jax's orderly shutdown
would wait at a barrier for the other ranks, which are still working (the
launcher stops them).
"""
import os
import sys
import traceback

from msxla.__main__ import main as run_script
from msxla.communication import _world


def _exit_now(code):
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


def main(argv=None):
    _world.start_runtime()
    try:
        run_script(sys.argv[1:] if argv is None else argv)
    except SystemExit as stop:
        if stop.code in (None, 0):
            raise
        if not isinstance(stop.code, int):
            print(stop.code, file=sys.stderr)
        _exit_now(stop.code if isinstance(stop.code, int) else 1)
    except BaseException:  # noqa: BLE001 - reported like Python does, then exit at once
        traceback.print_exc()
        _exit_now(1)


if __name__ == "__main__":
    main()
