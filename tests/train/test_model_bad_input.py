"""Bad input to ``Model``: datasets whose columns do not fit the network, a callback
that raises, a NaN loss with ``exception_save``; errors name the columns or the
callback, and no partial checkpoint file is ever left behind."""
import os

import numpy as np
import pytest

import msxla as ms
from msxla.train import _ckpt_format


def _model():
    net = ms.nn.Dense(4, 3)
    loss = ms.nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    return ms.train.Model(net, loss, ms.nn.SGD(net.trainable_params(), 0.1)), net


def _batches(n=3, features=4, nan_at=None):
    rng = np.random.default_rng(0)
    out = []
    for i in range(n):
        x = rng.standard_normal((5, features)).astype(np.float32)
        if i == nan_at:
            x[0, 0] = np.nan
        out.append({"image": x, "label": rng.integers(0, 3, 5).astype(np.int32)})
    return out


def test_too_many_columns_names_them():
    model, _ = _model()
    data = [dict(b, extra=np.zeros(5, np.float32)) for b in _batches()]
    with pytest.raises(ValueError, match=r"should return two elements, but got 3 \(columns "
                                         r"\['image', 'label', 'extra'\]\)"):
        model.train(1, data)


def test_a_column_of_the_wrong_shape_is_named():
    model, _ = _model()
    with pytest.raises(ValueError) as info:
        model.train(1, _batches(features=6))
    notes = "\n".join(getattr(info.value, "__notes__", []))
    assert "'image': Float32 (5, 6), 'label': Int32 (5,)" in notes, (str(info.value), notes)


def test_a_batch_that_is_not_columns():
    model, _ = _model()
    with pytest.raises(TypeError, match="tuple, list or dict of columns, but got str"):
        model.train(1, ["not a batch"])


def test_a_raising_callback_is_named():
    class Boom(ms.train.Callback):
        def on_train_step_end(self, run_context):
            if run_context.original_args().cur_step_num == 2:
                raise KeyError("boom")

    model, _ = _model()
    with pytest.raises(KeyError, match="boom") as info:
        model.train(1, _batches(), callbacks=[ms.train.LossMonitor(), Boom()])
    assert "Raised by the callback Boom.on_train_step_end (epoch 1, step 2)." in \
        info.value.__notes__


def test_nan_loss_with_exception_save_leaves_a_whole_breakpoint(tmp_path):
    model, _ = _model()
    config = ms.train.CheckpointConfig(save_checkpoint_steps=1, exception_save=True)
    ckpt = ms.train.ModelCheckpoint("net", str(tmp_path), config)
    with pytest.raises(ValueError, match=r"In epoch: 1 step: 2, loss is NAN or INF"):
        model.train(1, _batches(nan_at=1), callbacks=[ckpt, ms.train.LossMonitor()])
    assert sorted(os.listdir(tmp_path)) == ["net-1_1.ckpt", "net-1_2.ckpt",
                                            "net-1_2_breakpoint.ckpt"]
    saved = ms.load_checkpoint(str(tmp_path / "net-1_2_breakpoint.ckpt"))
    assert np.isnan(saved["weight"].asnumpy()).any()  # the step that produced the NaN ran


def test_a_failed_save_leaves_no_partial_file(tmp_path, monkeypatch):
    model, _ = _model()
    ckpt = ms.train.ModelCheckpoint("net", str(tmp_path),
                                    ms.train.CheckpointConfig(save_checkpoint_steps=2))
    real = _ckpt_format.serialize
    calls = {"n": 0}

    def failing(records):
        calls["n"] += 1
        for i, chunk in enumerate(real(records)):
            if calls["n"] == 2 and i == 2:
                raise OSError("disk full")
            yield chunk
    monkeypatch.setattr(_ckpt_format, "serialize", failing)
    with pytest.raises(OSError, match="disk full"):
        model.train(2, _batches(), callbacks=[ckpt])
    assert sorted(os.listdir(tmp_path)) == ["net-1_2.ckpt"]  # no .tmp, no half file
    assert ms.load_checkpoint(str(tmp_path / "net-1_2.ckpt"))["weight"].shape == (3, 4)
