"""Writes runtime_names.json: MindSpore 2.10's answers for ``set_device``,
``set_deterministic``, ``get_current_device``, ``set_recursion_limit`` and the
strategy-search parameters (``set/get/reset_algo_parameters``).

Run in the oracle venv: ``GLOG_v=3 ~/ms-oracle/bin/python tests/golden/make_runtime_names.py``.
Each case is a statement list run in order in one namespace; the value of the
last expression (``repr``) or the builtin exception class is recorded.
``tests/test_runtime_names.py`` runs the same statements with msxla.
"""
import json
import os

import mindspore as ms
from mindspore import parallel
from mindspore import device_manager

CASES = [
    "ms.set_device('CPU'); ms.get_context('device_target')",
    "ms.set_device('CPU', 0); tuple(device_manager.get_current_device())",
    "ms.set_device('XPU')",
    "ms.set_device('CPU', -1)",
    "ms.set_deterministic(True); ms.get_context('deterministic')",
    "ms.set_deterministic(1)",
    "ms.set_recursion_limit(3000)",
    "ms.set_recursion_limit(-1)",
    "parallel.reset_algo_parameters(); parallel.get_algo_parameters('fully_use_devices')",
    "parallel.get_algo_parameters('elementwise_op_strategy_follow')",
    "parallel.get_algo_parameters('enable_algo_approxi')",
    "round(parallel.get_algo_parameters('algo_approxi_epsilon'), 6)",
    "parallel.get_algo_parameters('tensor_slice_align_enable')",
    "parallel.get_algo_parameters('tensor_slice_align_size')",
    "parallel.set_algo_parameters(elementwise_op_strategy_follow=True, "
    "tensor_slice_align_size=32); (parallel.get_algo_parameters("
    "'elementwise_op_strategy_follow'), parallel.get_algo_parameters('tensor_slice_align_size'))",
    "ms.set_algo_parameters(fully_use_devices=True); ms.get_algo_parameters('fully_use_devices')",
    "parallel.reset_algo_parameters(); parallel.get_algo_parameters('tensor_slice_align_size')",
    "parallel.set_algo_parameters(fully_use_devices=1)",
    "parallel.set_algo_parameters(algo_approxi_epsilon=2.0)",
    "parallel.set_algo_parameters(tensor_slice_align_size=0)",
    "parallel.set_algo_parameters(tensor_slice_align_size=2000)",
    "parallel.set_algo_parameters(foo=1)",
    "parallel.get_algo_parameters('foo')",
]


def _builtin(exc):
    for cls in type(exc).__mro__:
        if cls.__module__ == "builtins":
            return cls.__name__
    return "Exception"


def main():
    ns = {"ms": ms, "parallel": parallel, "device_manager": device_manager}
    out = []
    for case in CASES:
        *stmts, last = case.split("; ")
        try:
            for s in stmts:
                exec(s, ns)  # noqa: S102
            out.append({"code": case, "repr": repr(eval(last, ns))})  # noqa: S307
        except Exception as exc:  # noqa: BLE001 - recorded as the expected failure
            out.append({"code": case, "error": _builtin(exc)})
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "runtime_names.json")
    with open(path, "w") as f:
        json.dump({"cases": out}, f, indent=0)
    print(f"wrote {len(out)} cases to {path}")


if __name__ == "__main__":
    main()
