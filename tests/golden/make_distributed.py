"""Write tests/golden/distributed.json: MindSpore 2.10's answers for two ranks on CPU.

Runs ``tests/distributed/scripts/comm_probe.py`` with MindSpore's own ``msrun``
(2 workers on 127.0.0.1) and keeps each rank's ``RESULT`` line, and records
msrun's printed lines for a job whose worker fails:

    PATH=~/ms-oracle/bin:$PATH GLOG_v=3 ~/ms-oracle/bin/python tests/golden/make_distributed.py

MindSpore's CPU backend runs real two-process collectives (AllReduce with SUM,
AllGather, Broadcast), so these are MindSpore's own results; it refuses
AllReduce MAX/MIN/PROD, ReduceScatter, AlltoAll and collective gradients on
CPU, which the tests check against numpy and MindSpore's bprop rules instead.
"""
import json
import os
import re
import shutil
import subprocess
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
PROBE = os.path.join(HERE, "..", "distributed", "scripts", "comm_probe.py")


def msrun(script, port, workdir):
    cmd = ["msrun", "--worker_num=2", "--local_worker_num=2", f"--master_port={port}",
           "--log_dir=logs", "--join=True", "--cluster_time_out=120", script]
    proc = subprocess.run(cmd, cwd=workdir, capture_output=True, text=True, timeout=600)
    logs = {}
    for name in sorted(os.listdir(os.path.join(workdir, "logs"))):
        with open(os.path.join(workdir, "logs", name)) as f:
            logs[name] = f.read()
    return proc, logs


def main():
    work = tempfile.mkdtemp()
    try:
        shutil.copy(PROBE, os.path.join(work, "comm_probe.py"))
        proc, logs = msrun("comm_probe.py", 18231, work)
        ranks = {}
        for name, text in logs.items():
            for line in text.splitlines():
                if line.startswith("RESULT "):
                    rec = json.loads(line[len("RESULT "):])
                    ranks[str(rec["rank"])] = rec
        with open(os.path.join(work, "fail.py"), "w") as f:
            f.write("import os, time\nif os.environ['RANK_ID'] == '1':\n"
                    "    raise SystemExit('rank 1 stops here')\ntime.sleep(60)\n")
        fail, fail_logs = msrun("fail.py", 18232, work)
        start_lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("Start ")]
        doc = {"ranks": ranks, "log_files": sorted(logs),
               "start_lines": start_lines,
               "fail_returncode": fail.returncode,
               "fail_stderr_tail": [re.sub(r"^\[(\w+)\] ME\([^)]*\):[^\]]*\] ", r"[\1] ", ln)
                                    for ln in fail.stderr.splitlines()[-3:]]}
        with open(os.path.join(HERE, "distributed.json"), "w") as f:
            json.dump(doc, f, indent=1, sort_keys=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
