"""Specs for the op-table suite: how to test each row against numpy.

Each family of rows has a ``spec_<family>.py`` module defining ``SPECS``, a
list of :class:`OpSpec`. ``test_op_table.py`` runs every spec (forward for
each dtype, and the gradient against a central-difference gradient of the
numpy reference where ``grad=True``) and checks that every registered row has
at least one spec.
"""
from __future__ import annotations

import dataclasses
from typing import Callable

import numpy as np

import msxla as ms


@dataclasses.dataclass
class OpSpec:
    name: str                      # the op row's name in msxla.ops.opdef.REGISTRY
    ref: Callable                  # numpy reference: ref(*arrays, **kwargs) -> array(s)
    shapes: tuple = ((2, 3),)      # input shapes, or a callable(rng, np_dtype) -> [arrays]
    kwargs: dict = dataclasses.field(default_factory=dict)
    dtypes: tuple = (np.float32,)  # numpy dtypes the forward check runs for
    grad: bool = False             # check d(sum(out))/d(inputs) in float64 vs numerical
    grad_inputs: tuple | None = None  # which inputs to differentiate (default: all float ones)
    domain: str = "normal"         # "normal", "positive", "unit" (-0.9..0.9), "int"
    fn: Callable | None = None     # what to call (default: msxla.ops.<name>)
    rtol: float | None = None
    atol: float | None = None
    check_dtype: bool = True
    id: str = ""                   # distinguishes several specs of one op

    def call(self):
        return self.fn if self.fn is not None else getattr(ms.ops, self.name)

    def make_inputs(self, rng, dtype):
        if callable(self.shapes):
            return self.shapes(rng, np.dtype(dtype))
        return [sample(rng, s, dtype, self.domain) for s in self.shapes]


def sample(rng, shape, dtype, domain="normal"):
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return rng.random(shape) > 0.5
    if dtype.kind in "iu" or domain == "int":
        lo = 1 if domain == "positive" else (0 if dtype.kind == "u" else -5)
        return rng.integers(lo, 6, size=shape).astype(dtype)
    if domain == "positive":
        x = rng.uniform(0.5, 2.0, size=shape)
    elif domain == "unit":
        x = rng.uniform(-0.9, 0.9, size=shape)
    else:
        x = rng.standard_normal(shape)
    if dtype.kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return np.asarray(x).astype(dtype)
