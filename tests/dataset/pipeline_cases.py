"""Pipelines built the same way on msxla and on MindSpore 2.10.

Each case is a function of the ``mindspore.dataset`` module (``ds``) and
returns a dataset; ``tests/golden/make_dataset_pipeline.py`` runs them on
MindSpore and stores what it sees (column names, size, shapes, dtypes, rows,
or the error type); ``test_pipeline_golden.py`` runs them on msxla and
compares. ``ORDERED`` cases compare rows in order; the others compare the
sorted rows (their order is MindSpore's own random order).
"""
import numpy as np

CASES = {}
UNORDERED = set()
RANDOM_VALUES = {"shuffle_with_num_samples"}
TYPES = {}  # {"int32": mindspore.int32 / msxla.int32}, set by the runner


def case(fn=None, ordered=True):
    def register(f):
        CASES[f.__name__] = f
        if not ordered:
            UNORDERED.add(f.__name__)
        return f
    return register(fn) if fn is not None else register


def _two(ds):
    return ds.NumpySlicesDataset({"a": np.arange(7), "b": np.arange(7) * 10.5}, shuffle=False)


def _three(ds):
    return ds.NumpySlicesDataset({"a": np.arange(4), "b": np.arange(4) * 10,
                                  "c": np.arange(4) * 100}, shuffle=False)


def _gen(n=5):
    def gen():
        for i in range(n):
            yield np.full((2, i % 3 + 1), i, np.int32), np.array(i * 0.5, np.float32)
    return gen


@case
def numpy_slices_dict(ds):
    return _two(ds)


@case
def numpy_slices_list(ds):
    return ds.NumpySlicesDataset([1, 2, 3], shuffle=False)


@case
def numpy_slices_mixed_list(ds):
    return ds.NumpySlicesDataset([1.5, 2], shuffle=False)


@case
def numpy_slices_tuple_names(ds):
    return ds.NumpySlicesDataset(([1, 2], [[3, 4], [5, 6]]), column_names=["x", "y"],
                                 shuffle=False)


@case
def numpy_slices_strings(ds):
    return ds.NumpySlicesDataset(np.array(["ab", "cde", "f"]), shuffle=False)


@case
def generator_function(ds):
    return ds.GeneratorDataset(_gen(), ["x", "y"])


@case
def generator_python_values(ds):
    def gen():
        for i in range(3):
            yield i, float(i), [i, i + 1], "s%d" % i, True
    return ds.GeneratorDataset(gen, ["i", "f", "l", "s", "b"])


@case
def generator_random_access(ds):
    class Source:
        def __getitem__(self, i):
            return np.array([i, i * i]), np.array(i % 2)

        def __len__(self):
            return 6
    return ds.GeneratorDataset(Source(), ["data", "label"], shuffle=False)


@case
def generator_list_source(ds):
    return ds.GeneratorDataset([(1, 2), (3, 4), (5, 6)], ["x", "y"], shuffle=False)


@case
def generator_num_samples_iterable(ds):
    return ds.GeneratorDataset(_gen(), ["x", "y"], num_samples=3)


@case
def generator_num_samples_random_access(ds):
    return ds.GeneratorDataset(list(range(10)), ["x"], num_samples=4, shuffle=False)


@case(ordered=False)
def generator_shuffled(ds):
    return ds.GeneratorDataset(list(range(10)), ["x"])


@case(ordered=False)
def shuffle_with_num_samples(ds):
    # MindSpore draws these with replacement: the values are random, only their
    # count, shape and dtype are compared.
    return ds.NumpySlicesDataset(np.arange(10), num_samples=4, shuffle=True)


@case
def map_same_names(ds):
    return _three(ds).map(lambda b: b * 2, input_columns=["b"])


@case
def map_default_column(ds):
    return _three(ds).map(lambda a: a + 1)


@case
def map_rename_in_place(ds):
    return _three(ds).map(lambda c, a: (c + 1, a + 1), input_columns=["c", "a"],
                          output_columns=["x", "y"])


@case
def map_expand(ds):
    return _three(ds).map(lambda c: (c, c + 1), input_columns=["c"], output_columns=["x", "y"])


@case
def map_merge(ds):
    return _three(ds).map(lambda b, c: b + c, input_columns=["b", "c"], output_columns=["x"])


@case
def map_swap_names(ds):
    return _three(ds).map(lambda a, b: (a, b), input_columns=["b", "a"])


@case
def map_chain_of_functions(ds):
    return _three(ds).map([lambda a: a * 3, lambda a: (a, a - 1)], input_columns=["a"],
                          output_columns=["p", "q"])


@case
def map_bad_column(ds):
    return _three(ds).map(lambda x: x, input_columns=["nope"])


@case
def batch_plain(ds):
    return _two(ds).batch(3)


@case
def batch_drop_remainder(ds):
    return _two(ds).batch(3, drop_remainder=True)


@case
def batch_strings(ds):
    return ds.NumpySlicesDataset(np.array(["a", "bcd", "ef"]), shuffle=False).batch(2)


@case
def batch_per_batch_map(ds):
    def pbm(a, b, info):
        return a, [x * 2 for x in b]
    return _two(ds).batch(2, per_batch_map=pbm)


@case
def batch_per_batch_map_columns(ds):
    def pbm(a, info):
        return [np.array([x, x]) for x in a], [np.array(len(a)) for _ in a]
    return _two(ds).batch(2, per_batch_map=pbm, input_columns=["a"], output_columns=["p", "q"])


@case
def batch_info_numbers(ds):
    def pbm(a, info):
        return ([np.array([info.get_batch_num(), info.get_epoch_num()]) for _ in a],)
    return _two(ds).batch(3, per_batch_map=pbm, input_columns=["a"])


@case
def batch_callable_size(ds):
    return _two(ds).batch(lambda info: info.get_batch_num() + 1)


@case
def batch_shape_mismatch(ds):
    return ds.GeneratorDataset(_gen(), ["x", "y"]).batch(3)


@case
def padded_batch_longest(ds):
    return ds.GeneratorDataset(_gen(), ["x", "y"]).padded_batch(2, pad_info={"x": ([2, None], -1)})


@case
def padded_batch_fixed(ds):
    return ds.GeneratorDataset(_gen(), ["x", "y"]).padded_batch(
        2, pad_info={"x": ([3, 4], 7)})


@case
def padded_batch_truncates(ds):
    return ds.GeneratorDataset(_gen(), ["x", "y"]).padded_batch(2, pad_info={"x": ([2, 2], 0)})


@case
def padded_batch_all_columns(ds):
    return ds.GeneratorDataset(_gen(), ["x", "y"]).padded_batch(2, pad_info={})


@case
def bucket_batch(ds):
    def gen():
        for n in [1, 3, 2, 5, 4, 1, 6, 2]:
            yield (np.arange(n),)
    return ds.GeneratorDataset(gen, ["x"]).bucket_batch_by_length(
        ["x"], [3, 5], [2, 2, 3], pad_info={"x": ([None], 0)})


@case
def bucket_batch_boundary(ds):
    def gen():
        for n in [1, 3, 2, 5, 4, 1, 6, 2]:
            yield (np.arange(n),)
    return ds.GeneratorDataset(gen, ["x"]).bucket_batch_by_length(
        ["x"], [3, 5], [2, 2, 3], pad_info={"x": ([None], -1)}, pad_to_bucket_boundary=True,
        drop_remainder=True)


@case
def repeat_then_batch(ds):
    return _two(ds).repeat(2).batch(3)


@case
def batch_then_repeat(ds):
    return _two(ds).batch(3).repeat(2)


@case
def take_skip(ds):
    return _two(ds).skip(2).take(3)


@case
def skip_past_end(ds):
    return _two(ds).skip(10)


@case
def take_minus_one(ds):
    return _two(ds).take(-1)


@case
def take_zero(ds):
    return _two(ds).take(0)


@case
def project_reorder(ds):
    return _three(ds).project(["c", "a"])


@case
def project_bad(ds):
    return _three(ds).project(["zz"])


@case
def rename_one(ds):
    return _three(ds).rename(["a", "c"], ["z", "y"])


@case
def rename_bad(ds):
    return _three(ds).rename(["q"], ["z"])


@case
def zip_two(ds):
    other = ds.NumpySlicesDataset({"c": np.arange(3) * 2}, shuffle=False)
    return ds.zip((_two(ds), other))


@case
def zip_duplicate(ds):
    return ds.zip((_two(ds), _two(ds)))


@case
def concat_plus(ds):
    return _two(ds) + _two(ds).take(2)


@case
def filter_rows(ds):
    return _two(ds).filter(lambda a: a % 2 == 0, ["a"])


@case
def filter_all_columns(ds):
    return _two(ds).filter(lambda a, b: a > 3)


@case
def filter_then_batch(ds):
    return _two(ds).filter(lambda a: a != 2, ["a"]).batch(2)


@case
def split_sizes(ds):
    return _two(ds).split([5, 2], randomize=False)[1]


@case
def split_fractions(ds):
    return _two(ds).split([0.6, 0.4], randomize=False)[0]


@case(ordered=False)
def shuffle_op(ds):
    return _two(ds).shuffle(4)


@case
def shuffle_bad_buffer(ds):
    return _two(ds).shuffle(1)


@case
def batch_zero(ds):
    return _two(ds).batch(0)


@case
def generator_raises(ds):
    def gen():
        for i in range(5):
            if i == 3:
                raise ValueError("bad sample three")
            yield (np.array(i),)
    return ds.GeneratorDataset(gen, ["x"])


@case
def generator_wrong_width(ds):
    return ds.GeneratorDataset(lambda: iter([(1, 2)]), ["x"])


@case
def generator_object_value(ds):
    return ds.GeneratorDataset(lambda: iter([(object(),)]), ["x"])


@case
def map_raises(ds):
    def bad(x):
        if x == 2:
            raise ZeroDivisionError("div")
        return x
    return ds.NumpySlicesDataset(np.arange(4), ["x"], shuffle=False).map(bad, ["x"])


@case
def column_types_mismatch(ds):
    int32 = TYPES["int32"]
    return ds.GeneratorDataset(lambda: iter([(1, 2.0)]), ["a", "b"], column_types=[int32, int32])


@case
def column_types_match(ds):
    int32 = TYPES["int32"]
    return ds.GeneratorDataset(lambda: iter([(np.int32(1), np.int32(2))]), ["a", "b"],
                               column_types=[int32, int32])


def distributed_cases():
    """(num_rows, num_shards, num_samples, offset) for DistributedSampler goldens."""
    return [(10, 3, None, -1), (10, 4, None, -1), (10, 3, 2, -1), (10, 3, 5, -1),
            (10, 5, None, -1), (10, 12, None, -1), (10, 3, None, 1), (10, 3, None, 2),
            (10, 4, 3, 1), (7, 2, None, -1), (1, 3, None, -1)]


SAMPLER_CASES = {
    "sequential_start": lambda ds: ds.SequentialSampler(2, 5),
    "sequential_past_end": lambda ds: ds.SequentialSampler(8, 5),
    "subset_capped": lambda ds: ds.SubsetSampler([3, 1, 7], 2),
    "subset_list": lambda ds: [3, 4, 1],
    "child_sampler": lambda ds: _with_child(ds),
    "user_sampler": lambda ds: _user_sampler(ds),
}


def _with_child(ds):
    s = ds.DistributedSampler(2, 0, shuffle=False)
    s.add_child(ds.SequentialSampler(2, 6))
    return s


def _user_sampler(ds):
    class Reverse(ds.Sampler):
        def __iter__(self):
            return iter(range(self.dataset_size - 1, -1, -2))
    return Reverse()
