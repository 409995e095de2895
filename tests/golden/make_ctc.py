"""Write tests/golden/ctc.json: MindSpore 2.10's CTC losses on fixed inputs.

    cd /tmp/some_dir && GLOG_v=3 ~/ms-oracle/bin/python /path/to/tests/golden/make_ctc.py

``ops.ctc_loss`` (each reduction, blank not 0, a target its input is too short for, with
and without zero_infinity), its log_alpha and its gradient with respect to
log_probs, ``nn.CTCLoss``, and the ``ops.CTCLoss`` Primitive (logits, sparse
labels: loss and gradient) with its flags. Inputs are stored with the outputs.
"""
import json
import os

import numpy as np
import mindspore as ms
from mindspore import Tensor, nn, ops


def arr(x):
    a = x.asnumpy()
    return {"shape": list(a.shape), "dtype": str(a.dtype),
            "data": np.where(np.isinf(a), np.sign(a) * 1e38, a).astype(np.float64).ravel().tolist()}


def main():
    rng = np.random.RandomState(7)
    cases = []
    lp = np.log(rng.dirichlet(np.ones(6), size=(8, 3))).astype(np.float32)
    targets = np.array([[1, 2, 2, 3], [4, 1, 0, 0], [5, 5, 5, 5]], np.int32)
    for name, il, tl, blank, red, zi in [
            ("mean", [8, 7, 8], [4, 2, 3], 0, "mean", False),
            ("sum", [8, 7, 8], [4, 2, 3], 0, "sum", False),
            ("none", [8, 6, 5], [4, 2, 3], 0, "none", False),
            ("blank3", [8, 7, 8], [4, 2, 2], 3, "none", False),
            ("impossible", [8, 7, 4], [4, 2, 3], 0, "none", False),
            ("zero_infinity", [8, 7, 4], [4, 2, 3], 0, "none", True),
            ("empty_target", [8, 7, 8], [4, 0, 3], 0, "none", False)]:
        t = targets.copy()
        if blank == 3:
            t = np.where(t == 3, 0, t)
        args = (Tensor(lp), Tensor(t), Tensor(np.array(il, np.int32)),
                Tensor(np.array(tl, np.int32)))
        loss, log_alpha = ops.ctc_loss(*args, blank=blank, reduction=red, zero_infinity=zi)
        sens = ops.ones_like(loss)
        grad = ms.grad(lambda x: ops.ctc_loss(x, *args[1:], blank=blank, reduction=red,
                                              zero_infinity=zi)[0] * sens)(args[0])
        cases.append({"name": name, "targets": t.tolist(), "input_lengths": il,
                      "target_lengths": tl, "blank": blank, "reduction": red,
                      "zero_infinity": zi, "loss": arr(loss), "log_alpha": arr(log_alpha),
                      "grad": arr(grad)})
    nn_loss = nn.CTCLoss(blank=0, reduction="mean")(
        Tensor(lp), Tensor(targets), Tensor(np.array([8, 7, 8], np.int32)),
        Tensor(np.array([4, 2, 3], np.int32)))
    x = rng.randn(7, 2, 5).astype(np.float32)
    prim_cases = []
    for flags, idx, vals, seq in [
            ({}, [[0, 0], [0, 1], [0, 2], [1, 0], [1, 1]], [1, 1, 2, 3, 0], [7, 6]),
            ({"preprocess_collapse_repeated": True}, [[0, 0], [0, 1], [0, 2], [1, 0], [1, 1]],
             [1, 1, 2, 3, 0], [7, 6]),
            ({"ignore_longer_outputs_than_inputs": True},
             [[0, 0], [0, 1], [0, 2], [1, 0], [1, 1], [1, 2]], [1, 2, 0, 3, 0, 2], [7, 2])]:
        loss, grad = ops.CTCLoss(**flags)(Tensor(x), Tensor(np.array(idx, np.int64)),
                                          Tensor(np.array(vals, np.int32)),
                                          Tensor(np.array(seq, np.int32)))
        prim_cases.append({"flags": flags, "indices": idx, "values": vals,
                           "sequence_length": seq, "loss": arr(loss), "grad": arr(grad)})
    out = {"log_probs": lp.tolist(), "cases": cases, "nn_mean": arr(nn_loss), "x": x.tolist(),
           "prim": prim_cases}
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "ctc.json"), "w") as f:
        json.dump(out, f)


if __name__ == "__main__":
    main()
