"""Write tests/golden/optim.json: 5 training steps of each optimizer in MindSpore 2.10.

Run in the oracle venv: ``GLOG_v=3 ~/ms-oracle/bin/python tests/golden/make_optim.py``.

A tiny MLP (fixed numpy weights and data, stored in the JSON) is trained
with ``value_and_grad`` + ``optimizer(grads)`` in PyNative mode; the JSON
holds, per configuration, the loss of every step, the final Parameters and
the names of the optimizer's Parameters. ``make_net`` and ``make_optimizer``
take the framework module, so ``tests/nn/test_optim_golden.py`` builds the
very same network and optimizers with msxla. Lamb is not here: MindSpore's
CPU build has no Lamb kernel,
nor the Centralization kernel that ``grad_centralization`` needs.
"""
import json
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
STEPS = 5

# name -> (optimizer, kwargs); kwargs may hold the markers "GROUPS",
# "SCHEDULE", "LR_LIST" and "WD_CELL", turned into objects by make_optimizer.
CONFIGS = {
    "sgd": ("SGD", {"learning_rate": 0.1}),
    "sgd_momentum": ("SGD", {"learning_rate": 0.05, "momentum": 0.9, "dampening": 0.1}),
    "sgd_nesterov": ("SGD", {"learning_rate": 0.05, "momentum": 0.9, "nesterov": True}),
    "sgd_weight_decay": ("SGD", {"learning_rate": 0.1, "momentum": 0.5, "weight_decay": 0.05}),
    "sgd_loss_scale": ("SGD", {"learning_rate": 0.1, "loss_scale": 4.0, "weight_decay": 0.01}),
    "sgd_lr_list": ("SGD", {"learning_rate": "LR_LIST", "momentum": 0.9}),
    "momentum": ("Momentum", {"learning_rate": 0.05, "momentum": 0.9}),
    "momentum_nesterov_wd": ("Momentum", {"learning_rate": 0.05, "momentum": 0.9,
                                          "weight_decay": 0.01, "use_nesterov": True}),
    "momentum_groups": ("Momentum", {"params": "GROUPS", "learning_rate": 0.02,
                                     "momentum": 0.9, "weight_decay": 0.02}),
    "adam": ("Adam", {"learning_rate": 0.01}),
    "adam_nesterov": ("Adam", {"learning_rate": 0.01, "use_nesterov": True}),
    "adam_amsgrad_wd": ("Adam", {"learning_rate": 0.01, "use_amsgrad": True,
                                 "weight_decay": 0.05, "eps": 1e-6}),
    "adam_schedule": ("Adam", {"learning_rate": "SCHEDULE", "beta1": 0.8, "beta2": 0.99}),
    "adam_weight_decay": ("AdamWeightDecay", {"learning_rate": 0.01, "weight_decay": 0.1}),
    "adam_weight_decay_groups": ("AdamWeightDecay", {"params": "GROUPS", "learning_rate": 0.01,
                                                     "weight_decay": 0.05}),
    "adam_weight_decay_cell": ("AdamWeightDecay", {"learning_rate": 0.01,
                                                   "weight_decay": "WD_CELL"}),
    "rmsprop": ("RMSProp", {"learning_rate": 0.01}),
    "rmsprop_centered": ("RMSProp", {"learning_rate": 0.01, "momentum": 0.5, "centered": True,
                                     "epsilon": 1e-6, "weight_decay": 0.01}),
    "adagrad": ("Adagrad", {"learning_rate": 0.1, "accum": 0.2, "weight_decay": 0.01}),
    "adamax": ("AdaMax", {"learning_rate": 0.02, "weight_decay": 0.01}),
    "adadelta": ("Adadelta", {"learning_rate": 1.0, "rho": 0.8}),
    "asgd": ("ASGD", {"learning_rate": 0.1, "lambd": 0.01, "t0": 2.0}),
    "rprop": ("Rprop", {"learning_rate": 0.05, "etas": (0.4, 1.5), "step_sizes": (1e-4, 0.1)}),
    "rprop_groups": ("Rprop", {"params": "GROUPS", "learning_rate": 0.02}),
}


# Learning-rate schedules (Cells of the step), evaluated at steps 0..7.
SCHEDULES = {
    "exponential": "nn.ExponentialDecayLR(0.1, 0.9, 3)",
    "exponential_stair": "nn.ExponentialDecayLR(0.1, 0.9, 3, True)",
    "natural_exp": "nn.NaturalExpDecayLR(0.1, 0.5, 3)",
    "natural_exp_stair": "nn.NaturalExpDecayLR(0.1, 0.5, 3, True)",
    "inverse": "nn.InverseDecayLR(0.1, 0.5, 3)",
    "inverse_stair": "nn.InverseDecayLR(0.1, 0.5, 3, True)",
    "cosine": "nn.CosineDecayLR(0.01, 0.1, 5)",
    "polynomial": "nn.PolynomialDecayLR(0.1, 0.01, 5, 0.5)",
    "polynomial_update": "nn.PolynomialDecayLR(0.1, 0.01, 3, 2.0, True)",
    "warmup": "nn.WarmUpLR(0.1, 4)",
}

# Per-step learning-rate lists.
DYNAMIC_LR = {
    "piecewise": "nn.piecewise_constant_lr([2, 5, 10], [0.1, 0.05, 0.01])",
    "exponential": "nn.exponential_decay_lr(0.1, 0.9, 10, 2, 2)",
    "exponential_stair": "nn.exponential_decay_lr(0.1, 0.9, 10, 2, 2, True)",
    "natural_exp": "nn.natural_exp_decay_lr(0.1, 0.5, 10, 2, 2)",
    "natural_exp_stair": "nn.natural_exp_decay_lr(0.1, 0.5, 10, 2, 2, True)",
    "inverse": "nn.inverse_decay_lr(0.1, 0.5, 10, 2, 2)",
    "inverse_stair": "nn.inverse_decay_lr(0.1, 0.5, 10, 2, 2, True)",
    "cosine": "nn.cosine_decay_lr(0.01, 0.1, 10, 2, 3)",
    "polynomial": "nn.polynomial_decay_lr(0.1, 0.01, 10, 2, 3, 0.5)",
    "polynomial_update": "nn.polynomial_decay_lr(0.1, 0.01, 10, 2, 2, 2.0, True)",
    "warmup": "nn.warmup_lr(0.1, 10, 2, 3)",
}

# Invalid arguments: the exception type and message are the golden.
# ``p`` is a float32 Parameter named 'w'.
ERRORS = [
    "nn.SGD([p], momentum=-1.0)",
    "nn.SGD([p], momentum='a')",
    "nn.SGD([p], dampening=-0.5)",
    "nn.SGD([p], nesterov=True)",
    "nn.SGD([p], nesterov=1)",
    "nn.SGD([p], weight_decay=-0.1)",
    "nn.SGD([p], weight_decay=nn.WarmUpLR(0.1, 2))",
    "nn.SGD([p], learning_rate=-0.1)",
    "nn.SGD([p], learning_rate='a')",
    "nn.SGD([p], loss_scale=0.0)",
    "nn.SGD([p], loss_scale='a')",
    "nn.SGD([])",
    "nn.SGD(None)",
    "nn.SGD([p, 1])",
    "nn.SGD([{'params': [p], 'foo': 1}])",
    "nn.SGD([{'params': [p]}, {'params': [p]}])",
    "nn.SGD([{'params': [p]}, {'order_params': [p], 'lr': 0.1}])",
    "nn.SGD([p], learning_rate=ms.Tensor(np.ones((2, 2), np.float32)))",
    "nn.Momentum([p], 0.1, 1)",
    "nn.Momentum([p], 0.1, -0.5)",
    "nn.Momentum([p], 0.1, 0.9, use_nesterov=1)",
    "nn.Adam([p], beta1=1.0)",
    "nn.Adam([p], beta2=0)",
    "nn.Adam([p], eps=0.0)",
    "nn.Adam([p], use_amsgrad=1)",
    "nn.Adam([p], foo=True)",
    "nn.AdamWeightDecay([p], beta1=-0.1)",
    "nn.RMSProp([p], decay=-0.1)",
    "nn.RMSProp([p], epsilon=0.0)",
    "nn.RMSProp([p], centered=1)",
    "nn.Adagrad([p], accum=-0.1)",
    "nn.Adagrad([p], update_slots=1)",
    "nn.Lamb([p], 0.1, beta1=2.0)",
    "nn.AdaMax([p], beta1=1.5)",
    "nn.Adadelta([p], rho=1.5)",
    "nn.Adadelta([p], epsilon=-1.0)",
    "nn.ASGD([p], lambd=1)",
    "nn.Rprop([p], etas=[0.5, 1.2])",
    "nn.Rprop([p], etas=(0.5, 1.0))",
    "nn.Rprop([p], etas=(1.5, 1.2))",
    "nn.Rprop([p], step_sizes=(1.0, 0.1))",
    "nn.Rprop([p], step_sizes=(1.0,))",
    "nn.ExponentialDecayLR(0.1, 0.9, 0)",
    "nn.ExponentialDecayLR(1, 0.9, 2)",
    "nn.ExponentialDecayLR(0.1, -0.9, 2)",
    "nn.ExponentialDecayLR(0.1, 0.9, 2, 1)",
    "nn.CosineDecayLR(0.1, 0.01, 2)",
    "nn.CosineDecayLR(1, 2.0, 2)",
    "nn.PolynomialDecayLR(0.1, 1, 2, 0.5)",
    "nn.PolynomialDecayLR(0.1, 0.01, 2, -0.5)",
    "nn.WarmUpLR(1, 2)",
    "nn.WarmUpLR(0.1, 0)",
    "nn.piecewise_constant_lr([2, 1], [0.1, 0.2])",
    "nn.piecewise_constant_lr([2], [0.1, 0.2])",
    "nn.piecewise_constant_lr([2, 3], [0.1, 2])",
    "nn.exponential_decay_lr(0.1, 0.9, 0, 1, 1)",
    "nn.cosine_decay_lr(0.1, 0.01, 4, 1, 1)",
    "nn.polynomial_decay_lr(0.1, 0.01, 4, 1, 1, 0.5, 1)",
    "nn.warmup_lr(1, 4, 1, 1)",
]


def make_data():
    rng = np.random.default_rng(1234)
    f32 = np.float32
    return {
        "x": rng.standard_normal((8, 4)).astype(f32),
        "y": rng.standard_normal((8, 3)).astype(f32),
        "fc1.weight": (rng.standard_normal((4, 16)) * 0.5).astype(f32),
        "fc1.bias": (rng.standard_normal((16,)) * 0.1).astype(f32),
        "fc2.weight": (rng.standard_normal((16, 3)) * 0.3).astype(f32),
        "norm.gamma": (1 + rng.standard_normal((3,)) * 0.1).astype(f32),
        "norm.beta": (rng.standard_normal((3,)) * 0.1).astype(f32),
    }


PARAM_NAMES = ["fc1.weight", "fc1.bias", "fc2.weight", "norm.gamma", "norm.beta"]


def make_net(ms, data):
    """``(relu(x @ W1 + b1) @ W2) * gamma + beta`` with the given Parameter names."""
    nn, ops = ms.nn, ms.ops

    class MLP(nn.Cell):
        def __init__(self):
            super().__init__()
            self.params = [ms.Parameter(ms.Tensor(data[n]), name=n) for n in PARAM_NAMES]
            for i, p in enumerate(self.params):
                self.insert_param_to_cell(f"p{i}", p)

        def construct(self, x):
            w1, b1, w2, gamma, beta = self.params
            return ops.matmul(ops.relu(ops.matmul(x, w1) + b1), w2) * gamma + beta

    return MLP()


def make_optimizer(ms, net, name):
    nn = ms.nn
    cls_name, kwargs = CONFIGS[name]
    kwargs = dict(kwargs)
    params = net.trainable_params()
    if kwargs.pop("params", None) == "GROUPS":
        weights = [p for p in params if "weight" in p.name]
        others = [p for p in params if "weight" not in p.name]
        params = [{"params": weights, "lr": 0.05, "weight_decay": 0.01},
                  {"params": others},
                  {"order_params": net.trainable_params()}]
    if kwargs.get("learning_rate") == "SCHEDULE":
        kwargs["learning_rate"] = nn.ExponentialDecayLR(0.02, 0.8, 2)
    if kwargs.get("learning_rate") == "LR_LIST":
        kwargs["learning_rate"] = nn.cosine_decay_lr(0.01, 0.1, STEPS, 1, 3)
    if kwargs.get("weight_decay") == "WD_CELL":
        kwargs["weight_decay"] = nn.WarmUpLR(0.1, 3)
    return getattr(nn, cls_name)(params, **kwargs)


def train(ms, data, name):
    """``(losses, final params by name, sorted optimizer Parameter names, what opt returns)``."""
    net = make_net(ms, data)
    opt = make_optimizer(ms, net, name)
    x, y = ms.Tensor(data["x"]), ms.Tensor(data["y"])

    def forward(x, y):
        out = net(x)
        return ((out - y) ** 2).mean(), out

    grad_fn = ms.value_and_grad(forward, None, opt.parameters, has_aux=True)
    losses = []
    for _ in range(STEPS):
        (loss, _), grads = grad_fn(x, y)
        ret = opt(grads)
        losses.append(float(loss.asnumpy()))
    final = {p.name: p.asnumpy().tolist() for p in net.trainable_params()}
    names = sorted(p.name for p in opt.get_parameters())
    returned = [bool(r) for r in ret] if isinstance(ret, tuple) else bool(ret)
    return losses, final, names, returned


def run_error(ms, code):
    """``{"exc": type name, "message": first line}`` of evaluating ``code``."""
    p = ms.Parameter(ms.Tensor(np.ones((2, 3), np.float32)), name="w")
    try:
        eval(code, {"nn": ms.nn, "ms": ms, "np": np, "p": p})  # noqa: S307 - fixed strings
    except Exception as err:  # noqa: BLE001 - the exception is the golden
        return {"exc": type(err).__name__, "message": str(err).split("\n")[0]}
    return {"exc": None, "message": ""}


def schedule_values(ms, code):
    sched = eval(code, {"nn": ms.nn})  # noqa: S307 - fixed strings
    return [float(sched(ms.Tensor([s], ms.int32)).asnumpy()[0]) for s in range(8)]


def main():
    import mindspore as ms
    data = make_data()
    cases = {}
    for name in CONFIGS:
        losses, final, names, returned = train(ms, data, name)
        cases[name] = {"losses": losses, "params": final, "opt_param_names": names,
                       "returns": returned}
        print(name, losses)
    schedules = {k: schedule_values(ms, v) for k, v in SCHEDULES.items()}
    dynamic = {k: eval(v, {"nn": ms.nn}) for k, v in DYNAMIC_LR.items()}  # noqa: S307
    errors = {code: run_error(ms, code) for code in ERRORS}
    out = {"mindspore": ms.__version__, "steps": STEPS, "schedules": schedules,
           "dynamic_lr": dynamic, "errors": errors,
           "data": {k: v.tolist() for k, v in data.items()}, "cases": cases}
    with open(os.path.join(HERE, "optim.json"), "w") as fh:
        json.dump(out, fh, indent=1, sort_keys=True)


if __name__ == "__main__":
    sys.exit(main())
