"""Checkpoint failures: atomic saves, corrupted files, no code execution, argument errors."""
import os
import pickle

import numpy as np
import pytest

import msxla as ms
from msxla import Parameter, Tensor, nn
from msxla.train import _ckpt_format


def params(value=1.0):
    return [Parameter(Tensor(np.full((4, 4), value, np.float32)), name=f"p{i}") for i in range(3)]


@pytest.fixture
def good(tmp_path):
    path = str(tmp_path / "good.ckpt")
    ms.save_checkpoint(params(), path, crc_check=True)
    return path


def test_crash_mid_write_leaves_previous_file(tmp_path, good, monkeypatch):
    before = open(good, "rb").read()
    real = _ckpt_format.serialize

    def crashing(records):
        gen = real(records)
        yield next(gen)
        raise OSError("disk full")

    monkeypatch.setattr(_ckpt_format, "serialize", crashing)
    with pytest.raises(OSError, match="disk full"):
        ms.save_checkpoint(params(2.0), good)
    assert open(good, "rb").read() == before
    assert os.listdir(tmp_path) == ["good.ckpt"]  # the temporary file is gone
    np.testing.assert_array_equal(ms.load_checkpoint(good)["p0"].asnumpy(), 1.0)


@pytest.mark.parametrize("damage", ["truncate", "garbage", "empty", "cut_tensor"])
def test_corrupted_file_raises_value_error_naming_the_file(tmp_path, good, damage):
    data = open(good, "rb").read()[:-17]  # without the CRC tail
    bad = {"truncate": data[:len(data) // 2 + 3], "garbage": b"\xff\xfe not a checkpoint" * 5,
           "empty": b"", "cut_tensor": data[:-9]}[damage]
    path = str(tmp_path / "bad.ckpt")
    with open(path, "wb") as f:
        f.write(bad)
    with pytest.raises(ValueError, match="Failed to read the checkpoint file .*bad.ckpt"):
        ms.load_checkpoint(path)


def test_content_that_does_not_fit_its_shape(tmp_path):
    records = {"w": ([2, 3], "Float32", b"\x00" * 20)}
    path = str(tmp_path / "short.ckpt")
    with open(path, "wb") as f:
        f.write(b"".join(_ckpt_format.serialize(records)))
    with pytest.raises(ValueError, match=r"(?s)'w' holds 20 bytes.*failed to load the checkpoint "
                                         r"file .*short.ckpt"):
        ms.load_checkpoint(path)


def test_crc_mismatch_is_detected(tmp_path, good):
    data = bytearray(open(good, "rb").read())
    data[40] ^= 0x01  # flip a bit inside a tensor's bytes
    path = str(tmp_path / "flipped.ckpt")
    with open(path, "wb") as f:
        f.write(bytes(data))
    with pytest.raises(ValueError, match="the crc check is failed"):
        ms.load_checkpoint(path, crc_check=True)
    assert ms.load_checkpoint(path)["p0"].shape == (4, 4)  # without crc_check it parses


class _Exploit:
    def __reduce__(self):
        return (open, (MARKER, "w"))


MARKER = ""


def test_loading_never_unpickles(tmp_path):
    global MARKER
    MARKER = str(tmp_path / "pwned")
    path = str(tmp_path / "evil.ckpt")
    with open(path, "wb") as f:
        pickle.dump(_Exploit(), f)
    with pytest.raises(ValueError, match="evil.ckpt"):
        ms.load_checkpoint(path)
    assert not os.path.exists(MARKER)


def test_save_argument_errors(tmp_path):
    p = params()
    with pytest.raises(TypeError, match="'save_obj' must be nn.Cell, list or dict"):
        ms.save_checkpoint(Tensor(1), str(tmp_path / "a.ckpt"))
    with pytest.raises(TypeError, match="'ckpt_file_name' must be string"):
        ms.save_checkpoint(p, 3)
    with pytest.raises(IsADirectoryError, match="is a directory"):
        ms.save_checkpoint(p, str(tmp_path))
    with pytest.raises(ValueError, match="the format must be 'safetensors' or 'ckpt'"):
        ms.save_checkpoint(p, str(tmp_path / "a.ckpt"), format="pt")
    with pytest.raises(TypeError, match="'append_info' must be key: string"):
        ms.save_checkpoint(p, str(tmp_path / "a.ckpt"), append_dict={"x": [1]})
    with pytest.raises(TypeError, match="should be parameter, but got"):
        ms.save_checkpoint([Tensor(1)], str(tmp_path / "a.ckpt"))
    with pytest.raises(ValueError, match="async_save' can only be 'process' or 'thread'"):
        ms.save_checkpoint(p, str(tmp_path / "a.ckpt"), async_save="later")
    with pytest.raises(NotImplementedError, match="enc_key"):
        ms.save_checkpoint(p, str(tmp_path / "a.ckpt"), enc_key=b"0123456789abcdef")


def test_load_argument_errors(tmp_path, good):
    with pytest.raises(ValueError, match="does not exist"):
        ms.load_checkpoint(str(tmp_path / "missing.ckpt"))
    with pytest.raises(ValueError, match="format must same with 'format'"):
        ms.load_checkpoint(good[:-5] + ".bin")
    with pytest.raises(TypeError, match="'ckpt_file_name' must be string"):
        ms.load_checkpoint(1)
    with pytest.raises(ValueError, match="The loaded parameter dict is empty"):
        ms.load_checkpoint(good, specify_prefix="nothing")
    with pytest.raises(ValueError, match="can't include ''"):
        ms.load_checkpoint(good, filter_prefix=[""])
    with pytest.raises(TypeError, match="'net' should be a Cell"):
        ms.load_param_into_net(params(), {})
    with pytest.raises(TypeError, match="should be a 'str' and 'Parameter'"):
        ms.load_param_into_net(nn.Cell(), {"a": 1})
