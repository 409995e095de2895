"""``mindspore.run_check()``: check that the installation runs a computation.

Prints what MindSpore 2.10 prints: the version line, then, after a ``Mul`` of two
small Tensors ran, the line saying on which platform (``device_target``) it ran;
if anything fails, ``MindSpore running check failed.`` and the error.
"""
from __future__ import annotations

__all__ = ["run_check"]


def _check_mul():
    import numpy as np

    import msxla as ms
    print("MindSpore version: ", ms.__version__)
    x = ms.Tensor(np.array([1.0, 2.0, 3.0]), ms.float32)
    y = ms.Tensor(np.array([4.0, 5.0, 6.0]), ms.float32)
    out = ms.ops.Mul()(x, y).asnumpy()
    if not np.array_equal(out, np.array([4.0, 10.0, 18.0], np.float32)):
        raise RuntimeError(f"Mul of [1, 2, 3] and [4, 5, 6] gave {out.tolist()}, "
                           "not [4.0, 10.0, 18.0].")
    print("The result of multiplication calculation is correct, MindSpore has been installed "
          f"on platform [{ms.get_context('device_target')}] successfully!")


def run_check():
    """Run a small multiplication and print whether the installation works."""
    try:
        _check_mul()
    except Exception as e:  # noqa: BLE001 - reported, as MindSpore does
        print("MindSpore running check failed.")
        print(str(e))
