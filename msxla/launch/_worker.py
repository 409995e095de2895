"""A launched worker: join jax's distributed runtime, then run the user's script.

``python -m msxla.launch._worker SCRIPT [args]`` (also ``-m MODULE`` / ``-c
CODE``) is what ``msrun`` starts for each rank. The runtime starts before the
script runs, so a script may create Tensors before it calls
``mindspore.communication.init()`` (jax's distributed runtime must start
before jax uses a device). The script then runs exactly as under
``python -m msxla``.
"""
import sys

from msxla.communication import _world
from msxla.__main__ import main as run_script


def main(argv=None):
    _world.start_runtime()
    run_script(sys.argv[1:] if argv is None else argv)


if __name__ == "__main__":
    main()
