"""Run a script on N workers through msxla's launcher (127.0.0.1 only) and read the
``RESULT {json}`` line each rank prints."""
from __future__ import annotations

import json
import os
import socket
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "scripts")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def launch(script, workers, cwd, *args, timeout=240, flags=(), env=None, worker_num=None):
    """``python -m msxla.launch`` with ``workers`` local workers (of ``worker_num`` in all);
    returns the finished process and ``{rank: result}`` from the logs under ``cwd/logs``."""
    path = script if os.path.isabs(script) else os.path.join(SCRIPTS, script)
    total = workers if worker_num is None else worker_num
    node = [] if total == workers else ["--node_rank=0"]
    cmd = [sys.executable, "-m", "msxla.launch", f"--worker_num={total}",
           f"--local_worker_num={workers}", *node, "--master_addr=127.0.0.1",
           f"--master_port={free_port()}", "--log_dir=logs", "--join=True",
           "--cluster_time_out=120", *flags, path, *args]
    full_env = dict(os.environ, PYTHONPATH=ROOT, **(env or {}))
    full_env.pop("XLA_FLAGS", None)
    proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout,
                          env=full_env)
    results = {}
    logs = os.path.join(str(cwd), "logs")
    for name in sorted(os.listdir(logs)) if os.path.isdir(logs) else ():
        with open(os.path.join(logs, name), encoding="utf-8", errors="replace") as f:
            for line in f:
                if line.startswith("RESULT "):
                    rec = json.loads(line[len("RESULT "):])
                    results[rec["rank"]] = rec
    return proc, results
