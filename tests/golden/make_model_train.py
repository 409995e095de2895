"""Write tests/golden/model_train.json: ``Model.train`` / ``fit`` / ``eval`` / ``predict``.

Run in the oracle venv: ``GLOG_v=3 ~/ms-oracle/bin/python tests/golden/make_model_train.py``.

An MLP and a small CNN (Conv2d, BatchNorm2d, ReLU, MaxPool2d, Dense) with fixed
weights are trained with ``Model(net, SoftmaxCrossEntropyWithLogits, Momentum,
metrics={"acc", "loss"})`` for 2 epochs over 4 batches, in PyNative and in
GRAPH_MODE, with a recording callback and ``LossMonitor``. The JSON holds every
step's loss, every final Parameter (optimizer state included), the metrics of
``Model.eval``, the ``Model.predict`` output, the printed lines, and the
sequence of callback stages with ``cb_params`` fields from ``Model.fit``.

MindSpore's CPU build runs ``dataset_sink_mode=True`` without sinking (it says
so); the sink goldens are therefore the per-step results of the same batches
in the same order (sink_size 2 for 4 epochs = 8 steps = 2 passes over the
data), which is what sink mode must compute. ``run`` takes the framework
module, so ``tests/train/test_model_golden.py`` runs the same code with msxla.
"""
import contextlib
import io
import json
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import make_training  # noqa: E402 - the nets and their fixed weights

NETS = ("mlp", "cnn")
BATCHES = 4
STAGES = ("on_train_begin", "on_train_epoch_begin", "on_train_step_begin", "on_train_step_end",
          "on_train_epoch_end", "on_train_end", "on_eval_begin", "on_eval_epoch_begin",
          "on_eval_step_begin", "on_eval_step_end", "on_eval_epoch_end", "on_eval_end")


def make_data(seed=7):
    rng = np.random.default_rng(seed)
    out = {}
    for kind in NETS:
        shape = (BATCHES * 6, 6) if kind == "mlp" else (BATCHES * 6, 1, 6, 6)
        out[kind] = {"x": rng.standard_normal(shape).astype(np.float32),
                     "y": rng.integers(0, 3, shape[0]).astype(np.int32)}
    return out


def dataset(ms, data):
    """The batches as MindSpore's NumpySlicesDataset gives them, or as a list for msxla."""
    x, y = np.asarray(data["x"], np.float32), np.asarray(data["y"], np.int32)
    if ms.__name__ == "mindspore":
        import mindspore.dataset as ds
        return ds.NumpySlicesDataset({"x": x, "y": y}, shuffle=False).batch(6)
    return [{"x": x[i:i + 6], "y": y[i:i + 6]} for i in range(0, len(x), 6)]


def make_model(ms, kind, weights, metrics=("acc", "loss")):
    net = make_training.make_net(ms, kind)
    for name, p in net.parameters_and_names():
        p.set_data(ms.Tensor(np.asarray(weights[name], np.float32)))
    loss = ms.nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    opt = ms.nn.Momentum(net.trainable_params(), learning_rate=0.05, momentum=0.9)
    return ms.train.Model(net, loss, opt, metrics=set(metrics)), net


def recorder(ms, log):
    """A callback that logs every stage with the cb_params fields scripts read."""
    class Recorder(ms.train.Callback):
        pass

    def make(stage):
        def hook(self, run_context):
            cb = run_context.original_args()
            out = cb.get("net_outputs")
            loss = None
            if out is not None and stage.endswith("step_end"):
                first = out[0] if isinstance(out, (tuple, list)) else out
                loss = float(np.mean(first.asnumpy()))
            log.append({"stage": stage, "epoch": cb.get("cur_epoch_num"),
                        "step": cb.get("cur_step_num"), "batch_num": cb.get("batch_num"),
                        "epoch_num": cb.get("epoch_num"), "mode": cb.get("mode"),
                        "sink": cb.get("dataset_sink_mode"), "loss": loss,
                        "metrics": {k: float(v) for k, v in (cb.get("metrics") or {}).items()},
                        "eval_results": {k: float(v) for k, v in
                                         (cb.get("eval_results") or {}).items()}})
        return hook
    for stage in STAGES:
        setattr(Recorder, stage, make(stage))
    return Recorder()


def run(ms, kind, data, weights, graph, sink=False, epochs=2, sink_size=-1):
    """Train ``kind``; returns losses per step, final Parameters, eval, predict, printed lines."""
    ms.set_context(mode=ms.GRAPH_MODE if graph else ms.PYNATIVE_MODE)
    model, net = make_model(ms, kind, weights)
    log = []
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        model.train(epochs, dataset(ms, data), callbacks=[recorder(ms, log),
                                                         ms.train.LossMonitor()],
                    dataset_sink_mode=sink, sink_size=sink_size)
    losses = [e["loss"] for e in log if e["stage"] == "on_train_step_end"]
    params = {p.name: p.asnumpy() for p in model.train_network.get_parameters()}
    metrics = model.eval(dataset(ms, data))
    pred = model.predict(ms.Tensor(np.asarray(data["x"], np.float32)[:6])).asnumpy()
    return {"losses": losses, "params": params, "eval": {k: float(v) for k, v in metrics.items()},
            "predict": pred, "printed": buf.getvalue().splitlines()}


def run_fit(ms, kind, data, weights):
    """``Model.fit`` with evaluation every epoch: the stages callbacks see, in order."""
    ms.set_context(mode=ms.PYNATIVE_MODE)
    model, _ = make_model(ms, kind, weights)
    log = []
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        model.fit(2, dataset(ms, data), dataset(ms, data), valid_frequency=1,
                  callbacks=[recorder(ms, log), ms.train.LossMonitor(2)])
    return {"stages": log, "printed": buf.getvalue().splitlines()}


def run_stop(ms, kind, data, weights):
    """``request_stop`` at step 3 of 2 epochs of 4 steps, and ``initial_epoch=1``."""
    ms.set_context(mode=ms.PYNATIVE_MODE)
    model, _ = make_model(ms, kind, weights)
    stops = []

    class Stop(ms.train.Callback):
        def on_train_step_end(self, run_context):
            cb = run_context.original_args()
            stops.append([cb.cur_epoch_num, cb.cur_step_num])
            if cb.cur_step_num == 3:
                run_context.request_stop()
    model.train(2, dataset(ms, data), callbacks=[Stop()])
    resumed = []

    class Seen(ms.train.Callback):
        def on_train_step_end(self, run_context):
            cb = run_context.original_args()
            resumed.append([cb.cur_epoch_num, cb.cur_step_num, cb.epoch_num])
    model.train(3, dataset(ms, data), callbacks=[Seen()], initial_epoch=1)
    return {"stopped": stops, "resumed": resumed}


def run_callbacks(ms, data, weights):
    """History, LearningRateScheduler, ReduceLROnPlateau and EarlyStopping in one fit."""
    ms.set_context(mode=ms.PYNATIVE_MODE)
    model, _ = make_model(ms, "mlp", weights)
    history = ms.train.History()
    lrs = []

    def schedule(lr, step):
        lrs.append([step, round(lr, 7)])
        return lr * 0.5 if step % 3 == 0 else lr
    plateau = ms.train.ReduceLROnPlateau(monitor="loss", patience=1, factor=0.5, verbose=True)
    stop = ms.train.EarlyStopping(monitor="acc", patience=2, verbose=True, mode="max")
    seen = []
    record = ms.train.LambdaCallback(on_train_epoch_end=lambda rc: seen.append(
        float(rc.original_args().optimizer.learning_rate.asnumpy())))
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        model.fit(6, dataset(ms, data), dataset(ms, data),
                  callbacks=[history, ms.train.LearningRateScheduler(schedule), plateau, stop,
                             record])
    return {"history": {k: [float(x) for x in v] for k, v in history.history.items()},
            "epochs": history.epoch, "lrs": lrs, "epoch_lr": seen,
            "stopped_epoch": stop.stopped_epoch, "best": float(stop.best),
            "printed": buf.getvalue().splitlines()}


def jsonable(value):
    if isinstance(value, dict):
        return {k: jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if isinstance(value, np.ndarray):
        return value.tolist()
    return value


def main():
    import mindspore as ms
    weights = make_training.make_data(ms)
    data = make_data()
    cases = {}
    for kind in NETS:
        w = weights[kind]["params"]
        for graph in (False, True):
            name = f"{kind}_{'graph' if graph else 'pynative'}"
            cases[name] = run(ms, kind, data[kind], w, graph)
            print(name, cases[name]["losses"])
        cases[f"{kind}_sink_equiv"] = run(ms, kind, data[kind], w, True, epochs=2)
    out = {"mindspore": ms.__version__, "cases": jsonable(cases),
           "fit": jsonable(run_fit(ms, "mlp", data["mlp"], weights["mlp"]["params"])),
           "stop": run_stop(ms, "mlp", data["mlp"], weights["mlp"]["params"]),
           "callbacks": run_callbacks(ms, data["mlp"], weights["mlp"]["params"]),
           "data": jsonable(data),
           "weights": {k: jsonable(weights[k]["params"]) for k in NETS}}
    with open(os.path.join(HERE, "model_train.json"), "w") as fh:
        json.dump(out, fh, sort_keys=True)


if __name__ == "__main__":
    sys.exit(main())
