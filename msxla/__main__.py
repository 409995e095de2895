"""``python -m msxla``: run an unchanged MindSpore script with ``mindspore`` resolving to msxla.

    python -m msxla SCRIPT.py [args ...]
    python -m msxla -m package.module [args ...]
    python -m msxla -c "import mindspore; print(mindspore.ops.add(1, 2))"

The script runs as ``__main__`` with ``sys.argv`` as Python would give it.
Processes it starts resolve ``mindspore`` to msxla as well (``PYTHONPATH``).
"""
import os
import runpy
import sys

USAGE = """usage: python -m msxla SCRIPT.py [args ...]
       python -m msxla -m MODULE [args ...]
       python -m msxla -c COMMAND [args ...]

Runs a MindSpore program unchanged, with 'mindspore' and every 'mindspore.*'
module resolving to msxla."""


def _share_with_children():
    """Processes the script starts import ``mindspore`` as msxla too.

    Subprocesses read ``PYTHONPATH``; multiprocessing's spawned children get
    this process's ``sys.path``.
    """
    from msxla._alias import SHIM_DIR

    if SHIM_DIR not in sys.path:
        sys.path.insert(1, SHIM_DIR)
    parts = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    if SHIM_DIR not in parts:
        os.environ["PYTHONPATH"] = os.pathsep.join([SHIM_DIR] + parts)


def main(argv=None) -> None:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in ("-h", "--help"):
        print(USAGE)
        sys.exit(0 if argv else 2)
    import msxla

    if argv[0] == "--version":
        print(f"msxla {msxla.__version__}")
        return
    msxla.alias_mindspore()
    _share_with_children()
    if argv[0] == "-m":
        if len(argv) < 2:
            sys.exit("python -m msxla -m: a module name is required")
        sys.argv = [argv[1]] + argv[2:]
        sys.path[0] = os.getcwd()  # as 'python -m' does
        runpy.run_module(argv[1], run_name="__main__", alter_sys=True)
    elif argv[0] == "-c":
        if len(argv) < 2:
            sys.exit("python -m msxla -c: a command is required")
        sys.argv = ["-c"] + argv[2:]
        sys.path[0] = ""
        code = compile(argv[1], "<string>", "exec")
        exec(code, {"__name__": "__main__", "__builtins__": __builtins__})
    else:
        script = argv[0]
        if not os.path.exists(script):
            sys.exit(f"python -m msxla: can't open file {os.path.abspath(script)!r}: "
                     "[Errno 2] No such file or directory")
        sys.argv = argv
        sys.path[0] = os.path.dirname(os.path.abspath(script))
        runpy.run_path(script, run_name="__main__")


if __name__ == "__main__":
    main()
