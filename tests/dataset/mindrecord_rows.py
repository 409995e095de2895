"""Rows written to MindRecord files by both MindSpore and msxla (golden maker
and tests), and a JSON form of what a reader returns."""
import numpy as np

SCHEMA = {"file_name": {"type": "string"}, "label": {"type": "int32"},
          "score": {"type": "float64"}, "weight": {"type": "float32"},
          "count": {"type": "int64"}, "data": {"type": "bytes"},
          "mask": {"type": "int64", "shape": [-1]}, "box": {"type": "float32", "shape": [2, 2]}}
INDEX = ["file_name", "label"]


def rows(call):
    rng = np.random.default_rng(call)
    out = []
    for i in range(4):
        k = 10 * call + i
        out.append({"file_name": f"img_{k}.jpg", "label": k % 3, "score": k / 7,
                    "weight": 0.5 + k, "count": (-1) ** k * (k << 33),
                    "data": bytes(rng.integers(0, 256, 500 + 900 * i, dtype=np.uint8)),
                    "mask": np.array([k, -k, 300 * k, 1 << (k % 40)], np.int64),
                    "box": rng.random((2, 2)).astype(np.float32)})
    return out


def write(FileWriter, path, shard_num=1):
    w = FileWriter(path, shard_num=shard_num, overwrite=True)
    w.set_header_size(1 << 14)
    w.set_page_size(1 << 15)
    w.add_schema(SCHEMA, "golden rows")
    w.add_index(INDEX)
    for call in range(3):
        w.write_raw_data(rows(call))
    w.commit()


def _digest(b):
    import hashlib
    return {"sha1": hashlib.sha1(b).hexdigest(), "len": len(b)}


def jsonable(value):
    if isinstance(value, bytes):
        return {"bytes": _digest(value)}
    if isinstance(value, np.ndarray):
        if value.dtype.kind == "S":
            return {"bytes_array": [_digest(v) for v in value.ravel().tolist()],
                    "shape": list(value.shape)}
        return {"dtype": value.dtype.str if value.dtype.kind != "U" else "<U",
                "shape": list(value.shape), "value": value.tolist()}
    if isinstance(value, float):
        return {"float": value}
    return value


def read_file_reader(FileReader, path):
    r = FileReader(path)
    out = [{k: jsonable(v) for k, v in sorted(d.items())} for d in r.get_next()]
    r.close()
    return out


def read_dataset(ds, path, **kw):
    d = ds.MindDataset(path, shuffle=False, **kw)
    return {"columns": d.get_col_names(), "size": d.get_dataset_size(),
            "types": [np.dtype(t).str for t in d.output_types()],
            "shapes": [list(s) for s in d.output_shapes()],
            "rows": [[jsonable(c) for c in r]
                     for r in d.create_tuple_iterator(output_numpy=True, num_epochs=1)]}
