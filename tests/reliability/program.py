"""A generated program: its module source and the calls made to it.

The source is a real Python module (written to a file before it runs, so
``inspect.getsource`` works for capture_mode='ast'). Its contract:

- ``make_entry(jit)`` builds the callable under test. ``jit`` wraps a function
  or Cell (the identity in PyNative, ``ms.jit(..., capture_mode, jit_level)``
  otherwise); the module decides where it applies (the entry, a helper, a
  Cell, a training step, a function under ``value_and_grad``).
- ``state()`` returns every Parameter the program may read or write, and
  every plain Tensor from outside the entry it may change in place, by name.
- ``NET`` (Cell programs) is the Cell whose attributes calls change;
  ``SET_SCALE(v)`` (closure programs) rebinds the entry's closure variable.

Each call passes ``(x, y, n, c)``: two Tensors of ``shape``, a Python int and
a container (tuple, list or dict) of two Tensors, after applying ``changes``.
"""
from __future__ import annotations

import dataclasses
import hashlib

import numpy as np

import msxla as ms


@dataclasses.dataclass(frozen=True)
class Call:
    shape: tuple
    seed: int
    n: int
    changes: tuple = ()   # ("global", name, v) | ("attr", name, v) | ("closure", v)
    #                       | ("param", name, seed) | ("train", bool)


@dataclasses.dataclass(frozen=True)
class Program:
    source: str
    calls: tuple
    dtype: str = "float32"
    container: str = "tuple"   # how ``c`` is passed: "tuple", "list" or "dict"

    @property
    def digest(self) -> str:
        return hashlib.sha1((self.source + repr(self.calls)).encode()).hexdigest()[:10]

    def __str__(self):
        calls = "\n".join(f"  {c}" for c in self.calls)
        return (f"--- program {self.digest} (dtype {self.dtype}, c as {self.container})\n"
                f"{self.source}\n--- calls\n{calls}")


def tensor(seed, shape, dtype):
    return ms.Tensor(np.random.default_rng(seed).standard_normal(shape).astype(dtype))


def call_args(program: Program, call: Call):
    """The positional arguments of one call (fresh Tensors each time)."""
    x = tensor(call.seed, call.shape, program.dtype)
    y = tensor(call.seed + 1, call.shape, program.dtype)
    a = tensor(call.seed + 2, call.shape, program.dtype)
    b = tensor(call.seed + 3, call.shape, program.dtype)
    c = {"tuple": (a, b), "list": [a, b], "dict": {"p": a, "q": b}}[program.container]
    return x, y, call.n, c


def apply_changes(module, program: Program, call: Call):
    """Change globals, Cell attributes, the closure and Parameters before a call."""
    for change in call.changes:
        kind = change[0]
        if kind == "global":
            setattr(module, change[1], change[2])
        elif kind == "attr":
            setattr(module.NET, change[1], change[2])
        elif kind == "closure":
            module.SET_SCALE(change[1])
        elif kind == "param":
            param = module
            for part in change[1].split("."):
                param = getattr(param, part)
            param.set_data(tensor(change[2], param.shape, program.dtype))
        elif kind == "train":
            module.NET.set_train(change[1])
        else:
            raise ValueError(f"unknown change {change!r}")
