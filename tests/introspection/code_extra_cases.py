"""A MindSpore program: what ``_c_expression.get_code_extra`` reports after bytecode-jit calls.

    python code_extra_cases.py CASE ...      # under MindSpore 2.10 (the golden's maker)
    python -m msxla code_extra_cases.py all  # under msxla (the test)

Prints one JSON line per case: ``{"case": name, "steps": [[label, report], ...]}``
where a report keeps the fields MindSpore's own tests read (``stat``,
``compile_count_``, ``break_count_``, ``call_count_``) and ``has_graph``
(MindSpore's test helper: the code ran as a graph, or its generated code
calls one).
"""
import json
import sys
import types

import numpy as np

from mindspore import Tensor, jit, nn
from mindspore._c_expression import get_code_extra
from mindspore.common._pijit_context import PIJitCaptureContext, Unsupported

CASES = {}


def case(fn):
    CASES[fn.__name__] = fn
    return fn


def has_graph(jcr, depth=2):
    if not depth or jcr is None or "code" not in jcr:
        return False
    if jcr["code"].get("phase_"):
        return True
    compiled = jcr["code"].get("compiled_code_")
    if not compiled:
        return False
    return any(isinstance(c, types.CodeType) and has_graph(get_code_extra(c), depth - 1)
               for c in compiled.co_consts)


def report(fn):
    jcr = get_code_extra(fn)
    if jcr is None:
        return None
    return {"stat": jcr["stat"], "compile_count_": jcr["compile_count_"],
            "break_count_": jcr["break_count_"],
            "call_count_": jcr.get("code", {}).get("call_count_"), "has_graph": has_graph(jcr)}


def x3():
    return Tensor(np.ones(3, np.float32))


def x4():
    return Tensor(np.ones(4, np.float32))


@case
def one_graph():
    @jit(capture_mode="bytecode")
    def f(x):
        return x + 1
    steps = [("before", report(f.__wrapped__))]
    f(x3())
    steps.append(("1 call", report(f.__wrapped__)))
    f(x3())
    steps.append(("2 calls", report(f.__wrapped__)))
    f(x4())
    steps.append(("new shape", report(f.__wrapped__)))
    f(x3())
    steps.append(("first shape again", report(f.__wrapped__.__code__)))
    steps.append(("a function never jitted", report(lambda y: y)))
    return steps


@case
def one_break():
    @jit(capture_mode="bytecode")
    def f(x):
        y = x + 1
        y.asnumpy()
        return y * 2
    f(x3())
    steps = [("1 call", report(f.__wrapped__))]
    f(x3())
    return steps + [("2 calls", report(f.__wrapped__))]


@case
def two_breaks():
    @jit(capture_mode="bytecode")
    def f(x):
        y = x + 1
        y.asnumpy()
        y = y * 2
        y.asnumpy()
        return y * 3
    f(x3())
    return [("1 call", report(f.__wrapped__))]


@case
def break_in_callee():
    def h(y):
        y = y * 2
        y.asnumpy()
        return y + 1

    @jit(capture_mode="bytecode")
    def f(x):
        return h(x + 1) * 3
    f(x3())
    return [("caller", report(f.__wrapped__)), ("callee", report(h))]


@case
def branch_on_tensor():
    @jit(capture_mode="bytecode")
    def f(x):
        if x.sum() > 0:
            return x + 1
        return x - 1
    f(x3())
    return [("1 call", report(f.__wrapped__))]


@case
def cell_construct():
    class Net(nn.Cell):
        @jit(capture_mode="bytecode")
        def construct(self, x):
            return x * 2
    net = Net()
    net(x3())
    net(x3())
    return [("instance", report(net.construct.__wrapped__)),
            ("class", report(Net.construct.__wrapped__))]


@case
def two_wrappers():
    def f(x):
        return x + 1
    a = jit(f, capture_mode="bytecode")
    b = jit(f, capture_mode="bytecode")
    a(x3())
    b(x3())
    return [("same signature", report(f))]


@case
def scalar_argument():
    @jit(capture_mode="bytecode")
    def f(x, n):
        return x + n
    for n in (1, 2, 3):
        f(x3(), n)
    return [("3 values", report(f.__wrapped__))]


@case
def disable_pijit():
    @PIJitCaptureContext(jit_config={"_disable_pijit": lambda args, kwargs: args[0] > 1})
    def f(x, y):
        return x + y
    for i in range(6):
        a = Tensor([i])
        f(a, a)
    return [("2 of 6 calls jitted", report(f.__wrapped__))]


@case
def fullgraph_break():
    @PIJitCaptureContext(fullgraph=True)
    def f(x):
        x = x + 1
        print("graph break here", flush=True)
        return x * 2
    try:
        f(x3())
        raised = None
    except Unsupported as err:
        raised = {"type": "Unsupported", "names_line": 'print("graph break here"' in str(err)}
    return [("raised", raised)]


def main(names):
    for name in (CASES if names == ["all"] else names):
        print(json.dumps({"case": name, "steps": CASES[name]()}), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
