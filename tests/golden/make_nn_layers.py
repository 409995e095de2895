"""Write tests/golden/nn_layers.json: nn layers and losses in MindSpore 2.10.

Run in the oracle venv: ``GLOG_v=3 ~/ms-oracle/bin/python tests/golden/make_nn_layers.py``.

For every case in ``CASES`` the Cell is built from its constructor string,
its Parameters are set (``set_data``) to fixed numpy values and it is called
on fixed numpy inputs (both stored in the JSON) in train or eval mode; the
JSON holds the outputs, the Parameter values after the call (moving
statistics) and the gradients, with respect to the float inputs and the
trainable Parameters, of ``sum(output_i * cotangent_i)`` for seeded
cotangents (stored too). ``run_case`` takes the framework module, so
``tests/nn/test_layers_golden.py`` runs the very same steps with msxla. The
JSON also holds constructor signatures, reprs, Parameter names and the
exceptions of invalid calls.
"""
import inspect
import json
import os
import sys
import zlib

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))

# name -> (constructor, inputs, options). Inputs: ("f", shape) normal floats, ("p", shape)
# floats in (0.05, 0.95), ("d", shape) rows of probabilities summing to 1, ("i", shape,
# high) int32 ids, ("bool", values), ("same", k) the k-th input again. Options: train
# (mode), kw (keyword inputs, same specs), call (other keywords), grad (input positions to
# differentiate; default every float input), scale (of the float inputs), grad_golden
# (False where MindSpore's CPU gradient is wrong).
F, P, D = "f", "p", "d"
CASES = {
    "dense": ("nn.Dense(4, 3)", [(F, (2, 4))], {}),
    "dense_3d_relu": ("nn.Dense(4, 3, activation='relu')", [(F, (2, 3, 4))], {}),
    "dense_nobias_tanh": ("nn.Dense(4, 3, has_bias=False, activation=nn.Tanh())",
                          [(F, (5, 4))], {}),
    "conv1d_same": ("nn.Conv1d(2, 3, 3, has_bias=True)", [(F, (2, 2, 7))], {}),
    "conv1d_pad_group": ("nn.Conv1d(2, 4, 3, stride=2, pad_mode='pad', padding=1, group=2)",
                         [(F, (1, 2, 8))], {}),
    "conv2d_same": ("nn.Conv2d(2, 3, 3, has_bias=True)", [(F, (2, 2, 5, 5))], {}),
    "conv2d_same_stride": ("nn.Conv2d(2, 3, 3, stride=2)", [(F, (1, 2, 6, 6))], {}),
    "conv2d_valid_dilation": ("nn.Conv2d(2, 4, 3, pad_mode='valid', dilation=2, group=2, "
                              "has_bias=True)", [(F, (1, 2, 7, 7))], {}),
    "conv2d_pad_tuple": ("nn.Conv2d(2, 3, (3, 2), stride=(2, 1), pad_mode='pad', "
                         "padding=(1, 0, 2, 1))", [(F, (1, 2, 6, 5))], {}),
    "conv3d_same": ("nn.Conv3d(2, 3, 2, has_bias=True)", [(F, (1, 2, 4, 4, 4))], {}),
    "conv3d_pad": ("nn.Conv3d(2, 2, 3, stride=2, pad_mode='pad', padding=1)",
                   [(F, (1, 2, 5, 5, 5))], {}),
    "convT_same": ("nn.Conv2dTranspose(2, 3, 3, stride=2, has_bias=True)",
                   [(F, (1, 2, 3, 3))], {}),
    "convT_valid": ("nn.Conv2dTranspose(2, 3, 3, stride=2, pad_mode='valid')",
                    [(F, (1, 2, 3, 4))], {}),
    "convT_pad_outpad": ("nn.Conv2dTranspose(2, 4, 3, stride=2, pad_mode='pad', padding=1, "
                         "output_padding=1, group=2, has_bias=True)", [(F, (1, 2, 3, 3))], {}),
    "bn1d_train": ("nn.BatchNorm1d(3)", [(F, (4, 3))], {"train": True}),
    "bn1d_eval_3d": ("nn.BatchNorm1d(3)", [(F, (4, 3, 5))], {}),
    "bn2d_train": ("nn.BatchNorm2d(3, momentum=0.8)", [(F, (2, 3, 2, 3))], {"train": True}),
    "bn2d_eval": ("nn.BatchNorm2d(3, eps=1e-3)", [(F, (2, 3, 2, 2))], {}),
    "bn2d_batch_stats_in_eval": ("nn.BatchNorm2d(3, use_batch_statistics=True)",
                                 [(F, (2, 3, 2, 2))], {}),
    "bn2d_global_stats_in_train": ("nn.BatchNorm2d(3, use_batch_statistics=False)",
                                   [(F, (2, 3, 2, 2))], {"train": True}),
    "bn2d_no_affine": ("nn.BatchNorm2d(2, affine=False)", [(F, (3, 2, 2, 2))], {"train": True}),
    "bn3d_train": ("nn.BatchNorm3d(2)", [(F, (2, 2, 2, 2, 3))], {"train": True}),
    "layernorm": ("nn.LayerNorm((4,))", [(F, (2, 3, 4))], {}),
    "layernorm_axis1": ("nn.LayerNorm((3, 4), begin_norm_axis=1, begin_params_axis=1, "
                        "epsilon=1e-5)", [(F, (2, 3, 4))], {}),
    "groupnorm": ("nn.GroupNorm(2, 4)", [(F, (2, 4, 3, 3))], {}),
    "embedding": ("nn.Embedding(6, 3)", [("i", (2, 4), 6)], {}),
    "embedding_onehot_pad": ("nn.Embedding(6, 3, use_one_hot=True, padding_idx=2)",
                             [("i", (5,), 6)], {}),
    "maxpool2d": ("nn.MaxPool2d(2, 2)", [(F, (1, 2, 5, 5))], {}),
    "maxpool2d_same": ("nn.MaxPool2d(3, 2, pad_mode='same')", [(F, (1, 2, 6, 5))], {}),
    "maxpool2d_pad_indices": ("nn.MaxPool2d(3, 2, pad_mode='pad', padding=1, ceil_mode=True, "
                              "return_indices=True)", [(F, (1, 2, 6, 6))], {}),
    "maxpool2d_unbatched": ("nn.MaxPool2d(2, 1)", [(F, (2, 4, 4))], {}),
    "maxpool1d": ("nn.MaxPool1d(2, 2)", [(F, (2, 3, 7))], {}),
    "avgpool2d": ("nn.AvgPool2d(2, 2)", [(F, (1, 2, 5, 5))], {}),
    "avgpool2d_same": ("nn.AvgPool2d(3, 2, pad_mode='same')", [(F, (1, 2, 6, 5))], {}),
    "avgpool2d_pad": ("nn.AvgPool2d(3, 2, pad_mode='pad', padding=1, count_include_pad=False)",
                      [(F, (1, 2, 5, 5))], {}),
    "avgpool2d_ceil": ("nn.AvgPool2d(2, 2, ceil_mode=True)", [(F, (1, 2, 5, 5))], {}),
    "avgpool1d": ("nn.AvgPool1d(3, 2)", [(F, (2, 3, 8))], {}),
    "adaptive_avg2d": ("nn.AdaptiveAvgPool2d((2, 3))", [(F, (1, 2, 5, 7))], {}),
    "adaptive_avg2d_none": ("nn.AdaptiveAvgPool2d((None, 2))", [(F, (1, 2, 3, 5))], {}),
    "adaptive_avg1d": ("nn.AdaptiveAvgPool1d(3)", [(F, (1, 2, 6))], {}),
    "adaptive_max2d": ("nn.AdaptiveMaxPool2d(2)", [(F, (1, 2, 5, 4))], {}),
    "flatten": ("nn.Flatten()", [(F, (2, 3, 4))], {}),
    "flatten_0_1": ("nn.Flatten(0, 1)", [(F, (2, 3, 4))], {}),
    "unflatten": ("nn.Unflatten(1, (2, 3))", [(F, (2, 6, 2))], {}),
    "identity": ("nn.Identity()", [(F, (2, 3))], {}),
    "dropout_eval": ("nn.Dropout(p=0.5)", [(F, (4, 5))], {}),
    "relu": ("nn.ReLU()", [(F, (3, 4))], {}),
    "relu6": ("nn.ReLU6()", [(F, (3, 4))], {"scale": 5.0}),
    "leakyrelu": ("nn.LeakyReLU(0.1)", [(F, (3, 4))], {}),
    "gelu_tanh": ("nn.GELU()", [(F, (3, 4))], {}),
    "gelu_exact": ("nn.GELU(False)", [(F, (3, 4))], {}),
    "silu": ("nn.SiLU()", [(F, (3, 4))], {}),
    "sigmoid": ("nn.Sigmoid()", [(F, (3, 4))], {}),
    "tanh": ("nn.Tanh()", [(F, (3, 4))], {}),
    "softmax_axis0": ("nn.Softmax(0)", [(F, (3, 4))], {}),
    "logsoftmax": ("nn.LogSoftmax()", [(F, (3, 4))], {}),
    "softmin": ("nn.Softmin()", [(F, (3, 4))], {}),
    "elu": ("nn.ELU()", [(F, (3, 4))], {}),
    "selu": ("nn.SeLU()", [(F, (3, 4))], {"grad_golden": False}),
    "celu": ("nn.CELU(2.0)", [(F, (3, 4))], {}),
    "prelu": ("nn.PReLU(3, 0.1)", [(F, (2, 3, 4))], {}),
    "hswish": ("nn.HSwish()", [(F, (3, 4))], {"scale": 3.0}),
    "hsigmoid": ("nn.HSigmoid()", [(F, (3, 4))], {"scale": 3.0}),
    "mish": ("nn.Mish()", [(F, (3, 4))], {}),
    "hardtanh": ("nn.Hardtanh(-0.5, 0.5)", [(F, (3, 4))], {}),
    "logsigmoid": ("nn.LogSigmoid()", [(F, (3, 4))], {}),
    "softsign": ("nn.Softsign()", [(F, (3, 4))], {}),
    "tanhshrink": ("nn.Tanhshrink()", [(F, (3, 4))], {}),
    "fastgelu": ("nn.FastGelu()", [(F, (3, 4))], {}),
    "softshrink": ("nn.SoftShrink(0.3)", [(F, (3, 4))], {}),
    "hshrink": ("nn.HShrink(0.3)", [(F, (3, 4))], {}),
    "glu": ("nn.GLU()", [(F, (3, 4))], {}),
    "threshold": ("nn.Threshold(0.1, 20.0)", [(F, (3, 4))], {}),
    "mha": ("nn.MultiheadAttention(4, 2)", [(F, (3, 2, 4)), (F, (5, 2, 4)), (F, (5, 2, 4))], {}),
    "mha_self_batch_first_masks": (
        "nn.MultiheadAttention(4, 2, batch_first=True)",
        [(F, (2, 5, 4)), ("same", 0), ("same", 0)],
        {"kw": {"key_padding_mask": ("bool", [[0, 0, 0, 1, 1], [0, 0, 0, 0, 1]]),
                "attn_mask": (F, (5, 5))}, "grad": []}),
    "mha_kdim_bias_kv_zero_attn": (
        "nn.MultiheadAttention(4, 2, kdim=3, vdim=5, add_bias_kv=True, add_zero_attn=True)",
        [(F, (3, 2, 4)), (F, (5, 2, 3)), (F, (5, 2, 5))],
        {"kw": {"attn_mask": ("bool", [[0, 0, 1, 0, 0]] * 3)},
         "call": {"average_attn_weights": False}}),
    "mha_unbatched_kpm": ("nn.MultiheadAttention(4, 4)", [(F, (3, 4)), (F, (5, 4)), (F, (5, 4))],
                          {"kw": {"key_padding_mask": ("bool", [0, 1, 0, 0, 1])}}),
    "mha_no_bias_3d_mask": (
        "nn.MultiheadAttention(4, 2, has_bias=False)",
        [(F, (3, 2, 4)), (F, (4, 2, 4)), (F, (4, 2, 4))],
        {"kw": {"attn_mask": (F, (4, 3, 4))}, "call": {"need_weights": False}}),
    "encoder_layer": ("nn.TransformerEncoderLayer(4, 2, 8, dropout=0.0)", [(F, (3, 2, 4))],
                      {"kw": {"src_key_padding_mask": ("bool", [[0, 0, 1], [0, 0, 0]])},
                       "train": True}),
    "encoder_layer_gelu_norm_first": (
        "nn.TransformerEncoderLayer(4, 2, 6, dropout=0.0, activation='gelu', norm_first=True, "
        "batch_first=True)", [(F, (2, 3, 4))], {"kw": {"src_mask": (F, (3, 3))}}),
    "encoder": ("nn.TransformerEncoder(nn.TransformerEncoderLayer(4, 2, 8, dropout=0.0), 2, "
                "norm=nn.LayerNorm((4,)))", [(F, (3, 2, 4))], {}),
    "decoder_layer": ("nn.TransformerDecoderLayer(4, 2, 8, dropout=0.0)",
                      [(F, (3, 2, 4)), (F, (5, 2, 4))],
                      {"kw": {"tgt_mask": (F, (3, 3)),
                              "memory_key_padding_mask": ("bool", [[0, 0, 0, 1, 1],
                                                                   [0, 0, 0, 0, 0]])}}),
    "decoder_norm_first": ("nn.TransformerDecoder(nn.TransformerDecoderLayer(4, 2, 6, "
                           "dropout=0.0, activation='gelu', norm_first=True, batch_first=True),"
                           " 2)", [(F, (2, 3, 4)), (F, (2, 5, 4))], {}),
    "transformer": ("nn.Transformer(4, 2, 1, 1, 8, dropout=0.0)",
                    [(F, (5, 2, 4)), (F, (3, 2, 4))], {"train": True}),
    # losses: the logits (position 0) are differentiated
    "mse": ("nn.MSELoss()", [(F, (3, 4)), (F, (3, 4))], {"grad": [0]}),
    "mse_sum": ("nn.MSELoss('sum')", [(F, (3, 4)), (F, (3, 4))], {"grad": [0]}),
    "mse_none": ("nn.MSELoss('none')", [(F, (3, 4)), (F, (3, 4))], {"grad": [0]}),
    "l1": ("nn.L1Loss()", [(F, (3, 4)), (F, (3, 4))], {"grad": [0]}),
    "smooth_l1": ("nn.SmoothL1Loss(0.5, 'mean')", [(F, (3, 4)), (F, (3, 4))], {"grad": [0]}),
    "smooth_l1_none": ("nn.SmoothL1Loss()", [(F, (3, 4)), (F, (3, 4))], {"grad": [0]}),
    "huber": ("nn.HuberLoss('sum', 0.7)", [(F, (3, 4)), (F, (3, 4))], {"grad": [0]}),
    "ce_indices": ("nn.CrossEntropyLoss(weight=ms.Tensor(np.array([0.2, 1.0, 0.7], "
                   "np.float32)), ignore_index=1)", [(F, (5, 3)), ("i", (5,), 3)], {}),
    "ce_indices_smoothing_sum": ("nn.CrossEntropyLoss(reduction='sum', label_smoothing=0.1)",
                                 [(F, (4, 3, 2)), ("i", (4, 2), 3)], {}),
    "ce_probs": ("nn.CrossEntropyLoss(label_smoothing=0.2)", [(F, (4, 3)), (D, (4, 3))],
                 {"grad": [0]}),
    "ce_probs_none": ("nn.CrossEntropyLoss(reduction='none')", [(F, (4, 3)), (P, (4, 3))],
                      {"grad": [0]}),
    "sce_sparse_mean": ("nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction='mean')",
                        [(F, (5, 4)), ("i", (5,), 4)], {}),
    "sce_sparse_sum": ("nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction='sum')",
                       [(F, (5, 4)), ("i", (5,), 4)], {}),
    "sce_dense_none": ("nn.SoftmaxCrossEntropyWithLogits()", [(F, (5, 4)), (D, (5, 4))],
                       {"grad": [0]}),
    "nll": ("nn.NLLLoss(weight=ms.Tensor(np.array([0.5, 1.0, 2.0], np.float32)), "
            "ignore_index=0)", [(F, (6, 3)), ("i", (6,), 3)], {}),
    "nll_sum": ("nn.NLLLoss(reduction='sum')", [(F, (6, 3)), ("i", (6,), 3)], {}),
    "bce": ("nn.BCELoss(weight=ms.Tensor(np.linspace(0.5, 2.0, 12).reshape(4, 3).astype("
            "np.float32)))",
            [(P, (4, 3)), (P, (4, 3))], {"grad": [0]}),
    "bce_none": ("nn.BCELoss(reduction='none')", [(P, (4, 3)), (P, (4, 3))], {"grad": [0]}),
    "bce_logits": ("nn.BCEWithLogitsLoss(weight=ms.Tensor(np.array([1.0, 2.0, 0.5], "
                   "np.float32)), pos_weight=ms.Tensor(np.array([3.0, 1.0, 0.5], np.float32)))",
                   [(F, (4, 3)), (P, (4, 3))], {"grad": [0]}),
    "bce_logits_sum": ("nn.BCEWithLogitsLoss('sum')", [(F, (4, 3)), (P, (4, 3))],
                       {"grad": [0]}),
    "kldiv_sum": ("nn.KLDivLoss('sum')", [(F, (4, 3)), (P, (4, 3))], {"grad": [0]}),
}

REPRS = [
    "nn.Dense(2, 3)", "nn.Dense(2, 3, has_bias=False, activation='relu')",
    "nn.Conv2d(2, 4, 3, has_bias=True, weight_init='normal', bias_init='zeros')",
    "nn.Conv2d(2, 4, (3, 2), stride=2, pad_mode='pad', padding=(1, 1, 2, 2), "
    "weight_init='ones')",
    "nn.Conv1d(2, 4, 3, weight_init='ones')", "nn.Conv3d(2, 4, 3, weight_init='ones')",
    "nn.Conv2dTranspose(2, 4, 3, weight_init='ones')",
    "nn.BatchNorm1d(3)", "nn.BatchNorm2d(3, momentum=0.8)", "nn.BatchNorm3d(3)",
    "nn.LayerNorm((4,))", "nn.GroupNorm(2, 4)", "nn.Embedding(5, 3)",
    "nn.MaxPool2d(2)", "nn.MaxPool2d(2, 2, pad_mode='pad', padding=1)", "nn.AvgPool2d(2, 2)",
    "nn.MaxPool1d(2)", "nn.AvgPool1d(2)", "nn.AdaptiveAvgPool2d((2, 2))",
    "nn.Dropout()", "nn.Dropout(p=0.2)", "nn.Dropout2d(0.3)", "nn.Flatten()", "nn.ReLU()",
    "nn.GELU()", "nn.PReLU()", "nn.Softmax()",
    "nn.MultiheadAttention(4, 2)", "nn.MultiheadAttention(4, 2, kdim=3, vdim=5, "
    "add_bias_kv=True)",
    "nn.TransformerEncoderLayer(4, 2, 8)",
    "nn.TransformerEncoder(nn.TransformerEncoderLayer(4, 2, 8), 2)",
    "nn.TransformerDecoderLayer(4, 2, 8)",
    "nn.MSELoss()", "nn.CrossEntropyLoss()", "nn.SoftmaxCrossEntropyWithLogits()",
    "nn.WithLossCell(nn.Dense(2, 3), nn.MSELoss())",
    "nn.WithEvalCell(nn.Dense(2, 3), nn.MSELoss())",
    "nn.SequentialCell([nn.Dense(2, 3), nn.ReLU()])",
]

SIGNATURES = [
    "Dense", "Flatten", "Unflatten", "Identity", "Dropout", "Dropout1d", "Dropout2d", "Conv1d",
    "Conv2d", "Conv3d", "Conv2dTranspose", "BatchNorm1d", "BatchNorm2d", "BatchNorm3d",
    "LayerNorm", "GroupNorm", "Embedding", "MaxPool1d", "MaxPool2d", "AvgPool1d", "AvgPool2d",
    "AdaptiveAvgPool1d", "AdaptiveAvgPool2d", "AdaptiveMaxPool2d", "ReLU", "ReLU6", "LeakyReLU",
    "GELU", "FastGelu", "SiLU", "Sigmoid", "Tanh", "Softmax", "LogSoftmax", "Softmin", "ELU",
    "SeLU", "CELU", "PReLU", "HSwish", "HSigmoid", "Mish", "Hardtanh", "LogSigmoid", "Softsign",
    "Tanhshrink", "SoftShrink", "HShrink", "GLU", "Threshold", "MultiheadAttention",
    "TransformerEncoderLayer", "TransformerEncoder", "TransformerDecoderLayer",
    "TransformerDecoder", "Transformer", "LossBase", "L1Loss", "MSELoss", "MAELoss",
    "RMSELoss", "SmoothL1Loss", "HuberLoss", "SoftMarginLoss", "KLDivLoss",
    "SoftmaxCrossEntropyWithLogits", "NLLLoss", "CrossEntropyLoss", "BCELoss",
    "BCEWithLogitsLoss", "WithLossCell", "WithEvalCell", "WithGradCell", "ForwardValueAndGrad",
    "TrainOneStepCell", "ParameterUpdate",
]

ERRORS = [
    "nn.CrossEntropyLoss()(f(2, 3), ms.Tensor(np.array([0, 1], np.int64)))",
    "nn.CrossEntropyLoss()(f(2, 3), f(2, 4))",
    "nn.CrossEntropyLoss()(f(2, 3), f(2))",
    "nn.CrossEntropyLoss()(ms.Tensor(np.ones((2, 3)), ms.float64), f(2, 3))",
    "nn.CrossEntropyLoss(label_smoothing=1)", "nn.CrossEntropyLoss(label_smoothing=1.5)",
    "nn.CrossEntropyLoss(weight=ms.Tensor(np.ones(3), ms.float64))",
    "nn.NLLLoss(ignore_index=1.0)", "nn.LossBase('foo')", "nn.MSELoss('foo')",
    "nn.SoftmaxCrossEntropyWithLogits(sparse=1)",
    "nn.Embedding(5, 3, padding_idx=5)", "nn.Dense(2, 3)(f(4, 3))", "nn.Dense(0, 3)",
    "nn.Dense(2, 3, activation=1)", "nn.Dropout(keep_prob=1)", "nn.Dropout(keep_prob=0.0)",
    "nn.Dropout(p=1.0)", "nn.Conv2d(3, 4, 3, group=2)", "nn.Conv2d(3, 4, 3, padding=1)",
    "nn.Conv2d(3, 4, 3)(f(1, 2, 5, 5))", "nn.BatchNorm2d(3)(f(2, 3, 4))",
    "nn.BatchNorm1d(3)(f(2, 3, 4, 5))", "nn.BatchNorm2d(0)", "nn.BatchNorm2d(3, momentum=1.5)",
    "nn.LayerNorm(4)", "nn.GroupNorm(3, 4)", "nn.MaxPool2d(2, pad_mode='foo')",
    "nn.MaxPool2d(2, padding=1)", "nn.MultiheadAttention(5, 2)",
    "nn.TransformerEncoderLayer(4, 2, 8, activation='tanh')",
    "nn.TrainOneStepCell(nn.WithLossCell(nn.Dense(2, 3), nn.MSELoss()), "
    "nn.SGD(nn.Dense(2, 3).trainable_params()), sens=0)",
    "nn.GELU(approximate='tanh')", "nn.Flatten(3)(f(2, 3))",
    "nn.Conv2d(3, 4, 3, data_format='NHWC')", "nn.Conv2d(3, 4, 3, data_format='foo')",
    "nn.BatchNorm2d(3, data_format='NHWC')", "nn.MaxPool2d(2, data_format='NHWC')",
    "nn.Conv1d(3, 4, 3, padding=1)", "nn.Conv3d(3, 4, 3, padding=1)",
    "nn.Conv1d(3, 4, 3)(f(1, 2, 5))", "nn.Conv3d(3, 4, 3)(f(1, 2, 5, 5, 5))",
    "nn.Conv3d(3, 4, 3, group=2)", "nn.Conv2d(3, 4, 3)(f(2, 5, 5))",
    "nn.Conv2d(3, 4, 3, pad_mode='foo')", "nn.Conv2d(3, 3, 3, group=3)(f(1, 2, 5, 5))",
]


def _seed(name):
    return zlib.crc32(name.encode())


def _array(rng, spec, scale):
    kind = spec[0]
    if kind == "f":
        return (rng.standard_normal(spec[1]) * scale).astype(np.float32)
    if kind == "p":
        return rng.uniform(0.05, 0.95, spec[1]).astype(np.float32)
    if kind == "d":
        p = rng.uniform(0.05, 1.0, spec[1])
        return (p / p.sum(-1, keepdims=True)).astype(np.float32)
    if kind == "i":
        return rng.integers(0, spec[2], spec[1]).astype(np.int32)
    if kind == "i64":
        return rng.integers(0, spec[2], spec[1]).astype(np.int64)
    if kind == "bool":
        return np.asarray(spec[1], bool)
    if kind == "int":  # fixed int32 values (sequence lengths)
        return np.asarray(spec[1], np.int32)
    if kind == "float":  # fixed float32 values (labels, scalars)
        return np.asarray(spec[1], np.float32)
    raise ValueError(spec)


def build(ms, name, cases=None):
    """The Cell of case ``name``: its constructor is a string (evaluated with ``nn``, ``ms``
    and ``np``) or a function of the framework module."""
    np.random.seed(0)
    ctor = (cases or CASES)[name][0]
    if callable(ctor):
        return ctor(ms)
    return eval(ctor, {"nn": ms.nn, "ms": ms, "np": np})  # noqa: S307 - fixed


def _outputs(out):
    """The outputs as one flat tuple (nested tuples such as LSTM's ``(h, c)`` flattened)."""
    if not isinstance(out, tuple):
        return (out,)
    return tuple(leaf for o in out for leaf in _outputs(o))


def _prepare(ms, name, params, args_data, kw_data, cases=None):
    """The Cell of case ``name`` with ``params`` set, in its mode, and its call arguments."""
    _, inputs, opts = (cases or CASES)[name]
    net = build(ms, name, cases)
    for pname, p in net.parameters_and_names():
        p.set_data(ms.Tensor(np.asarray(params[pname], np.float32)))
    net.set_train(bool(opts.get("train", False)))
    args = []
    for spec, value in zip(inputs, args_data):
        args.append(args[spec[1]] if spec[0] == "same" else ms.Tensor(np.asarray(value)))
    kw = {k: ms.Tensor(np.asarray(v)) for k, v in kw_data.items()}
    kw.update(opts.get("call", {}))
    return net, args, kw


def make_data(ms, name, cases=None):
    """Numpy Parameter values, inputs and output cotangents of case ``name`` (seeded by its
    name; the cotangents' shapes come from one forward call)."""
    _, inputs, opts = (cases or CASES)[name]
    rng = np.random.default_rng(_seed(name))
    net = build(ms, name, cases)
    params = {}
    for pname, p in net.parameters_and_names():
        if "variance" in pname:
            params[pname] = rng.uniform(0.5, 1.5, p.shape).astype(np.float32)
        else:
            params[pname] = (rng.standard_normal(p.shape) * 0.5).astype(np.float32)
    args = [_array(rng, s, opts.get("scale", 1.0)) if s[0] != "same" else None for s in inputs]
    kw = {k: _array(rng, s, 1.0) for k, s in opts.get("kw", {}).items()}
    net, call_args, call_kw = _prepare(ms, name, params, args, kw, cases)
    rng = np.random.default_rng(_seed(name) + 1)
    cots = [rng.standard_normal(o.shape).astype(np.float32) if o.dtype == ms.float32 else None
            for o in _outputs(net(*call_args, **call_kw))]
    return {"params": params, "args": args, "kw": kw, "cots": cots}


def run_case(ms, name, data, mode="eager", cases=None):
    """``{"out", "state", "grads_in", "grads_w", "param_names"}`` of case ``name``.

    One call of ``value_and_grad`` of ``sum(output_i * cotangent_i)`` (with the outputs
    as aux) gives the outputs, the Parameters after the call (one forward pass, so one
    update of moving statistics) and the gradients with respect to the float inputs and
    the trainable Parameters. ``mode``: 'eager', 'jit' (that call under
    ``ms.jit(capture_mode='trace')``) or 'forward' (a plain call, no gradients)."""
    _, inputs, opts = (cases or CASES)[name]
    net, args, kw = _prepare(ms, name, data["params"], data["args"], data["kw"], cases)
    result = {"param_names": [n for n, _ in net.parameters_and_names()],
              "grads_in": None, "grads_w": None}
    if mode == "forward" or not opts.get("grad_golden", True):
        outs = _outputs(net(*args, **kw))
    else:
        cots = [None if c is None else ms.Tensor(np.asarray(c, np.float32))
                for c in data["cots"]]
        positions = opts.get("grad", [i for i, s in enumerate(inputs)
                                      if s[0] in ("f", "p", "d")])
        weights = net.trainable_params()

        def fn(*xs):
            res = _outputs(net(*xs, **kw))
            total = sum((r * c).sum() for r, c in zip(res, cots) if c is not None)
            return (total,) + res

        gp = tuple(positions) if positions else None
        value_and_grad = ms.value_and_grad(fn, gp, weights if weights else None,
                                           has_aux=True)
        if mode == "jit":
            value_and_grad = ms.jit(value_and_grad, capture_mode="trace")
        values, grads = value_and_grad(*args)
        outs = values[1:]
        if gp is not None and weights:
            g_in, g_w = grads
        elif gp is not None:
            g_in, g_w = grads, ()
        else:
            g_in, g_w = (), grads
        by_id = {id(p): n for n, p in net.parameters_and_names()}
        result["grads_in"] = [g.asnumpy() for g in _outputs(g_in)]
        result["grads_w"] = {by_id[id(p)]: g.asnumpy() for p, g in zip(weights, g_w)}
    result["out"] = [o.asnumpy() for o in outs]
    result["state"] = {n: p.asnumpy() for n, p in net.parameters_and_names()}
    return result


def run_error(ms, code):
    """``{"exc": type name, "message": first line}`` of evaluating ``code``."""
    def f(*shape):
        return ms.Tensor(np.ones(shape, np.float32))
    try:
        eval(code, {"nn": ms.nn, "ms": ms, "np": np, "f": f})  # noqa: S307 - fixed strings
    except Exception as err:  # noqa: BLE001 - the exception is the golden
        return {"exc": type(err).__name__, "message": str(err).split("\n")[0]}
    return {"exc": None, "message": ""}


def signature(ms, cls_name):
    """``[[name, repr(default) or None], ...]`` of the constructor (``self`` left out)."""
    sig = inspect.signature(getattr(ms.nn, cls_name).__init__)
    return [[p.name, None if p.default is p.empty else repr(p.default), str(p.kind)]
            for p in list(sig.parameters.values())[1:]]


def describe(ms, code):
    cell = eval(code, {"nn": ms.nn, "ms": ms, "np": np})  # noqa: S307 - fixed strings
    return {"repr": repr(cell), "params": [[n, p.name, list(p.shape), p.requires_grad]
                                           for n, p in cell.parameters_and_names()]}


def _listify(tree):
    if isinstance(tree, dict):
        return {k: _listify(v) for k, v in tree.items()}
    if isinstance(tree, (list, tuple)):
        return [_listify(v) for v in tree]
    if isinstance(tree, np.ndarray):
        return {"dtype": str(tree.dtype), "shape": list(tree.shape),
                "value": tree.astype(np.float64).tolist()}
    return tree


def write_golden(ms, path, cases, errors=(), reprs=(), signatures=()):
    """Run every case, error, repr and signature with MindSpore and write them to ``path``
    (the other ``make_nn_*.py`` scripts call this with their own tables)."""
    out_cases = {}
    for name in cases:
        data = make_data(ms, name, cases)
        try:
            res = run_case(ms, name, data, cases=cases)
        except RuntimeError as err:  # a gradient MindSpore's CPU build lacks: no golden
            print(f"{name}: no gradient golden ({str(err).splitlines()[0]})")
            res = run_case(ms, name, data, mode="forward", cases=cases)
        out_cases[name] = {"data": _listify(data), "result": _listify(res)}
        print(name, [o.shape for o in res["out"]])
    out = {"mindspore": ms.__version__, "cases": out_cases,
           "errors": {code: run_error(ms, code) for code in errors},
           "reprs": {code: describe(ms, code) for code in reprs},
           "signatures": {c: signature(ms, c) for c in signatures}}
    with open(path, "w") as fh:
        json.dump(out, fh, sort_keys=True)


def main():
    import mindspore as ms
    write_golden(ms, os.path.join(HERE, "nn_layers.json"), CASES, ERRORS, REPRS, SIGNATURES)


if __name__ == "__main__":
    sys.exit(main())
