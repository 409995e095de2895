"""Callback mechanics that need no MindSpore golden: argument checks with MindSpore's
messages, the 1.x stage names, TimeMonitor's line, the progress bar, and data_sink."""
import io
import re

import numpy as np
import pytest

import msxla as ms
from msxla.train.callback._callback import CallbackManager


def _model():
    net = ms.nn.Dense(3, 2)
    loss = ms.nn.MSELoss()
    return ms.train.Model(net, loss, ms.nn.SGD(net.trainable_params(), 0.1)), net


def _data(n=4):
    rng = np.random.default_rng(0)
    return [(rng.standard_normal((4, 3)).astype(np.float32),
             rng.standard_normal((4, 2)).astype(np.float32)) for _ in range(n)]


def test_legacy_stage_names_run_and_warn_in_train_fail_in_fit(caplog):
    seen = []

    class Old(ms.train.Callback):
        def step_end(self, run_context):
            seen.append(run_context.original_args().cur_step_num)

    model, _ = _model()
    model.train(1, _data(), callbacks=Old())
    assert seen == [1, 2, 3, 4]
    assert "methods may not be supported in later version" in caplog.text
    with pytest.raises(ValueError, match="Use methods prefixed with 'on_train'"):
        model.fit(1, _data(), callbacks=[Old()])


def test_time_monitor_prints_mindspore_lines(capsys):
    model, _ = _model()
    model.train(2, _data(), callbacks=[ms.train.TimeMonitor(data_time=True)])
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 2
    for line in lines:
        assert re.fullmatch(r"Train epoch time: \d+\.\d{3} ms, per step time: \d+\.\d{3} ms "
                            r"\(data time: \d+\.\d{3} ms\)", line), line


def test_argument_checks():
    with pytest.raises(TypeError, match="must be Callback functions"):
        CallbackManager([object()])
    with pytest.raises(TypeError, match="should be dict type"):
        ms.train.RunContext([])
    with pytest.raises(ValueError, match="can't be all None or 0"):
        ms.train.CheckpointConfig(0, 0, 0, 0)
    with pytest.raises(ValueError, match="does not contain '/'"):
        ms.train.ModelCheckpoint("a/b")
    with pytest.raises(ValueError, match="must be in \\['epoch_num', 'step_num'\\]"):
        ms.train.CheckpointConfig(append_info=["epoch"])
    with pytest.raises(ValueError, match="mode should be 'auto', 'min' or 'max'"):
        ms.train.EarlyStopping(mode="up")
    with pytest.raises(ValueError):
        ms.train.LossMonitor(-1)
    model, _ = _model()
    with pytest.raises(ValueError, match="'epoch' must bigger than parameter 'initial_epoch'"):
        model.train(1, _data(), initial_epoch=1)
    with pytest.raises(ValueError, match="must be -1 or positive"):
        model.train(1, _data(), sink_size=0)
    with pytest.raises(ValueError, match="There is no valid data in dataset"):
        model.train(1, [])
    with pytest.raises(ValueError, match="'metrics' can not be None or empty"):
        model.eval(_data())
    with pytest.raises(ValueError, match="'optimizer' is None"):
        ms.train.Model(ms.nn.Dense(3, 2), ms.nn.MSELoss(), amp_level="O2")


def test_progress_bar_follows_the_steps():
    out = io.StringIO()
    model, _ = _model()
    model.train(2, _data(), callbacks=[ms.train.ProgressBar(file=out)])
    text = out.getvalue()
    assert "epoch 1/2" in text and "epoch 2/2" in text and "4/4" in text and "loss=" in text


def test_data_sink_without_jit_config_runs_each_batch_in_python():
    calls = []

    def fn(x, y):
        calls.append(float(x.asnumpy()[0, 0]))
        return x.sum()

    data = _data(3)
    sink = ms.data_sink(fn, data, sink_size=2)
    sink(), sink()
    assert calls == [float(data[i % 3][0][0, 0]) for i in range(4)]  # continues across epochs
    with pytest.raises(ValueError, match="must be positive"):
        ms.data_sink(fn, data, sink_size=0)


def test_data_sink_with_jit_config_is_one_compiled_loop_per_sink():
    net = ms.nn.Dense(3, 2)
    opt = ms.nn.SGD(net.trainable_params(), 0.1)
    loss_fn = ms.nn.MSELoss()
    grad_fn = ms.value_and_grad(lambda x, y: loss_fn(net(x), y), None, opt.parameters)

    def step(x, y):
        loss, grads = grad_fn(x, y)
        opt(grads)
        return loss

    start = [p.asnumpy().copy() for p in net.trainable_params()]
    data = _data(4)
    sink = ms.data_sink(step, data, sink_size=4, jit_config=ms.JitConfig())
    last = sink()
    got = [p.asnumpy().copy() for p in net.trainable_params()]
    for p, v in zip(net.trainable_params(), start):
        p.set_data(ms.Tensor(v))
    for x, y in data:
        want_last = step(ms.Tensor(x), ms.Tensor(y))
    np.testing.assert_allclose(last.asnumpy(), want_last.asnumpy(), rtol=1e-5)
    for g, p in zip(got, net.trainable_params()):
        np.testing.assert_allclose(g, p.asnumpy(), rtol=1e-5, atol=1e-6)
    sink()
    assert sink.__wrapped__ is step


def test_a_generator_dataset_is_read_once_and_replayed_every_epoch():
    model, _ = _model()
    data = _data(3)
    seen = []
    record = ms.train.LambdaCallback(on_train_step_end=lambda rc: seen.append(
        float(rc.original_args().train_dataset_element[0].asnumpy()[0, 0])))
    model.train(2, (batch for batch in data), callbacks=[record])
    assert seen == [float(b[0][0, 0]) for b in data] * 2


def test_build_compiles_for_the_first_batch():
    model, net = _model()
    before = [p.asnumpy().copy() for p in net.get_parameters()]
    model.build(train_dataset=_data(2))
    for b, p in zip(before, net.get_parameters()):
        np.testing.assert_array_equal(b, p.asnumpy())  # compiled, nothing trained
    with pytest.raises(ValueError, match="can not both be None"):
        model.build()


def test_data_sink_checks_the_input_signature():
    data = _data(2)
    spec = (ms.Tensor(shape=[None, 3], dtype=ms.float32), ms.Tensor(shape=[4, 5],
                                                                    dtype=ms.float32))
    sink = ms.data_sink(lambda x, y: x, data, sink_size=1, jit_config=ms.JitConfig(),
                        input_signature=spec)
    with pytest.raises(TypeError, match=r"column 1 is Float32 \(4, 2\), but 'input_signature' "
                                        r"says Float32 \(4, 5\)"):
        sink()
