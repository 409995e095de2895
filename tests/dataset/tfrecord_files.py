"""Small TFRecord files of ``tf.train.Example`` records, written without
TensorFlow (the record framing with masked CRC-32C and the Example protobuf,
encoded by hand), and the TFRecordDataset cases read from them. Used by
tests/golden/make_dataset_tfrecord.py (in MindSpore 2.10) and by
tests/dataset/test_tfrecord_golden.py (in msxla), on the same bytes."""
import json
import os
import struct

import numpy as np

_POLY = 0x82F63B78
_TABLE = []
for _n in range(256):
    _c = _n
    for _ in range(8):
        _c = (_c >> 1) ^ _POLY if _c & 1 else _c >> 1
    _TABLE.append(_c)


def crc32c(data):
    crc = 0xFFFFFFFF
    for b in data:
        crc = _TABLE[(crc ^ b) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


def masked_crc(data):
    crc = crc32c(data)
    return (((crc >> 15) | (crc << 17)) + 0xA282EAD8) & 0xFFFFFFFF


def _varint(n):
    out = bytearray()
    n &= (1 << 64) - 1
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def _field(num, payload):
    return _varint(num << 3 | 2) + _varint(len(payload)) + payload


def _feature(value):
    kind, items = value
    if kind == "bytes":
        body = b"".join(_field(1, v) for v in items)
        return _field(1, body)
    if kind == "float":
        packed = struct.pack(f"<{len(items)}f", *items)
        return _field(2, _field(1, packed))
    packed = b"".join(_varint(int(v)) for v in items)
    return _field(3, _field(1, packed))


def example(features):
    """An Example message: {name: ("bytes"|"float"|"int64", [values])}."""
    entries = b"".join(_field(1, _field(1, k.encode()) + _field(2, _feature(v)))
                       for k, v in features.items())
    return _field(1, entries)


def write_records(path, records):
    with open(path, "wb") as f:
        for rec in records:
            f.write(struct.pack("<Q", len(rec)))
            f.write(struct.pack("<I", masked_crc(struct.pack("<Q", len(rec)))))
            f.write(rec)
            f.write(struct.pack("<I", masked_crc(rec)))


def write_all(root):
    rng = np.random.default_rng(5)
    files = []
    for k in range(2):
        recs = []
        for r in range(3 + k):
            recs.append(example({
                "image": ("bytes", [bytes(rng.integers(0, 256, 6, dtype=np.uint8))]),
                "label": ("int64", [10 * k + r]),
                "feat": ("float", rng.standard_normal(3).astype(np.float32).tolist()),
                "ids": ("int64", rng.integers(-5, 100, 4).tolist()),
            }))
        path = os.path.join(root, f"part{k}.tfrecord")
        write_records(path, recs)
        files.append(path)
    schema = os.path.join(root, "schema.json")
    with open(schema, "w") as f:
        json.dump({"columns": {"label": {"type": "int32", "rank": 1, "shape": [1]},
                               "ids": {"type": "int64", "rank": 1, "shape": [4]},
                               "feat": {"type": "float32", "rank": 1, "shape": [3]}}}, f)
    return {"files": files, "schema": schema}


def cases(paths, ds):
    """name -> builder of a TFRecordDataset over the written files."""
    f, schema = paths["files"], paths["schema"]

    def with_schema_object():
        s = ds.Schema()
        s.add_column("label", de_type="int64", shape=[1])
        s.add_column("feat", de_type="float32", shape=[3])
        return ds.TFRecordDataset(f, schema=s, shuffle=False)

    return {
        "one_file": lambda: ds.TFRecordDataset(f[0], shuffle=False),
        "two_files": lambda: ds.TFRecordDataset(f, shuffle=False),
        "columns_list": lambda: ds.TFRecordDataset(f, columns_list=["label", "image"],
                                                   shuffle=False),
        "schema_file": lambda: ds.TFRecordDataset(f, schema=schema, shuffle=False),
        "schema_object": with_schema_object,
        "num_samples": lambda: ds.TFRecordDataset(f, num_samples=4, shuffle=False),
        "shard": lambda: ds.TFRecordDataset(f, num_shards=2, shard_id=1, shuffle=False),
        "batched": lambda: ds.TFRecordDataset(f, columns_list=["label", "feat"],
                                              shuffle=False).batch(2),
    }
