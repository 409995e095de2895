"""The "mindspore.jit practice" tutorial (seed 002), runnable as written.

Every jit variant of the tutorial's table runs the simple function a*b+c a
thousand times and prints its time to prepare and to run. For the
benchmark with peers side by side see benchmarks/.
"""
import time

import numpy as np

import msxla as mindspore
from msxla import Tensor


def f(a: Tensor, b: Tensor, c: Tensor):
    return a * b + c


jitted_f = mindspore.jit(f)

f_input = [Tensor(np.random.randn(2, 3), mindspore.float32) for _ in range(3)]
out = f(*f_input)
print(f"{out=}")
out = jitted_f(*f_input)
print(f"{out=}")

jitted_by_ast_and_levelO0_f = mindspore.jit(f, capture_mode="ast", jit_level="O0")
jitted_by_ast_and_levelO1_f = mindspore.jit(f, capture_mode="ast", jit_level="O1")
jitted_by_ast_and_ge_f = mindspore.jit(f, capture_mode="ast", backend="GE")

jitted_by_bytecode_and_levelO0_f = mindspore.jit(f, capture_mode="bytecode", jit_level="O0")
jitted_by_bytecode_and_levelO1_f = mindspore.jit(f, capture_mode="bytecode", jit_level="O1")
jitted_by_bytecode_and_ge_f = mindspore.jit(f, capture_mode="bytecode", backend="GE")


@mindspore.jit(capture_mode="trace", jit_level="O0")
def jitted_by_trace_and_levelO0_f(a, b, c):
    return a * b + c


@mindspore.jit(capture_mode="trace", jit_level="O1")
def jitted_by_trace_and_levelO1_f(a, b, c):
    return a * b + c


@mindspore.jit(capture_mode="trace", backend="GE")
def jitted_by_trace_and_ge_f(a, b, c):
    return a * b + c


jitted_by_ast_and_levelO0_fullgraph_f = mindspore.jit(f, capture_mode="ast", jit_level="O0",
                                                      fullgraph=True)
jitted_by_ast_and_levelO1_fullgraph_f = mindspore.jit(f, capture_mode="ast", jit_level="O1",
                                                      fullgraph=True)
jitted_by_ast_and_ge_fullgraph_f = mindspore.jit(f, capture_mode="ast", backend="GE",
                                                 fullgraph=True)

function_dict = {
    "function ": f,
    "function jitted by ast and levelO0": jitted_by_ast_and_levelO0_f,
    "function jitted by ast and levelO1": jitted_by_ast_and_levelO1_f,
    "function jitted by ast and ge": jitted_by_ast_and_ge_f,
    "function jitted by bytecode and levelO0": jitted_by_bytecode_and_levelO0_f,
    "function jitted by bytecode and levelO1": jitted_by_bytecode_and_levelO1_f,
    "function jitted by bytecode and ge": jitted_by_bytecode_and_ge_f,
    "function jitted by trace and levelO0": jitted_by_trace_and_levelO0_f,
    "function jitted by trace and levelO1": jitted_by_trace_and_levelO1_f,
    "function jitted by trace and ge": jitted_by_trace_and_ge_f,
    "function jitted by ast and levelO0 fullgraph": jitted_by_ast_and_levelO0_fullgraph_f,
    "function jitted by ast and levelO1 fullgraph": jitted_by_ast_and_levelO1_fullgraph_f,
    "function jitted by ast and ge fullgraph": jitted_by_ast_and_ge_fullgraph_f,
}

dataset = [[Tensor(np.random.randn(2, 3), mindspore.float32) for _ in range(3)]
           for i in range(1000)]

for s, fn in function_dict.items():
    s_time = time.time()
    out = fn(*dataset[0])
    time_to_prepare = time.time() - s_time
    s_time = time.time()
    for i in range(1000):
        out = fn(*dataset[i])
    time_to_run_thousand_times = time.time() - s_time
    print(f"{s}, out shape: {out.shape}, time to prepare: {time_to_prepare:.2f}s, "
          f"time to run thousand times: {time_to_run_thousand_times:.2f}s")
