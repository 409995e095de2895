"""Pipeline errors: MindSpore's exception types, a message naming the
operation, column and sample, the user's own traceback and the line that
created the failing operation; no hang and no worker left behind."""
import os
import threading

import numpy as np
import pytest

import msxla.dataset as ds
import msxla.dataset.vision as vision

HERE = os.path.basename(__file__)


def _within(seconds, fn):
    """fn() run in a thread that must finish within ``seconds`` (no hang)."""
    box = {}

    def run():
        try:
            box["value"] = fn()
        except BaseException as e:  # noqa: BLE001
            box["error"] = e

    t = threading.Thread(target=run, daemon=True)
    t.start()
    t.join(seconds)
    assert not t.is_alive(), f"the pipeline hung for {seconds}s"
    if "error" in box:
        raise box["error"]
    return box.get("value")


def _consume(dataset):
    return _within(60, lambda: [r for r in dataset.create_tuple_iterator(num_epochs=1,
                                                                         output_numpy=True)])


def _bad_map(x):
    if x == 2:
        raise ZeroDivisionError("no row two")
    return x


@pytest.mark.parametrize("processes", [False, True])
def test_map_error_names_column_sample_and_user_traceback(processes):
    d = ds.NumpySlicesDataset(np.arange(6), ["x"], shuffle=False).map(
        _bad_map, ["x"], num_parallel_workers=2, python_multiprocessing=processes)
    with pytest.raises(RuntimeError) as info:
        _consume(d)
    msg = str(info.value)
    assert "PyFunc '_bad_map'" in msg and "row 2" in msg and "['x']" in msg
    assert "ZeroDivisionError: no row two" in msg
    assert f'{HERE}", line' in msg and 'raise ZeroDivisionError("no row two")' in msg
    assert "The map operation was created at" in msg


def test_generator_error_names_the_sample():
    def gen():
        for i in range(5):
            if i == 3:
                raise ValueError("bad sample three")
            yield (np.array(i),)
    with pytest.raises(RuntimeError) as info:
        _consume(ds.GeneratorDataset(gen, ["x"]))
    msg = str(info.value)
    assert "sample 3" in msg and "ValueError: bad sample three" in msg
    assert "in gen" in msg


def test_random_access_source_error():
    class Source:
        def __getitem__(self, i):
            if i == 2:
                raise KeyError("no 2")
            return (np.array(i),)

        def __len__(self):
            return 4
    with pytest.raises(RuntimeError) as info:
        _consume(ds.GeneratorDataset(Source(), ["x"], shuffle=False, num_parallel_workers=2))
    msg = str(info.value)
    assert "sample 2" in msg and "KeyError" in msg and "__getitem__" in msg, msg


def test_batch_shape_error_names_column_and_batch():
    def gen():
        for i in range(4):
            yield np.zeros(1), np.zeros(i % 2 + 1)
    with pytest.raises(RuntimeError) as info:
        _consume(ds.GeneratorDataset(gen, ["ok", "ragged"]).batch(2))
    msg = str(info.value)
    assert "column 1 ('ragged')" in msg and "[1]" in msg and "[2]" in msg
    assert "batch 0" in msg and "padded_batch" in msg


def test_bad_column_name_points_at_the_map_call():
    d = ds.NumpySlicesDataset(np.arange(4), ["x"]).map(_bad_map, ["y"])
    with pytest.raises(RuntimeError) as info:
        d.get_col_names()
    msg = str(info.value)
    assert "y doesn't exist" in msg and "['x']" in msg
    assert f"{HERE}" in msg and ".map(_bad_map, [\"y\"])" in msg


def test_corrupt_image_is_a_runtime_error_naming_decode():
    data = [np.frombuffer(b"not an image", np.uint8)]
    d = ds.NumpySlicesDataset(data, ["img"], shuffle=False).map(vision.Decode(), ["img"])
    with pytest.raises(RuntimeError, match=r"\[Decode\] failed on row 0"):
        _consume(d)
    with pytest.raises(RuntimeError, match="image decode failed"):
        vision.Decode()(data[0])


def test_wrong_number_of_columns_and_column_types():
    with pytest.raises(RuntimeError, match="column_names is:1"):
        _consume(ds.GeneratorDataset(lambda: iter([(1, 2)]), ["x"]))
    with pytest.raises(RuntimeError, match="column_types"):
        _consume(ds.GeneratorDataset(lambda: iter([(1,)]), ["x"], column_types=[np.int32]))


def test_a_failed_pipeline_can_be_rebuilt():
    d = ds.NumpySlicesDataset(np.arange(6), ["x"], shuffle=False).map(_bad_map, ["x"])
    with pytest.raises(RuntimeError):
        _consume(d)
    ok = ds.NumpySlicesDataset(np.arange(6), ["x"], shuffle=False).map(lambda x: x + 1, ["x"])
    assert [int(r[0]) for r in _consume(ok)] == [1, 2, 3, 4, 5, 6]


def test_no_worker_process_outlives_a_failed_pipeline():
    psutil = pytest.importorskip("psutil")
    me = psutil.Process(os.getpid())

    def live():
        return {c.pid for c in me.children(recursive=True)}  # zombies included
    before = live()
    d = ds.NumpySlicesDataset(np.arange(40), ["x"], shuffle=False).map(
        _bad_map, ["x"], num_parallel_workers=2, python_multiprocessing=True)
    with pytest.raises(RuntimeError):
        _consume(d)
    import time
    deadline = time.time() + 10
    while live() - before and time.time() < deadline:
        time.sleep(0.1)
    assert not live() - before


def test_corrupt_file_in_an_image_folder_names_the_file_row_and_column(tmp_path):
    from PIL import Image
    for cls in ("a", "b"):
        (tmp_path / cls).mkdir()
        for i in range(2):
            Image.fromarray(np.full((4, 4, 3), i, np.uint8)).save(tmp_path / cls / f"{i}.jpg")
    (tmp_path / "b" / "2.jpg").write_bytes(b"not a jpeg")
    d = ds.ImageFolderDataset(str(tmp_path), shuffle=False).map(vision.Decode(), "image")
    with pytest.raises(RuntimeError) as info:
        _consume(d)
    msg = str(info.value)
    assert "[Decode] failed on row 4" in msg and "['image']" in msg
    assert os.path.join("b", "2.jpg") in msg and "image decode failed" in msg


def test_missing_folder_or_file_is_named():
    with pytest.raises(ValueError, match="/no/such/folder does not exist"):
        ds.ImageFolderDataset("/no/such/folder")
    with pytest.raises(ValueError, match="/no/such/folder does not exist"):
        ds.MnistDataset("/no/such/folder")

    def gen():
        yield (np.fromfile("/no/such/file.bin", np.uint8),)
    with pytest.raises(RuntimeError) as info:
        _consume(ds.GeneratorDataset(gen, ["x"]))
    assert "FileNotFoundError" in str(info.value) and "/no/such/file.bin" in str(info.value)
