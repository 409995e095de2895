"""msrun's command line: the same flags, defaults and checks as MindSpore 2.10's ``msrun``."""
from __future__ import annotations

import ast
import json
import re
from argparse import REMAINDER, ArgumentParser, ArgumentTypeError

_CPUS = re.compile(r"^(\d+-\d+|\d+(?:,\d+)*)$")


def parse_bind_core(value):
    """``--bind_core``: ``True`` / ``False`` or ``{"device0": ["0-3"], ...}`` (JSON)."""
    if isinstance(value, str):
        if value.lower() == "true":
            return True
        if value.lower() == "false":
            return False
        try:
            value = json.loads(value)
        except json.JSONDecodeError as e:
            raise ArgumentTypeError("Failed to parse JSON into a dictionary") from e
    if not isinstance(value, dict):
        raise ArgumentTypeError(f"Type of {value} should be bool or dict, but got {type(value)}.")
    for device, cpus in value.items():
        if not re.fullmatch(r"device\d+|scheduler", device):
            raise ArgumentTypeError(f"Key {device} must be in format 'scheduler' or 'deviceX'.")
        if not isinstance(cpus, list):
            raise ArgumentTypeError(f"Type of value for {device}:{cpus} should be a list, but "
                                    f"got {type(cpus)}.")
        for item in cpus:
            if not isinstance(item, str) or not _CPUS.match(re.sub(r"\s+", "", item)):
                raise ArgumentTypeError(f"CPU {item} in {cpus} should be in format 'cpuidX', "
                                        "'cpuidX,cpuidY' or 'cpuidX-cpuidY'.")
    return value


def parser() -> ArgumentParser:
    p = ArgumentParser(prog="msrun", description="Start a distributed MindSpore job on msxla: "
                       "one process per local worker.")
    p.add_argument("--worker_num", type=int, default=8,
                   help="the total number of workers (processes) in the job, on all machines")
    p.add_argument("--local_worker_num", type=int, default=8,
                   help="the number of workers to start on this machine")
    p.add_argument("--master_addr", default="127.0.0.1", type=str,
                   help="the address of the machine that runs rank 0 (jax's coordinator)")
    p.add_argument("--master_port", default=8118, type=int,
                   help="the coordinator's port on --master_addr")
    p.add_argument("--node_rank", default=-1, type=int,
                   help="this machine's index; its workers get ranks "
                        "node_rank*local_worker_num + i (needed when the job spans machines)")
    p.add_argument("--log_dir", default="", type=str,
                   help="where the workers' logs worker_<rank>.log are written")
    p.add_argument("--join", default=False, type=ast.literal_eval, choices=[True, False],
                   help="wait for the workers, show their logs and report failures")
    p.add_argument("--cluster_time_out", default=600, type=int,
                   help="seconds the workers wait for each other to join the job "
                        "(negative: forever)")
    p.add_argument("--bind_core", default=False, type=parse_bind_core,
                   help="bind each worker to CPU cores (True: split evenly; or a JSON dict "
                        "{\"device0\": [\"0-3\"], ...})")
    p.add_argument("--bind_numa", default=False, type=str, help="accepted; no effect on msxla")
    p.add_argument("--sim_level", default=-1, type=int, choices=[-1, 0, 1, 2, 3],
                   help="dry-run simulation (not supported on msxla)")
    p.add_argument("--sim_rank_id", default=-1, type=int, help="dry-run rank (not supported)")
    p.add_argument("--rank_table_file", default="", type=str,
                   help="exported as RANK_TABLE_FILE; not used to build the job")
    p.add_argument("--worker_log_name", default="", type=str,
                   help="the log file name stem for this machine (default worker); {ip} and "
                        "{hostname} are replaced")
    p.add_argument("--tail_worker_log", default="-1", type=str,
                   help="with --join=True, which local workers' logs to show (-1: all)")
    p.add_argument("task_script", type=str,
                   help="the script to run (or python / python3 / pytest followed by its "
                        "arguments)")
    p.add_argument("task_script_args", nargs=REMAINDER, help="the script's arguments")
    return p


def get_args(argv=None):
    """Parse msrun's command line (``sys.argv[1:]`` by default)."""
    return parser().parse_args(argv)
