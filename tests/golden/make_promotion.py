"""Golden type promotion of MindSpore 2.10: writes ``promotion.json`` next to itself.

Run in the oracle venv: ``GLOG_v=3 ~/ms-oracle/bin/python tests/golden/make_promotion.py``.

For the operators ``a + b``, ``a * b``, ``a / b`` and the functions ``ops.add``,
``ops.mul``, ``ops.div`` it records the result dtype for every pair of the 14
dtypes (n-d with n-d, and for the operators and ``ops.div`` also 0-d with n-d
both ways), and for every dtype with a Python bool/int/float/complex scalar on
either side. The JSON maps a case key ``"<op>|<a>|<b>"`` (an operand is
``<dtype>:<ndim>`` or ``py:<bool|int|float|complex>``) to one of

- ``"Float32"``: the result dtype;
- ``"nokernel:Float32"``: MindSpore accepts the dtypes and infers this result
  dtype, but its CPU build has no kernel to run it;
- ``"error:TypeError"``: MindSpore rejects the combination (exception type).

Tensor operands hold 1-d ``[1, 2, 3]`` (bool ``[T, F, T]``) or 0-d ``2`` (``True``);
scalars are ``True``, ``2``, ``2.5``, ``1+2j``.

PyNative runs synchronously here, so an error is raised by the call that caused
it (asynchronously, a failed op leaves stale errors for the next calls). Some
cases crash MindSpore's process: cases run in a worker process, and the driver
records a crash as ``"crash"`` and starts a new worker after that case.
"""
import json
import os
import re
import subprocess
import sys

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float16", "float32", "float64", "bfloat16", "complex64"]
SCALARS = {"bool": True, "int": 2, "float": 2.5, "complex": complex(1, 2)}
ALL_OPS = ("a+b", "ops.add", "a*b", "ops.mul", "a/b", "ops.div")
ZERO_D_OPS = ("a+b", "a*b", "a/b", "ops.div")
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "promotion.json")


def keys():
    out = []
    for a in DTYPES:
        for b in DTYPES:
            out += [f"{op}|{a}:1|{b}:1" for op in ALL_OPS]
            out += [f"{op}|{a}:0|{b}:1" for op in ZERO_D_OPS]
            out += [f"{op}|{a}:1|{b}:0" for op in ZERO_D_OPS]
    for a in DTYPES:
        for s in SCALARS:
            out += [f"{op}|{a}:1|py:{s}" for op in ALL_OPS]
            out += [f"{op}|py:{s}|{a}:1" for op in ALL_OPS]
    return out


def _operand(ms, np, text):
    kind, _, arg = text.partition(":")
    if kind == "py":
        return SCALARS[arg]
    ndim = int(arg)
    vals = ([True, False, True] if ndim else True) if kind == "bool" else ([1, 2, 3] if ndim else 2)
    if kind == "bfloat16":
        return ms.Tensor(np.array(vals, np.float32), ms.bfloat16)
    return ms.Tensor(np.array(vals, dtype=kind))


def _outcome(err):
    msg = str(err)
    m = re.search(r"but get input\[.*?\], output\[\[const vector\]\{(\w+)\}\]", msg)
    if "Select CPU operator" in msg and m:
        return f"nokernel:{m.group(1)}"
    return f"error:{type(err).__name__}"


def worker(start):
    """Run the cases from ``start`` on, printing one JSON line each."""
    import numpy as np
    import mindspore as ms
    from mindspore import ops
    ms.set_context(pynative_synchronize=True)  # errors surface at the call that caused them
    fns = {"a+b": lambda a, b: a + b, "a*b": lambda a, b: a * b, "a/b": lambda a, b: a / b,
           "ops.add": ops.add, "ops.mul": ops.mul, "ops.div": ops.div}
    all_keys = keys()
    for i in range(start, len(all_keys)):
        op, a, b = all_keys[i].split("|")
        try:
            out = str(fns[op](_operand(ms, np, a), _operand(ms, np, b)).dtype)
        except Exception as e:  # noqa: BLE001 - recording MindSpore's exception
            out = _outcome(e)
        print(json.dumps([i, out]), flush=True)


def main():
    all_keys = keys()
    results, start = {}, 0
    while start < len(all_keys):
        proc = subprocess.run([sys.executable, __file__, "--worker", str(start)],
                              capture_output=True, text=True, env=dict(os.environ, GLOG_v="3"))
        for line in proc.stdout.splitlines():
            if line.startswith("["):
                i, out = json.loads(line)
                results[i] = out
        if start not in results:  # the process died on this case
            results[start] = "crash"
        start = max(results) + 1
    with open(OUT, "w") as f:
        f.write('{"dtypes": %s,\n "cases": {\n' % json.dumps(DTYPES))
        f.write(",\n".join(f"{json.dumps(k)}: {json.dumps(results[i])}"
                           for i, k in enumerate(all_keys)))
        f.write("\n}}\n")


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--worker":
        worker(int(sys.argv[2]))
    else:
        main()
