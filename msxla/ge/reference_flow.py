"""Reference kernels: GE control flow (While, If, Case) running their subgraphs.

A subgraph's ``Data`` node ``i`` receives the parent's dynamic input ``i``
(for If / Case, the inputs after the selector); its NetOutput values become
the parent's outputs. A non-bool condition is true when non-zero, as GE's
While / If documentation says.
"""
from __future__ import annotations

import numpy as np

from msxla.ge.reference import GeExecutionError, kernel


def _truth(value) -> bool:
    arr = np.asarray(value)
    if arr.size != 1:
        raise GeExecutionError("a GE condition must be a scalar")
    return bool(arr.reshape(()))


@kernel("While")
def _while(call, *inputs):
    values = list(inputs)
    while _truth(call.run_subgraph(0, values)[0]):
        values = call.run_subgraph(1, values)
    return values


@kernel("If")
def _if(call, cond, *inputs):
    return call.run_subgraph(0 if _truth(cond) else 1, list(inputs))


@kernel("Case")
def _case(call, index, *inputs):
    i = int(np.asarray(index).reshape(()))
    if not 0 <= i < len(call.node.subgraphs):
        raise GeExecutionError(f"Case '{call.node.name}': branch {i} does not exist")
    return call.run_subgraph(i, list(inputs))
