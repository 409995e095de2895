"""Programs whose results MindSpore 2.10 gives in tests/golden/fidelity.json
(``make_fidelity.py``): shared by that script (run with MindSpore) and the
msxla tests, so both run the very same source."""

# Ops fed an argument of a type no op takes: MindSpore raises TypeError.
BAD_VALUES = {"string": "abc", "None": None, "list of strings": ["a", "b"], "dict": {"a": 1}}


def bad_calls(ms, x):
    """``name -> callable(bad value)``: one argument of each call is the bad value."""
    ops = ms.ops
    return {
        "Tensor + v": lambda v: x + v, "v - Tensor": lambda v: v - x,
        "ops.add": lambda v: ops.add(x, v), "ops.mul": lambda v: ops.mul(x, v),
        "ops.maximum": lambda v: ops.maximum(x, v), "ops.exp": lambda v: ops.exp(v),
        "ops.relu": lambda v: ops.relu(v), "ops.sum": lambda v: ops.sum(v),
        "ops.matmul": lambda v: ops.matmul(x, v), "ops.reshape": lambda v: ops.reshape(x, v),
        "ops.cat": lambda v: ops.cat(v), "ops.where": lambda v: ops.where(x > 0, x, v),
        "Tensor.add": lambda v: x.add(v),
    }


def variable_scalars(ms, x):
    """``float(t)`` / ``int(t)`` of a graph Tensor promote like Python scalars."""
    h, i, b = x.astype(ms.float16), x.astype(ms.int32), x.astype(ms.int8)
    return (h * float(x.mean()), h + int(x.sum()), h * (float(x.mean()) * 2.0),
            i * float(x.mean()), i + int(x.sum()), h - float(x.max()) / 2,
            b * int(x.sum()), h * float(x.mean()) + i)


VARIABLE_SCALARS_INPUT = [1.5, 2.5]
