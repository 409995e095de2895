"""Bad arguments to shape, creation and linalg rows: MindSpore's exception type, and a message
naming the op and the offending shape or value, pointing at the caller's line."""
import numpy as np
import pytest

import msxla as ms
from msxla import Tensor, ops

X = Tensor(np.zeros((2, 3, 4), np.float32))
Y = Tensor(np.zeros((2, 3), np.int32))

CASES = [
    (lambda: ops.reshape(X, (5, 5)), ValueError, r"For 'Reshape'.*\(5, 5\).*size 24"),
    (lambda: ops.reshape(X, (-1, -1)), ValueError, r"For 'Reshape'.*only one dimension"),
    (lambda: X.reshape(2.5, 4), TypeError, r"For 'Reshape'.*float"),
    (lambda: ops.transpose(X, (0, 1)), ValueError, r"For 'Transpose'.*got 2 and 3"),
    (lambda: ops.transpose(X, (0, 1, 1)), ValueError, r"For 'Transpose'.*unique"),
    (lambda: ops.squeeze(X, 5), ValueError, r"For 'Squeeze'.*\[-3, 3\).*5"),
    (lambda: ops.expand_dims(X, 5), ValueError, r"For 'ExpandDims'.*\[-4, 4\).*5"),
    (lambda: ops.concat((X, Y)), ValueError, r"For 'Concat'.*same rank"),
    (lambda: ops.concat((X, ops.zeros((2, 2, 4))), 0), ValueError, r"For 'Concat'.*except"),
    (lambda: ops.concat(X), TypeError, r"For 'Concat'.*tuple or list"),
    (lambda: ops.stack((Y, ops.zeros(3))), ValueError, r"For 'Stack'.*same shape"),
    (lambda: ops.split(X, [1, 2], 2), ValueError, r"For 'Split'.*equal to 4, but got 3"),
    (lambda: ops.split(X, 0), ValueError, r"For 'Split'.*more than zero"),
    (lambda: ops.chunk(X, 0), ValueError, r"For 'Split'.*greater than 0"),
    (lambda: ops.tile(X, (2, -1)), ValueError, r"For 'Tile'.*negative.*-1"),
    (lambda: ops.narrow(X, 2, 3, 2), ValueError, r"'length' must be in range \[1, 1\]"),
    (lambda: ops.broadcast_to(Y, (3, 3)), ValueError, r"For 'BroadcastTo'.*\(2, 3\).*\(3, 3\)"),
    (lambda: ops.broadcast_to(Y, (-1, 2, 3)), ValueError, r"For 'BroadcastTo'.*-1"),
    (lambda: ops.swapaxes(X, 0, 3), ValueError, r"For 'Transpose'.*got 3"),
    (lambda: ops.unbind(X, 3), ValueError, r"For 'Unstack'.*got 3"),
    (lambda: ops.flatten(X, "X"), ValueError, r"For 'Flatten'.*'C' or 'F'.*'X'"),
    (lambda: ops.flatten(X, start_dim=2, end_dim=1), ValueError, r"cannot come after"),
    (lambda: ops.rot90(Y, 1, (0, 0)), RuntimeError, r"For 'rot90'.*different"),
    (lambda: ops.diag(Tensor(1.0)), ValueError, r"For 'Diag'.*rank"),
    (lambda: ops.tril(Tensor(np.ones(3))), ValueError, r"For 'Tril'.*rank"),
    (lambda: ops.trace(X), ValueError, r"For 'Trace'.*rank of the input must be 2"),
    (lambda: ops.diagonal(Y, 0, 0, 0), ValueError, r"For 'Diagonal'.*identical"),
    (lambda: ops.full(2, 2.5), TypeError, r"'size' must be a tuple or list"),
    (lambda: ops.arange(0, 5, 0), ValueError, r"For 'Range'.*zero"),
    (lambda: ops.arange(5, 0), ValueError, r"For 'Range'.*positive when limit < start"),
    (lambda: ops.range(0, 5.0, 2), TypeError, r"For 'Range'.*same"),
    (lambda: ops.logspace(0, 2, 3, dtype=ms.int32), TypeError, r"For 'LogSpace'.*Int32|int32"),
    (lambda: ops.matmul(Y, ops.cast(Y, ms.float32).T), TypeError,
     r"For 'MatMul'.*Int32.*Float32"),
    (lambda: ops.matmul(ops.cast(Y, ms.bool_), ops.cast(Y, ms.bool_).T), TypeError,
     r"For 'MatMul'.*Bool"),
    (lambda: ops.matmul(Y, Y), ValueError, r"For 'MatMul'.*\(2, 3\).*\(2, 3\)"),
    (lambda: ops.mm(X, X), ValueError, r"For 'MatMul'.*2-D"),
    (lambda: ops.MatMul()(ops.ones((2, 2), ms.float64), ops.ones((2, 2))), TypeError,
     r"For 'MatMul'"),
    (lambda: ops.dot(Y, Y.T), TypeError, r"For 'dot'.*Int32"),
    (lambda: ops.dot(ops.ones(3), ops.ones(3)), ValueError, r"For 'dot'.*at least 2"),
    (lambda: ops.inverse(Y), TypeError, r"For 'MatrixInverse'.*Int32"),
    (lambda: ops.det(X), ValueError, r"For 'MatrixDeterminant'.*square"),
    (lambda: ops.norm(ops.ones(3), "fro"), TypeError, r"For 'Norm'.*str for vectors"),
    (lambda: ops.norm(X, 2), ValueError, r"For 'Norm'.*1-D or 2-D"),
    (lambda: ops.tensor_dot(X, X, ((1,), (2,))), ValueError, r"contracted dimensions"),
    (lambda: ops.cross(X, X, 2), ValueError, r"For 'Cross'.*must be 3, but got 4"),
    (lambda: ops.cross(ops.ones((2, 4)), ops.ones((2, 4))), ValueError, r"For 'Cross'.*size 3"),
    (lambda: ops.cdist(X, ops.ones((2, 3, 5))), ValueError, r"For 'Cdist'"),
]


@pytest.mark.parametrize("call, exc, pattern", CASES, ids=[c[2][:40] for c in CASES])
def test_bad_input_raises_mindspore_type_naming_the_op(call, exc, pattern):
    with pytest.raises(exc, match=pattern):
        call()


def test_error_points_at_the_calling_line():
    with pytest.raises(ValueError) as info:
        ops.reshape(X, (7,))
    assert "test_shape_errors.py" in str(info.value)
