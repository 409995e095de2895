"""Write tests/golden/loss_scale.json: loss scaling in MindSpore 2.10.

Run in the oracle venv: ``GLOG_v=3 ~/ms-oracle/bin/python tests/golden/make_loss_scale.py``.

``TrainOneStepWithLossScaleCell`` with ``DynamicLossScaleUpdateCell`` /
``FixedLossScaleUpdateCell`` trains an MLP (fixed weights) for 6 steps where
steps 2 and 4 get inputs of 1e30 (their gradients overflow), in PyNative and
GRAPH_MODE, in float32 and with the network in float16 (``O3``; MindSpore's CPU
kernels have no bfloat16 MatMul, so bfloat16 is checked against these in the test);
each step's (loss, overflow, scale) and the final Parameters are stored.
MindSpore's CPU kernels cannot read the NPU overflow status its default CPU
path asks for, so the cell here checks overflow with MindSpore's own
inf/nan-mode check (``_get_distributed_overflow_status_on_infnan_mode`` with
``IsFinite``, the Ascend 910B path): the same rule, any non-finite gradient.
Also stored: ``DynamicLossScaleManager.update_loss_scale``, ``amp.DynamicLossScaler``
and ``amp.all_finite`` on fixed flags, and ``Model`` with
``FixedLossScaleManager(drop_overflow_update=False)``.
"""
import json
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
OVERFLOW_STEPS = (1, 3)
CASES = [("dynamic", "float32"), ("fixed", "float32"), ("dynamic", "float16")]


def make_data():
    rng = np.random.default_rng(5)
    return {"x": rng.standard_normal((6, 8, 4)).astype(np.float32),
            "y": rng.standard_normal((6, 8, 3)).astype(np.float32),
            "w1": (rng.standard_normal((6, 4)) * 0.5).astype(np.float32),
            "b1": (rng.standard_normal(6) * 0.1).astype(np.float32),
            "w2": (rng.standard_normal((3, 6)) * 0.5).astype(np.float32),
            "b2": (rng.standard_normal(3) * 0.1).astype(np.float32)}


def _cell_class(ms):
    if ms.__name__ != "mindspore":
        return ms.nn.TrainOneStepWithLossScaleCell
    from mindspore.nn.wrap import loss_scale as LS

    class Cell(ms.nn.TrainOneStepWithLossScaleCell):
        def get_overflow_status(self, status, compute_output):
            return self._get_distributed_overflow_status_on_infnan_mode(
                LS._ascend_grad_overflow, compute_output)
    return Cell


def make_net(ms, data):
    nn = ms.nn
    net = nn.SequentialCell([nn.Dense(4, 6), nn.ReLU(), nn.Dense(6, 3)])
    params = dict(net.parameters_and_names())
    for key, name in (("w1", "0.weight"), ("b1", "0.bias"), ("w2", "2.weight"),
                      ("b2", "2.bias")):
        params[name].set_data(ms.Tensor(np.asarray(data[key], np.float32)))
    return net


def run(ms, data, kind, dtype, graph):
    """Steps of a loss-scaled training cell: ``[(loss, overflow, scale)], params``."""
    ms.set_context(mode=ms.GRAPH_MODE if graph else ms.PYNATIVE_MODE)
    net = make_net(ms, data)
    if dtype != "float32":
        net = ms.amp.auto_mixed_precision(net, "O3", getattr(ms, dtype))
    loss = ms.nn.WithLossCell(net, ms.nn.MSELoss())
    opt = ms.nn.Momentum(net.trainable_params(), 0.01, 0.9)
    if kind == "dynamic":
        update = ms.nn.DynamicLossScaleUpdateCell(loss_scale_value=2 ** 12, scale_factor=2,
                                                  scale_window=2)
    else:
        update = ms.nn.FixedLossScaleUpdateCell(2 ** 10)
    cell = _cell_class(ms)(loss, opt, scale_sense=update)
    steps = []
    x, y = np.asarray(data["x"], np.float32), np.asarray(data["y"], np.float32)
    for i in range(6):
        xi = np.full_like(x[i], 1e30) if i in OVERFLOW_STEPS else x[i]
        out = cell(ms.Tensor(xi), ms.Tensor(y[i]))
        steps.append([float(out[0].asnumpy()), bool(out[1].asnumpy()),
                      float(cell.scale_sense.asnumpy())])
    params = {p.name: p.asnumpy().astype(np.float32).tolist() for p in cell.get_parameters()}
    return {"steps": steps, "params": params}


def managers(ms):
    m = ms.train.DynamicLossScaleManager(init_loss_scale=16, scale_factor=2, scale_window=3)
    seq = []
    for flag in (False, False, False, True, False, False, True, True, False, False, False):
        m.update_loss_scale(flag)
        seq.append(m.get_loss_scale())
    scaler = ms.amp.DynamicLossScaler(1024, 2, 2)
    scales = []
    for flag in (True, True, True, False, True, True, True):
        scaler.adjust(ms.Tensor(flag))
        scales.append([float(scaler.scale_value.asnumpy()), int(scaler.counter.asnumpy())])
    g = (ms.Tensor(np.array([2.0, 4.0], np.float16)), ms.Tensor(np.array([3.0], np.float32)))
    scaled = [t.asnumpy().tolist() for t in scaler.scale(g)]
    unscaled = [t.asnumpy().tolist() for t in scaler.unscale(g)]
    finite = [bool(ms.amp.all_finite(g).asnumpy()),
              bool(ms.amp.all_finite((ms.Tensor(np.array([1.0, np.inf], np.float32)),)
                                     ).asnumpy()),
              bool(ms.amp.all_finite((ms.Tensor(np.array([np.nan], np.float16)),)).asnumpy())]
    return {"manager": seq, "scaler": scales, "scaled": scaled, "unscaled": unscaled,
            "finite": finite}


def run_model(ms, data):
    """``Model`` with ``FixedLossScaleManager(128, drop_overflow_update=False)``."""
    ms.set_context(mode=ms.PYNATIVE_MODE)
    net = make_net(ms, data)
    opt = ms.nn.Momentum(net.trainable_params(), 0.01, 0.9, loss_scale=128.0)
    manager = ms.train.FixedLossScaleManager(128.0, drop_overflow_update=False)
    model = ms.train.Model(net, ms.nn.MSELoss(), opt, loss_scale_manager=manager)
    x, y = np.asarray(data["x"], np.float32), np.asarray(data["y"], np.float32)
    losses = []

    class Rec(ms.train.Callback):
        def on_train_step_end(self, run_context):
            losses.append(float(run_context.original_args().net_outputs.asnumpy()))
    batches = [(x[i], y[i]) for i in range(6)]
    if ms.__name__ == "mindspore":
        import mindspore.dataset as ds
        batches = ds.NumpySlicesDataset({"x": x, "y": y}, shuffle=False)
    model.train(1, batches, callbacks=[Rec()])
    return {"losses": losses, "train_network": type(model.train_network).__name__,
            "params": {p.name: p.asnumpy().tolist() for p in net.get_parameters()}}


def main():
    import mindspore as ms
    data = make_data()
    out = {"cases": {}, "data": {k: v.tolist() for k, v in data.items()}}
    for kind, dtype in CASES:
        for graph in (False, True):
            name = f"{kind}_{dtype}_{'graph' if graph else 'pynative'}"
            out["cases"][name] = run(ms, data, kind, dtype, graph)
            print(name, out["cases"][name]["steps"])
    out["managers"] = managers(ms)
    out["model"] = run_model(ms, data)
    print(out["managers"], out["model"]["losses"])
    with open(os.path.join(HERE, "loss_scale.json"), "w") as fh:
        json.dump(out, fh, sort_keys=True)


if __name__ == "__main__":
    sys.exit(main())
