"""``Dataset.save``: a dataset's rows written as MindRecord files.

The schema comes from the first row: uint8 vectors and bytes become
``bytes`` fields, strings ``string``, scalars and other arrays their MindRecord
number type (narrower integers widen to int32/int64, float16 to float32),
arrays with their shape.
"""
from __future__ import annotations

import numpy as np

from msxla.mindrecord.filewriter import FileWriter

_TYPES = {"b": "int32", "i1": "int32", "i2": "int32", "i4": "int32", "u1": "int32",
          "u2": "int32", "i8": "int64", "u4": "int64", "f2": "float32", "f4": "float32",
          "f8": "float64"}


def _field(value):
    arr = np.asarray(value)
    if arr.dtype.kind == "S" or (arr.dtype == np.uint8 and arr.ndim == 1):
        return {"type": "bytes"}
    if arr.dtype.kind == "U":
        return {"type": "string"}
    key = "b" if arr.dtype.kind == "b" else f"{arr.dtype.kind}{arr.dtype.itemsize}"
    if key not in _TYPES:
        raise TypeError(f"Dataset.save cannot store dtype {arr.dtype} in MindRecord.")
    spec = {"type": _TYPES[key]}
    if arr.ndim:
        spec["shape"] = list(arr.shape) if arr.ndim > 1 else [-1]
    return spec


def _value(spec, value):
    arr = np.asarray(value)
    if spec["type"] == "bytes":
        return arr.ravel()[0] if arr.dtype.kind == "S" else arr.tobytes()
    if spec["type"] == "string":
        return str(arr)
    if "shape" in spec:
        return arr.astype(spec["type"])
    return arr.astype(spec["type"]).item()


def save_dataset(dataset, file_name, num_files=1, file_type="mindrecord"):
    if file_type != "mindrecord":
        raise ValueError(f"Dataset.save only writes 'mindrecord' files, not {file_type!r}.")
    names = dataset.get_col_names()
    writer, schema, batch = None, None, []
    for row in dataset.create_tuple_iterator(output_numpy=True, num_epochs=1):
        if writer is None:
            schema = {n: _field(v) for n, v in zip(names, row)}
            writer = FileWriter(file_name, shard_num=num_files)
            writer.add_schema(schema, "saved by Dataset.save")
        batch.append({n: _value(schema[n], v) for n, v in zip(names, row)})
        if len(batch) == 1000:
            writer.write_raw_data(batch)
            batch = []
    if writer is None:
        raise RuntimeError("Dataset.save: the dataset has no rows.")
    if batch:
        writer.write_raw_data(batch)
    writer.commit()
