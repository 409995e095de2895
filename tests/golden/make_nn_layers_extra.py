"""Write tests/golden/nn_layers_extra.json: more nn layers and losses of MindSpore 2.10.

Run in the oracle venv: ``GLOG_v=3 ~/ms-oracle/bin/python tests/golden/make_nn_layers_extra.py``.

Padding layers (``Pad``, ``ConstantPad``, ``ZeroPad2d``, ``ReflectionPad``,
``ReplicationPad``), ``Conv1dTranspose``, ``Conv3dTranspose``, ``Linear``,
``BiDense``, ``Upsample``, ``PixelShuffle`` / ``PixelUnshuffle``, ``ClipByNorm``,
``Norm``, ``Tril`` / ``Triu``, ``Roll``, ``OneHot``, the math Cells and the
margin, embedding, likelihood and overlap losses, run by
``make_nn_layers.run_case`` exactly as the other layer goldens (outputs, state,
gradients with respect to the inputs and Parameters), plus errors, reprs,
Parameter names and constructor signatures. ``InstanceNorm`` has no kernel in
MindSpore's CPU build: only its Parameters and repr are golden here; ``Roll``
has none either (both are checked against numpy in the test).
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import make_nn_layers  # noqa: E402

F, P = "f", "p"
SIGNS = ("float", [1, -1, 1, 1, -1, -1])  # labels of the ranking / embedding losses
CASES = {
    "pad_constant": ("nn.Pad(((1, 1), (2, 0)))", [(F, (2, 3))], {}),
    "pad_reflect": ("nn.Pad(((0, 0), (1, 2)), mode='REFLECT')", [(F, (2, 4))], {}),
    "pad_symmetric": ("nn.Pad(((1, 0), (0, 0), (2, 2)), mode='SYMMETRIC')", [(F, (2, 2, 3))], {}),
    "constant_pad1d": ("nn.ConstantPad1d((1, 2), 0.5)", [(F, (2, 3, 4))], {}),
    "constant_pad2d": ("nn.ConstantPad2d(1, -1.0)", [(F, (1, 2, 3, 3))], {}),
    "constant_pad3d": ("nn.ConstantPad3d((1, 0, 0, 1, 1, 1), 2.0)", [(F, (1, 1, 2, 2, 2))], {}),
    "zero_pad2d": ("nn.ZeroPad2d((1, 0, 2, 1))", [(F, (1, 2, 3, 3))], {}),
    "reflection_pad1d": ("nn.ReflectionPad1d((2, 1))", [(F, (2, 2, 4))], {}),
    "reflection_pad2d": ("nn.ReflectionPad2d(1)", [(F, (1, 2, 3, 4))], {}),
    "reflection_pad3d": ("nn.ReflectionPad3d((1, 1, 1, 0, 0, 1))", [(F, (1, 1, 2, 3, 3))], {}),
    "replication_pad1d": ("nn.ReplicationPad1d((1, 3))", [(F, (2, 3))], {}),
    "replication_pad2d": ("nn.ReplicationPad2d((1, 0, 2, 1))", [(F, (1, 2, 3, 3))], {}),
    "replication_pad3d": ("nn.ReplicationPad3d(1)", [(F, (1, 1, 2, 2, 2))], {}),
    "conv1d_transpose": ("nn.Conv1dTranspose(2, 3, 3, stride=2, has_bias=True)",
                         [(F, (2, 2, 5))], {}),
    "conv1d_transpose_pad": ("nn.Conv1dTranspose(2, 4, 3, stride=2, pad_mode='pad', padding=1, "
                             "group=2)", [(F, (1, 2, 4))], {}),
    "conv1d_transpose_valid": ("nn.Conv1dTranspose(3, 2, 2, pad_mode='valid', dilation=2)",
                               [(F, (1, 3, 4))], {}),
    "conv3d_transpose": ("nn.Conv3dTranspose(2, 3, 2, stride=2, has_bias=True)",
                         [(F, (1, 2, 2, 2, 2))], {}),
    "conv3d_transpose_pad": ("nn.Conv3dTranspose(2, 2, 3, stride=2, pad_mode='pad', padding=1, "
                             "output_padding=1)", [(F, (1, 2, 2, 3, 2))], {}),
    "linear": ("nn.Linear(4, 3)", [(F, (2, 4))], {}),
    "linear_3d_nobias": ("nn.Linear(4, 2, bias=False)", [(F, (2, 3, 4))], {}),
    "bidense": ("nn.BiDense(3, 4, 2)", [(F, (5, 3)), (F, (5, 4))], {}),
    "bidense_3d": ("nn.BiDense(2, 3, 4, has_bias=False)", [(F, (2, 3, 2)), (F, (2, 3, 3))], {}),
    "upsample_nearest": ("nn.Upsample(size=(4, 6))", [(F, (1, 2, 2, 3))], {}),
    "upsample_bilinear": ("nn.Upsample(scale_factor=(2.0, 1.5), mode='bilinear', "
                          "recompute_scale_factor=True)", [(F, (1, 1, 3, 4))], {}),
    "upsample_linear_corners": ("nn.Upsample(size=7, mode='linear', align_corners=True)",
                                [(F, (2, 2, 4))], {}),
    "pixel_shuffle": ("nn.PixelShuffle(2)", [(F, (1, 8, 2, 3))], {}),
    "pixel_unshuffle": ("nn.PixelUnshuffle(2)", [(F, (1, 2, 4, 6))], {}),
    "channel_shuffle": ("nn.ChannelShuffle(2)", [(F, (1, 4, 2, 2))], {}),
    "softmax2d": ("nn.Softmax2d()", [(F, (1, 3, 2, 2))], {}),
    "clip_by_norm": ("nn.ClipByNorm()", [(F, (3, 4)), ("float", 1.5)], {"grad": [0]}),
    "norm": ("nn.Norm(axis=1)", [(F, (3, 4))], {}),
    "norm_keep": ("nn.Norm(axis=(0, 2), keep_dims=True)", [(F, (2, 3, 4))], {}),
    "tril": ("nn.Tril()", [(F, (3, 4))], {}),
    "triu_k": ("nn.Triu()", [(F, (2, 3, 3))], {"call": {"k": -1}}),
    "reduce_logsumexp": ("nn.ReduceLogSumExp(1)", [(F, (3, 4))], {}),
    "reduce_logsumexp_keep": ("nn.ReduceLogSumExp((0, 2), keep_dims=True)", [(F, (2, 3, 2))], {}),
    "moments": ("nn.Moments(axis=1)", [(F, (3, 4))], {}),
    "moments_keep": ("nn.Moments(axis=(0, 2), keep_dims=True)", [(F, (2, 3, 4))], {}),
    "matmul_transpose": ("nn.MatMul(transpose_x2=True)", [(F, (2, 3, 4)), (F, (2, 5, 4))], {}),
    "lgamma": ("nn.LGamma()", [(P, (3, 4))], {"scale": 3.0}),
    "digamma": ("nn.DiGamma()", [(P, (3, 4))], {}),
    # losses: the scores are differentiated, the labels are not
    "margin_ranking": ("nn.MarginRankingLoss(0.2)", [(F, (6,)), (F, (6,)), SIGNS],
                       {"grad": [0, 1]}),
    "margin_ranking_none": ("nn.MarginRankingLoss(reduction='none')",
                            [(F, (6,)), (F, (6,)), SIGNS], {"grad": [0, 1]}),
    "hinge_embedding": ("nn.HingeEmbeddingLoss(0.5)", [(F, (6,)), SIGNS], {"grad": [0]}),
    "hinge_embedding_sum": ("nn.HingeEmbeddingLoss(reduction='sum')", [(F, (2, 3)),
                            ("float", [[1, -1, 1], [-1, -1, 1]])], {"grad": [0]}),
    "cosine_embedding": ("nn.CosineEmbeddingLoss(0.1)",
                         [(F, (4, 3)), (F, (4, 3)), ("float", [1, -1, -1, 1])],
                         {"grad": [0, 1]}),
    "triplet_margin": ("nn.TripletMarginLoss()", [(F, (3, 4)), (F, (3, 4)), (F, (3, 4))], {}),
    "triplet_margin_swap_p1": ("nn.TripletMarginLoss(p=1, swap=True, margin=0.5, "
                               "reduction='sum')", [(F, (3, 4)), (F, (3, 4)), (F, (3, 4))], {}),
    "multi_margin": ("nn.MultiMarginLoss()", [(F, (4, 3)), ("i64", (4,), 3)], {}),
    "multi_margin_p2_weight": ("nn.MultiMarginLoss(p=2, margin=0.5, reduction='sum', "
                               "weight=ms.Tensor(np.array([1.0, 0.5, 2.0], np.float32)))",
                               [(F, (4, 3)), ("i64", (4,), 3)], {}),
    "multilabel_soft_margin": ("nn.MultiLabelSoftMarginLoss()",
                               [(F, (3, 4)), ("float", [[1, 0, 1, 0], [0, 0, 1, 1],
                                                        [1, 1, 0, 0]])], {"grad": [0]}),
    "multilabel_margin": ("nn.MultilabelMarginLoss()",
                          [(F, (2, 4)), ("int", [[3, 0, -1, 1], [1, 2, 3, -1]])], {}),
    "gaussian_nll": ("nn.GaussianNLLLoss()", [(F, (3, 4)), (F, (3, 4)), (P, (3, 4))], {}),
    "gaussian_nll_full_sum": ("nn.GaussianNLLLoss(full=True, reduction='sum')",
                              [(F, (3, 4)), (F, (3, 4)), (P, (3, 1))], {}),
    "poisson_nll": ("nn.PoissonNLLLoss()", [(F, (3, 4)), (P, (3, 4))], {"grad": [0]}),
    "poisson_nll_full": ("nn.PoissonNLLLoss(log_input=False, full=True, reduction='none')",
                         [(P, (2, 3)), ("float", [[0.5, 2.0, 3.0], [1.0, 4.0, 0.0]])],
                         {"grad": [0]}),
    "focal_index": ("nn.FocalLoss(gamma=2.0)", [(F, (4, 3)), ("int", [[0], [2], [1], [2]])],
                    {}),
    "focal_onehot_weight": ("nn.FocalLoss(weight=ms.Tensor(np.array([1.0, 0.5, 2.0], "
                            "np.float32)), gamma=1.0)",
                            [(F, (2, 3, 2)), ("float", [[[1, 0], [0, 1], [0, 0]],
                                                        [[0, 0], [1, 0], [0, 1]]])],
                            {"grad": [0]}),
    "dice": ("nn.DiceLoss()", [(P, (3, 4)), ("float", [[1, 0, 1, 0], [0, 1, 1, 0],
                                                        [0, 0, 0, 1]])], {"grad": [0]}),
    "multiclass_dice": ("nn.MultiClassDiceLoss()", [(F, (3, 3)), ("float", [[1, 0, 0],
                                                                            [0, 1, 0],
                                                                            [0, 0, 1]])],
                        {"grad": [0]}),
}

ERRORS = [
    "nn.Pad([1, 2])", "nn.Pad(((1, 2, 3),))", "nn.Pad(((1, 1),), mode='EDGE')",
    "nn.ConstantPad1d((1, 2, 3), 0.0)", "nn.ConstantPad2d(1.5, 0.0)",
    "nn.ReflectionPad2d((1, 1))", "nn.ReflectionPad1d(2)(f(2, 3, 2))",
    "nn.ChannelShuffle(0)", "nn.ChannelShuffle(2.0)", "nn.Roll((1, 2), 0)",
    "nn.Range(0, 5, 0)", "nn.Linear(0, 3)", "nn.BiDense(2, 3, 4)(f(5, 3), f(5, 3))",
    "nn.GaussianNLLLoss(eps=0)", "nn.HingeEmbeddingLoss(margin='a')",
    "nn.CosineEmbeddingLoss(margin=2.0)", "nn.FocalLoss(gamma=2)",
    "nn.DiceLoss(smooth=-1.0)", "nn.MultiClassDiceLoss(activation='gelu')",
    "nn.InstanceNorm2d(0)", "nn.InstanceNorm2d(3, momentum=1.5)",
"nn.Conv3dTranspose(2, 3, 3, padding=(1, 1))",
]

REPRS = [
    "nn.InstanceNorm1d(3)", "nn.InstanceNorm2d(3, affine=False)", "nn.InstanceNorm3d(2)",
    "nn.Conv1dTranspose(2, 4, 3, has_bias=True, weight_init='normal', bias_init='zeros')",
    "nn.Conv3dTranspose(2, 4, 3, has_bias=True, weight_init='normal', bias_init='zeros')",
    "nn.Linear(3, 4)", "nn.BiDense(2, 3, 4)", "nn.Pad(((1, 1), (2, 0)))",
    "nn.ReflectionPad2d(1)", "nn.PixelShuffle(2)", "nn.MarginRankingLoss()",
]

SIGNATURES = ["Pad", "ConstantPad1d", "ZeroPad2d", "ReflectionPad3d", "ReplicationPad2d",
              "Conv1dTranspose", "Conv3dTranspose", "Linear", "BiDense", "Upsample",
              "PixelShuffle", "ClipByNorm", "Norm", "OneHot", "Roll", "InstanceNorm2d",
              "MarginRankingLoss", "GaussianNLLLoss", "TripletMarginLoss", "MultiMarginLoss",
              "PoissonNLLLoss", "FocalLoss", "DiceLoss", "MultiClassDiceLoss"]


def main():
    import json
    import mindspore as ms
    cases, missing = {}, []
    for name in CASES:  # cases whose op has no kernel in MindSpore's CPU build are left out
        try:
            make_nn_layers.make_data(ms, name, CASES)
            cases[name] = CASES[name]
        except RuntimeError as err:
            missing.append(name)
            print(f"{name}: no CPU kernel ({str(err).strip().splitlines()[-1][:80]})")
    path = os.path.join(HERE, "nn_layers_extra.json")
    make_nn_layers.write_golden(ms, path, cases, ERRORS, REPRS, SIGNATURES)
    with open(path) as fh:
        doc = json.load(fh)
    doc["no_cpu_kernel"] = missing
    with open(path, "w") as fh:
        json.dump(doc, fh, sort_keys=True)


if __name__ == "__main__":
    sys.exit(main())
