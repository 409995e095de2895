"""``mindspore.dataset.engine``: datasets, samplers and iterators."""
from msxla.dataset.core import config  # noqa: F401
from msxla.dataset.engine.datasets import (  # noqa: F401
    Dataset, SourceDataset, MapDataset, FilterDataset, BatchDataset, BatchInfo,
    BucketBatchByLengthDataset, ShuffleDataset, RepeatDataset, ProjectDataset, RenameDataset,
    TakeDataset, SkipDataset, ZipDataset, ConcatDataset, FlatMapDataset, zip)
from msxla.dataset.engine._mappable import MappableDataset  # noqa: F401
from msxla.dataset.engine.datasets_user_defined import (  # noqa: F401
    GeneratorDataset, NumpySlicesDataset, PaddedDataset, Schema)
from msxla.dataset.engine.datasets_vision import (  # noqa: F401
    MnistDataset, Cifar10Dataset, Cifar100Dataset, ImageFolderDataset)
from msxla.dataset.engine.datasets_text import TextFileDataset  # noqa: F401
from msxla.dataset.engine.datasets_standard_format import (  # noqa: F401
    CSVDataset, MindDataset, TFRecordDataset)
from msxla.dataset.engine.samplers import (  # noqa: F401
    BuiltinSampler, Sampler, SequentialSampler, RandomSampler, DistributedSampler,
    SubsetRandomSampler, SubsetSampler, WeightedRandomSampler, PKSampler, IterSampler, Shuffle)
from msxla.dataset.engine.iterators import Iterator, TupleIterator, DictIterator  # noqa: F401
from msxla.dataset.engine.cache_client import DatasetCache  # noqa: F401

__all__ = ["MnistDataset", "Cifar10Dataset", "Cifar100Dataset", "ImageFolderDataset",
           "TextFileDataset", "CSVDataset", "MindDataset", "GeneratorDataset",
           "NumpySlicesDataset", "PaddedDataset", "Schema",
           "SequentialSampler", "RandomSampler", "DistributedSampler", "SubsetRandomSampler",
           "SubsetSampler", "WeightedRandomSampler", "PKSampler", "Sampler", "Shuffle",
           "Dataset", "MappableDataset", "SourceDataset", "BatchInfo", "zip", "DatasetCache",
           "TFRecordDataset"]
