"""Runs a ``pipeline_cases`` case on a ``mindspore.dataset``-like module and
describes what it sees, in JSON-able form (shared by the golden maker, which
runs it on MindSpore, and the tests, which run it on msxla)."""
import numpy as np


def _value(x):
    x = np.asarray(x)
    return {"dtype": x.dtype.str if x.dtype.kind != "U" else "<U", "shape": list(x.shape),
            "value": x.tolist()}


def _rows(dataset):
    out = []
    for row in dataset.create_tuple_iterator(output_numpy=True, num_epochs=1):
        out.append([_value(c) for c in row])
    return out


def describe(build, ds, ordered=True):
    """What a case gives: names, size, shapes, types and rows, or the error."""
    result = {}
    try:
        dataset = build(ds)
        result["columns"] = dataset.get_col_names()
        result["size"] = dataset.get_dataset_size()
        result["shapes"] = [list(s) for s in dataset.output_shapes()]
        result["types"] = [np.dtype(t).str if np.dtype(t).kind != "U" else "<U"
                           for t in dataset.output_types()]
        rows = _rows(dataset)
        if not ordered:
            rows = sorted(rows, key=lambda r: repr([c["value"] for c in r]))
        result["rows"] = rows
    except Exception as e:  # noqa: BLE001 - the error type is the answer
        result["error"] = next(c.__name__ for c in type(e).__mro__ if c.__module__ == "builtins")
        result["message"] = str(e).split("\n")[0][:200]
    return result


def shard_rows(ds, n, shards, num_samples, offset, shuffle):
    out = []
    for s in range(shards):
        sampler = ds.DistributedSampler(shards, s, shuffle=shuffle, num_samples=num_samples,
                                        offset=offset)
        d = ds.NumpySlicesDataset(np.arange(n), sampler=sampler)
        out.append({"size": d.get_dataset_size(),
                    "rows": [int(r[0]) for r in d.create_tuple_iterator(output_numpy=True,
                                                                         num_epochs=1)]})
    return out
