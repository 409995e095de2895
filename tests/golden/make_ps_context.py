"""Write tests/golden/ps_context.json: MindSpore 2.10's parameter-server context.

    cd /tmp && GLOG_v=3 ~/ms-oracle/bin/python /path/to/tests/golden/make_ps_context.py

Defaults of every key ``get_ps_context`` reads, and for each case of
``set_ps_context`` keyword arguments the value read back or the error.
"""
import json
import os

import mindspore as ms

KEYS = ["server_mode", "ms_role", "enable_ps", "worker_num", "server_num", "scheduler_ip",
        "scheduler_port", "enable_ssl", "config_file_path", "client_password", "foo"]
CASES = [{"enable_ps": False}, {"enable_ps": True}, {"config_file_path": "/tmp/x.json"},
         {"worker_num": 2}, {"enable_ssl": True, "client_password": "", "server_password": ""},
         {"foo": 1}]


def read(key):
    try:
        return {"value": ms.get_ps_context(key)}
    except Exception as e:  # noqa: BLE001 - recorded
        return {"error": type(e).__name__, "message": str(e)}


def main():
    out = {"defaults": {k: read(k) for k in KEYS}, "cases": []}
    for kwargs in CASES:
        try:
            ms.set_ps_context(**kwargs)
            got = {k: read(k) for k in kwargs}
        except Exception as e:  # noqa: BLE001 - recorded
            got = {"error": type(e).__name__, "message": str(e)}
        out["cases"].append({"kwargs": kwargs, "result": got})
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "ps_context.json")
    with open(path, "w") as f:
        json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
