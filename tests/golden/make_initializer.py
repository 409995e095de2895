"""Write tests/golden/initializer.json: what MindSpore 2.10's initializers produce.

Run in the oracle venv: ``GLOG_v=3 ~/ms-oracle/bin/python tests/golden/make_initializer.py``.

Random values cannot match across frameworks (different generators), so for
each case the JSON holds the dtype, the shape and statistics of a large
sample (mean, std, min, max, zeros per column, orthogonality error);
deterministic initializers store their exact values. Invalid arguments store
MindSpore's exception type and message. ``sample_stats`` is shared with
tests/test_initializer_golden.py, which computes the same statistics on msxla.
"""
import importlib
import json
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))

# name -> (init expression, shape, dtype name)
RANDOM = {
    "normal": ("I.Normal(sigma=0.5, mean=1.0)", (400, 500), "float32"),
    "normal_alias": ("'normal'", (400, 500), "float32"),
    "normal_f16": ("I.Normal(sigma=2.0)", (200, 500), "float16"),
    "uniform": ("I.Uniform(scale=0.3)", (400, 500), "float32"),
    "uniform_alias": ("'uniform'", (400, 500), "float32"),
    "truncated_normal": ("I.TruncatedNormal(sigma=1.0, mean=0.2, a=-0.5, b=1.5)", (400, 500),
                         "float32"),
    "truncated_normal_alias": ("'truncatednormal'", (400, 500), "float32"),
    "xavier_uniform": ("I.XavierUniform(gain=2)", (300, 40, 3, 3), "float32"),
    "xavier_normal": ("'xavier_normal'", (300, 40, 3, 3), "float32"),
    "he_uniform": ("I.HeUniform(negative_slope=0.2, mode='fan_out')", (300, 40, 3, 3),
                   "float32"),
    "he_uniform_alias": ("'he_uniform'", (600, 300), "float32"),
    "he_normal": ("I.HeNormal(nonlinearity='tanh')", (600, 300), "float32"),
    "he_normal_relu": ("I.HeNormal(mode='FAN_OUT', nonlinearity='relu')", (600, 300), "float64"),
    "orthogonal": ("I.Orthogonal(gain=1.5)", (64, 8, 2, 2), "float32"),
    "orthogonal_wide": ("'orthogonal'", (16, 200), "float32"),
    "sparse": ("I.Sparse(sparsity=0.3, sigma=0.2)", (1000, 40), "float32"),
    "variance_scaling": ("I.VarianceScaling(scale=2.0)", (400, 500), "float32"),
    "variance_scaling_uniform": ("I.VarianceScaling(mode='fan_out', distribution='uniform')",
                                 (400, 500), "float32"),
    "variance_scaling_normal": ("I.VarianceScaling(0.5, 'fan_avg', 'untruncated_normal')",
                                (400, 500), "float32"),
}

EXACT = {
    "zeros": ("'zeros'", (2, 3), "float32"),
    "zero_int": ("I.Zero()", (3,), "int32"),
    "ones": ("'ones'", (2, 2), "float16"),
    "one_bf16": ("I.One()", (2,), "bfloat16"),
    "constant": ("I.Constant(2.5)", (2, 2), "float32"),
    "constant_int": ("7", (3,), "int64"),
    "constant_bool": ("I.Constant(1)", (2,), "bool"),
    "scalar_shape": ("3.5", (), "float32"),
    "int_shape": ("'ones'", 3, "float32"),
    "identity": ("'identity'", (3, 5), "float32"),
    "identity_int": ("I.Identity()", (4, 2), "int32"),
    "dirac3": ("'dirac'", (3, 3, 5), "float32"),
    "dirac4_groups": ("I.Dirac(groups=2)", (4, 3, 3, 3), "float32"),
    "dirac5": ("I.Dirac()", (2, 3, 3, 1, 3), "float32"),
}

ERRORS = [
    "I.initializer('eye', (2, 2))",
    "I.initializer('truncated_normal', (2, 2))",
    "I.initializer('zeros', (2, 0))",
    "I.initializer('zeros', (2, -1))",
    "I.initializer([1, 2], (2,))",
    "I.initializer(ms.Tensor([1, 2]), (3,))",
    "I.initializer('xavier_uniform', (3,))",
    "I.initializer('he_normal', (3,))",
    "I.initializer(I.HeUniform(mode='bad'), (3, 4))",
    "I.initializer(I.HeUniform(nonlinearity='gelu'), (3, 4))",
    "I.initializer(I.HeNormal(negative_slope='a'), (3, 4))",
    "I.initializer('identity', (3, 4, 5))",
    "I.initializer('orthogonal', (3,))",
    "I.initializer(I.Sparse(0.5), (2, 3, 4))",
    "I.initializer(I.Dirac(2), (3, 2, 3))",
    "I.initializer('dirac', (2, 2))",
    "I.VarianceScaling(scale=0.0)",
    "I.VarianceScaling(mode='x')",
    "I.VarianceScaling(distribution='truncated_norm')",
    "I.Sparse()",
]


def sample_stats(arr, name):
    """Statistics that do not depend on the generator (float64 numpy ``arr``)."""
    flat = arr.astype(np.float64).ravel()
    stats = {"mean": float(flat.mean()), "std": float(flat.std()), "min": float(flat.min()),
             "max": float(flat.max())}
    if name.startswith("sparse"):
        stats["zeros_per_column"] = sorted(set((arr == 0).sum(axis=0).tolist()))
    if name.startswith("orthogonal"):
        m = arr.reshape(arr.shape[0], -1).astype(np.float64)
        small = m @ m.T if m.shape[0] <= m.shape[1] else m.T @ m
        stats["gram_diag"] = float(np.diag(small).mean())
        stats["gram_offdiag"] = float(np.abs(small - np.diag(np.diag(small))).max())
    return stats


def _module(ms):
    return importlib.import_module(ms.__name__ + ".common.initializer")


def run(ms, code, shape, dtype):
    I = _module(ms)  # noqa: N806
    init = eval(code, {"I": I})  # noqa: S307 - fixed strings
    return I.initializer(init, shape, getattr(ms, dtype if dtype != "bool" else "bool_"))


def run_error(ms, code):
    I = _module(ms)  # noqa: N806
    try:
        out = eval(code, {"I": I, "ms": ms})  # noqa: S307 - fixed strings
        if isinstance(out, ms.Tensor):
            out.asnumpy()  # MindSpore initializes lazily: errors surface here
    except Exception as err:  # noqa: BLE001 - the exception is the golden
        return {"exc": type(err).__name__, "message": str(err).split("\n")[0]}
    return {"exc": None, "message": ""}


def to_float(t):
    arr = t.asnumpy()
    return arr.astype(np.float64) if arr.dtype.kind != "b" else arr.astype(np.int64)


def main():
    import mindspore as ms
    ms.set_seed(5)
    random, exact = {}, {}
    for name, (code, shape, dtype) in RANDOM.items():
        t = run(ms, code, shape, dtype)
        random[name] = {"dtype": str(t.dtype), "shape": list(t.shape),
                        **sample_stats(to_float(t), name)}
        print(name, random[name])
    for name, (code, shape, dtype) in EXACT.items():
        t = run(ms, code, shape, dtype)
        exact[name] = {"dtype": str(t.dtype), "shape": list(t.shape),
                       "values": to_float(t).tolist()}
    errors = {code: run_error(ms, code) for code in ERRORS}
    module = _module(ms)
    out = {"mindspore": ms.__version__, "random": random, "exact": exact, "errors": errors,
           "aliases": sorted(module._INITIALIZER_ALIAS), "all": sorted(module.__all__)}
    with open(os.path.join(HERE, "initializer.json"), "w") as fh:
        json.dump(out, fh, indent=1, sort_keys=True)


if __name__ == "__main__":
    sys.exit(main())
