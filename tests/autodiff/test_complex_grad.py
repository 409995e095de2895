"""Gradients of complex inputs follow MindSpore's convention (PyTorch's): for a real
output ``f(x + iy)`` the gradient is ``df/dx + i df/dy`` (jax's is its conjugate), and
a ``sens`` on a complex output enters conjugated. Checked against those formulas in
PyNative and every capture mode (MindSpore 2.10 gives 1j for ``imag`` at 1.3+0.4j)."""
import numpy as np

import msxla as ms
from msxla import Tensor, ops

from modes import make

Z = np.array([1.3 + 0.4j, -0.5 + 2.0j], np.complex64)


def grad_of(fn, mode, *args, sens=False):
    return ops.GradOperation(sens_param=sens)(make(fn, mode))(*args).asnumpy()


def test_imag_real_abs(mode):
    z = Tensor(Z, ms.complex64)
    np.testing.assert_allclose(grad_of(ops.imag, mode, z), [1j, 1j])
    np.testing.assert_allclose(grad_of(ops.real, mode, z), [1, 1])
    # |z| = sqrt(x^2 + y^2): d/dx + i d/dy = (x + iy) / |z|
    np.testing.assert_allclose(grad_of(ops.abs, mode, z), Z / np.abs(Z), rtol=1e-6)


def test_sens(mode):
    z = Tensor(Z, ms.complex64)
    sens = Tensor(np.array([0.7, -2.0], np.float32))
    np.testing.assert_allclose(grad_of(ops.imag, mode, z, sens, sens=True), [0.7j, -2j],
                               rtol=1e-6)
    # f(z) = c * z with a complex sens: conj(c) * sens (PyTorch's and MindSpore's rule)
    c = np.array([2 + 1j, 1 - 3j], np.complex64)
    s = np.array([0.5 - 1j, 1 + 2j], np.complex64)
    got = grad_of(lambda z: z * Tensor(c), mode, z, Tensor(s), sens=True)
    np.testing.assert_allclose(got, np.conj(c) * s, rtol=1e-6)
