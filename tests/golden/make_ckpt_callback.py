"""Write tests/golden/ckpt_callback.json: ``ModelCheckpoint`` file names and contents.

Run in the oracle venv: ``GLOG_v=3 ~/ms-oracle/bin/python tests/golden/make_ckpt_callback.py``.

The MLP of ``make_model_train`` is trained for 2 epochs of 4 steps in PyNative
(GRAPH_MODE also writes ``<prefix>-graph.meta``, MindSpore's MindIR graph, which
msxla does not have) under several ``CheckpointConfig``s, each in a fresh
directory; the JSON holds the checkpoint files left after training (rotation),
the Parameter names and appended entries of the last file, and the
breakpoint file ``exception_save`` writes when a callback raises.
``scenario(ms, name, directory)`` runs one configuration with either framework.
"""
import json
import os
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import make_model_train as M  # noqa: E402

SCENARIOS = ("default", "steps3_max2", "collision", "append_info", "exception_save",
             "saved_network", "per_minutes", "async", "prefix_fn")


def _config(ms, name, net):
    C = ms.train.CheckpointConfig
    return {
        "default": lambda: C(),
        "steps3_max2": lambda: C(save_checkpoint_steps=3, keep_checkpoint_max=2),
        "collision": lambda: C(save_checkpoint_steps=3, keep_checkpoint_max=2),
        "append_info": lambda: C(save_checkpoint_steps=4, append_info=[
            "epoch_num", "step_num", {"lr": 0.01, "tag": "mlp"}]),
        "exception_save": lambda: C(save_checkpoint_steps=2, exception_save=True,
                                    append_info=["epoch_num", "step_num"]),
        "saved_network": lambda: C(save_checkpoint_steps=4, saved_network=net),
        "per_minutes": lambda: C(save_checkpoint_steps=2, keep_checkpoint_max=0,
                                 keep_checkpoint_per_n_minutes=1),
        "async": lambda: C(save_checkpoint_steps=2, keep_checkpoint_max=3, async_save=True),
        "prefix_fn": lambda: C(save_checkpoint_steps=4),
    }[name]()


def _describe(ms, path):
    values = ms.load_checkpoint(path)
    out = {}
    for key, value in sorted(values.items()):
        if isinstance(value, str):
            out[key] = value
        else:
            arr = value.asnumpy()
            out[key] = arr.tolist() if arr.size == 1 else list(arr.shape)
    return out


_MODELS = {}


def _model(ms):
    """A fresh Model in MindSpore; in msxla one Model (compiled once) reset to its first
    Parameters each time (MindSpore's PyNative optimizer keeps updating the buffer it
    held before a ``set_data`` of its step counter, so it is rebuilt there)."""
    if ms.__name__ not in _MODELS or ms.__name__ == "mindspore":
        weights = json.load(open(os.path.join(HERE, "model_train.json")))["weights"]["mlp"]
        model, net = M.make_model(ms, "mlp", weights)
        start = {p.name: p.asnumpy().copy() for p in model.train_network.get_parameters()}
        _MODELS[ms.__name__] = (model, net, start)
    model, net, start = _MODELS[ms.__name__]
    for p in model.train_network.get_parameters():
        p.set_data(ms.Tensor(start[p.name]))
    return model, net


def scenario(ms, name, directory):
    """Train under one configuration; the files left in ``directory`` and the last one."""
    ms.set_context(mode=ms.PYNATIVE_MODE)
    data = M.make_data()["mlp"]
    model, net = _model(ms)
    config = _config(ms, name, net)
    prefix = (lambda cb: f"run_e{cb.cur_epoch_num}") if name == "prefix_fn" else "CKP"
    runs = 2 if name == "collision" else 1
    error = None
    for _ in range(runs):
        callbacks = [ms.train.ModelCheckpoint(prefix, directory, config)]
        if name == "exception_save":
            class Fail(ms.train.Callback):
                def on_train_step_end(self, run_context):
                    if run_context.original_args().cur_step_num == 3:
                        raise RuntimeError("stop at step 3")
            callbacks.append(Fail())
        try:
            model.train(2, M.dataset(ms, data), callbacks=callbacks)
        except RuntimeError as err:
            error = str(err).splitlines()[0]
        latest = callbacks[0].latest_ckpt_file_name
    files = sorted(f for f in os.listdir(directory))
    out = {"files": files, "error": error,
           "latest": os.path.basename(latest) if latest else latest}
    if latest:
        out["latest_contents"] = _describe(ms, latest)
    breakpoints = [f for f in files if f.endswith("_breakpoint.ckpt")]
    if breakpoints:
        out["breakpoint_contents"] = _describe(ms, os.path.join(directory, breakpoints[0]))
    return out


def main():
    import mindspore as ms
    out = {}
    for name in SCENARIOS:
        with tempfile.TemporaryDirectory() as d:
            out[name] = scenario(ms, name, d)
            print(name, out[name]["files"], out[name]["error"])
    out["prefix_collision_files"] = None
    with open(os.path.join(HERE, "ckpt_callback.json"), "w") as fh:
        json.dump(out, fh, sort_keys=True, default=lambda v: np.asarray(v).tolist())


if __name__ == "__main__":
    sys.exit(main())
