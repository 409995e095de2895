"""msrun's process manager: start the local workers, watch them, stop them together.

Each local worker is one process running the user's script with ``mindspore``
resolving to msxla (``python -m msxla.launch._worker SCRIPT ARGS``), its
output in ``<log_dir>/worker_<rank>.log``, and MindSpore's environment:

    MS_WORKER_NUM  MS_SCHED_HOST  MS_SCHED_PORT  MS_TOPO_TIMEOUT  MS_ROLE=MS_WORKER
    MS_NODE_ID     RANK_ID        RANK_SIZE      DEVICE_ID (the local index)

There is no scheduler process: rank 0 runs jax's coordination service at
``--master_addr:--master_port``. With ``--join=True`` the launcher shows the
workers' logs and waits; when a worker exits with an error the others are
killed and the launcher exits with status 1 after printing that worker's
last lines. Workers give up joining the job after ``--cluster_time_out``
seconds (the launcher then reports the first one that failed).
"""
from __future__ import annotations

import ipaddress
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections import deque

TAIL_LINES = 20


def _to_ip(addr):
    addr = addr.strip().strip("[]")
    try:
        return str(ipaddress.ip_address(addr))
    except ValueError:
        pass
    try:
        return socket.getaddrinfo(addr, None, socket.AF_UNSPEC, socket.SOCK_STREAM)[0][4][0]
    except (OSError, IndexError) as e:
        raise RuntimeError("DNS resolution has failed. Please verify that the correct hostname "
                           "has been specified in the '--master_address' parameter") from e


def _local_ip(target):
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect((target, 9))
            return s.getsockname()[0]
    except OSError:
        return "127.0.0.1"


class _Worker:
    def __init__(self, local_rank, rank, log_path, process):
        self.local_rank, self.rank, self.log_path, self.process = (local_rank, rank, log_path,
                                                                   process)


class ProcessManager:
    """Starts, watches and stops this machine's workers (MindSpore's ``_ProcessManager``)."""

    def __init__(self, args):
        if args.worker_num <= 0:
            raise ValueError(f"worker_num must be greater than 0, but got {args.worker_num}.")
        if args.local_worker_num > args.worker_num:
            raise ValueError(f"Total worker number is {args.worker_num}, but got exceeded local "
                             f"worker number: {args.local_worker_num}.")
        if args.sim_level != -1 or os.getenv("MS_SIMULATION_LEVEL"):
            raise ValueError("msrun's dry-run simulation (--sim_level, MS_SIMULATION_LEVEL) is "
                             "not supported by msxla: run the job on real processes.")
        if args.local_worker_num < args.worker_num and args.node_rank < 0:
            raise ValueError("The job spans several machines (--local_worker_num "
                             f"{args.local_worker_num} < --worker_num {args.worker_num}): pass "
                             "--node_rank on each machine (0 on the --master_addr machine), "
                             "msxla assigns ranks from it.")
        self.args = args
        self.master_ip = _to_ip(args.master_addr)
        self.log_dir = args.log_dir
        if self.log_dir:
            os.makedirs(self.log_dir, mode=0o750, exist_ok=True)
        self.workers: list[_Worker] = []
        self.tails: list[threading.Thread] = []
        self._stop_tails = threading.Event()

    # ------------------------------------------------------------ start
    def _rank(self, index):
        a = self.args
        if a.local_worker_num == a.worker_num:
            return index
        return a.node_rank * a.local_worker_num + index

    def _log_stem(self):
        name = self.args.worker_log_name
        if not name:
            return "worker"
        name = name.replace("{ip}", _local_ip(self.master_ip))
        return name.replace("{hostname}", socket.gethostname())

    def _command(self):
        cmd, rest = self.args.task_script, list(self.args.task_script_args)
        boot = [sys.executable, "-m", "msxla.launch._worker"]
        if cmd in ("python", "python3"):
            return boot + rest
        if cmd == "pytest":
            return boot + ["-m", "pytest"] + rest
        return boot + [cmd] + rest

    def _env(self, index, rank):
        a = self.args
        env = dict(os.environ)
        env.update({
            "MS_WORKER_NUM": str(a.worker_num), "MS_SCHED_HOST": self.master_ip,
            "MS_SCHED_PORT": str(a.master_port), "MS_TOPO_TIMEOUT": str(a.cluster_time_out),
            "MS_ROLE": "MS_WORKER", "MS_NODE_ID": str(rank), "RANK_ID": str(rank),
            "RANK_SIZE": str(a.worker_num), "DEVICE_ID": str(index), "PYTHONUNBUFFERED": "1"})
        if a.rank_table_file:
            env["RANK_TABLE_FILE"] = a.rank_table_file
        return env

    def _cpus(self, index):
        bind = self.args.bind_core
        if not bind or not hasattr(os, "sched_setaffinity"):
            return None
        available = sorted(os.sched_getaffinity(0))
        if bind is True:
            n = self.args.local_worker_num
            per = max(len(available) // n, 1)
            return set(available[index * per:(index + 1) * per] or available)
        spec = bind.get(f"device{index}")
        if not spec:
            return None
        cpus = set()
        for part in ",".join(spec).replace(" ", "").split(","):
            lo, _, hi = part.partition("-")
            cpus.update(range(int(lo), int(hi or lo) + 1))
        return cpus

    def start(self):
        cmd = self._command()
        stem = self._log_stem()
        for index in range(self.args.local_worker_num):
            rank = self._rank(index)
            log_path = os.path.join(self.log_dir, f"{stem}_{rank}.log")
            print(f"Start worker process with rank id:{rank}, log file:{log_path}. Environment "
                  f"variable [RANK_ID={rank}] is exported. Execute command: {' '.join(cmd)}",
                  flush=True)
            with open(log_path, "w", encoding="utf-8") as log:
                process = subprocess.Popen(cmd, env=self._env(index, rank), stdout=log,
                                           stderr=subprocess.STDOUT, start_new_session=True)
            cpus = self._cpus(index)
            if cpus:
                os.sched_setaffinity(process.pid, cpus)
            self.workers.append(_Worker(index, rank, log_path, process))
        if self.args.join:
            self._start_tails()

    # ------------------------------------------------------------ watch
    def _start_tails(self):
        wanted = self.args.tail_worker_log
        chosen = None if wanted == "-1" else {int(x) for x in wanted.split(",")}
        for w in self.workers:
            if chosen is None or w.local_rank in chosen:
                t = threading.Thread(target=self._tail, args=(w.log_path,), daemon=True)
                t.start()
                self.tails.append(t)

    def _tail(self, path):
        with open(path, encoding="utf-8", errors="replace") as f:
            while True:
                line = f.readline()
                if line:
                    sys.stdout.write(line)
                    sys.stdout.flush()
                elif self._stop_tails.is_set():
                    return
                else:
                    time.sleep(0.1)

    def join(self) -> int:
        """Wait for the workers; 0 when all succeed, 1 after stopping them on a failure."""
        previous = signal.signal(signal.SIGINT, self._on_sigint)
        try:
            failed = None
            while failed is None:
                codes = [w.process.poll() for w in self.workers]
                failed = next((w for w, c in zip(self.workers, codes) if c not in (None, 0)),
                              None)
                if failed is None and all(c == 0 for c in codes):
                    break
                time.sleep(0.2)
            if failed is not None:
                print(f"[ERROR] Worker process {failed.process.pid} (rank {failed.rank}) exit "
                      f"with exception. Error code: {failed.process.returncode}.",
                      file=sys.stderr, flush=True)
                print("[WARNING] There's worker exits with exception, kill all other workers.",
                      file=sys.stderr, flush=True)
                self.kill()
            self._finish_tails()
            if failed is None:
                return 0
            self._report(failed)
            return 1
        finally:
            signal.signal(signal.SIGINT, previous)

    def _finish_tails(self):
        self._stop_tails.set()
        for t in self.tails:
            t.join(timeout=2)

    def _report(self, failed):
        with open(failed.log_path, encoding="utf-8", errors="replace") as f:
            last = deque(f, maxlen=TAIL_LINES)
        print(f"The last lines of {failed.log_path}:", file=sys.stderr)
        for line in last:
            sys.stderr.write("    " + line if line.endswith("\n") else "    " + line + "\n")
        print("Distributed job exited with exception. Please check logs in directory: "
              f"{self.log_dir}.", file=sys.stderr, flush=True)

    def kill(self):
        """Kill every worker still running (each is its own process group)."""
        for w in self.workers:
            if w.process.poll() is None:
                try:
                    os.killpg(w.process.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
        for w in self.workers:
            w.process.wait()

    def _on_sigint(self, signum, frame):
        print("[WARNING] msrun process received SIGINT (Ctrl+C), terminating all workers.",
              file=sys.stderr, flush=True)
        self.kill()
        self._finish_tails()
        sys.exit(1)

