"""Iterators: epochs, Tensors vs numpy, dict rows, columns, EOF after the last
epoch; the getters; config validation."""
import numpy as np
import pytest

import msxla
import msxla.dataset as ds


def _data():
    return ds.NumpySlicesDataset({"a": np.arange(5), "b": np.arange(5) * 1.5}, shuffle=False)


def test_rows_are_tensors_by_default_and_numpy_on_request():
    row = next(iter(_data().create_tuple_iterator()))
    assert isinstance(row[0], msxla.Tensor) and row[0].dtype == msxla.int64
    assert isinstance(row[1], msxla.Tensor) and row[1].dtype == msxla.float64
    row = next(iter(_data().create_tuple_iterator(output_numpy=True)))
    assert isinstance(row[0], np.ndarray) and row[0].dtype == np.int64


def test_strings_stay_numpy_even_as_tensors():
    d = ds.NumpySlicesDataset(np.array(["ab", "cde"]), shuffle=False)
    row = next(iter(d.create_tuple_iterator()))
    assert isinstance(row[0], np.ndarray) and row[0].dtype.kind == "U" and row[0] == "ab"


def test_dict_iterator_and_column_selection():
    row = next(iter(_data().create_dict_iterator(output_numpy=True)))
    assert list(row) == ["a", "b"] and row["b"] == 0.0
    rows = [r for r in _data().create_tuple_iterator(columns=["b"], output_numpy=True)]
    assert [float(r[0]) for r in rows] == [0.0, 1.5, 3.0, 4.5, 6.0]


def test_one_for_loop_is_one_epoch_and_eof_after_the_last():
    it = _data().batch(2).create_tuple_iterator(num_epochs=2, output_numpy=True)
    epochs = [[r[0].tolist() for r in it] for _ in range(2)]
    assert epochs == [[[0, 1], [2, 3], [4]]] * 2
    with pytest.raises(RuntimeError, match="EOF"):
        next(it)


def test_unlimited_epochs_and_dataset_iter():
    it = _data().create_tuple_iterator(output_numpy=True)
    assert [len(list(it)) for _ in range(3)] == [5, 5, 5]
    assert [int(r[0]) for r in _data()] == [0, 1, 2, 3, 4]


def test_each_epoch_reshuffles_and_the_seed_fixes_the_sequence():
    def epochs():
        ds.config.set_seed(11)
        d = ds.NumpySlicesDataset(np.arange(20), shuffle=True)
        it = d.create_tuple_iterator(num_epochs=3, output_numpy=True)
        return [[int(r[0]) for r in it] for _ in range(3)]
    first = epochs()
    assert first == epochs()
    assert first[0] != first[1] != first[2]
    assert all(sorted(e) == list(range(20)) for e in first)


def test_repeat_reshuffles_each_repetition():
    ds.config.set_seed(3)
    rows = [int(r[0]) for r in ds.NumpySlicesDataset(np.arange(10), shuffle=True).repeat(2)]
    assert sorted(rows[:10]) == sorted(rows[10:]) == list(range(10))
    assert rows[:10] != rows[10:]


def test_getters():
    d = _data().batch(2, drop_remainder=True).repeat(3)
    assert d.get_dataset_size() == 6
    assert d.get_batch_size() == 2 and d.get_repeat_count() == 3
    assert d.output_shapes() == [[2], [2]]
    assert d.output_types() == [np.int64, np.float64]
    assert len(d) == 6
    filtered = _data().filter(lambda a: a > 1, ["a"])
    assert filtered.get_dataset_size() == 3


def test_config_setters_validate_like_mindspore():
    with pytest.raises(ValueError):
        ds.config.set_seed(-1)
    with pytest.raises(TypeError):
        ds.config.set_seed("a")
    with pytest.raises(ValueError):
        ds.config.set_num_parallel_workers(0)
    with pytest.raises(ValueError):
        ds.config.set_prefetch_size(0)
    old = ds.config.get_prefetch_size()
    ds.config.set_prefetch_size(4)
    assert ds.config.get_prefetch_size() == 4
    ds.config.set_prefetch_size(old)
    assert ds.config.get_multiprocessing_start_method() == "fork"


def test_generator_without_len_is_counted_and_iterable_sources_work():
    class Stream:
        def __iter__(self):
            return iter([(np.array(1),), (np.array(2),)])
    d = ds.GeneratorDataset(Stream(), ["x"])
    assert d.get_dataset_size() == 2
    assert [int(r[0]) for r in d.create_tuple_iterator(output_numpy=True)] == [1, 2]
    with pytest.raises(ValueError, match="__getitem__"):
        ds.GeneratorDataset(Stream(), ["x"], num_shards=2, shard_id=0)


def test_source_argument_errors():
    with pytest.raises(ValueError, match="together"):
        ds.NumpySlicesDataset(np.arange(4), num_shards=2)
    with pytest.raises(ValueError, match="less than"):
        ds.NumpySlicesDataset(np.arange(4), num_shards=2, shard_id=3)
    with pytest.raises(ValueError, match="Conflicting"):
        ds.NumpySlicesDataset(np.arange(4), shuffle=False, sampler=ds.SequentialSampler())
    with pytest.raises(ValueError, match="Neither"):
        ds.GeneratorDataset(lambda: iter([]))
