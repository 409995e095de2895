"""The .ckpt wire format: the descriptor matches checkpoint.proto; slicing; the CRC tail."""
import binascii
import os
import re

import numpy as np
from google.protobuf import descriptor_pb2

import msxla as ms
from msxla import Parameter, Tensor
from msxla.train import _ckpt_format, checkpoint_pb2

PROTO = os.path.join(os.path.dirname(ms.__file__), "train", "checkpoint.proto")
_LABELS = {1: "optional", 2: "required", 3: "repeated"}
_TYPES = {3: "int64", 9: "string", 11: "message", 12: "bytes"}


def proto_fields():
    """``{(message, field): (number, label, type)}`` read from the .proto text."""
    text = re.sub(r"//[^\n]*", "", open(PROTO).read())
    out = {}
    stack = []
    for token in re.finditer(r"(message|oneof)\s+(\w+)\s*\{|\}|"
                             r"(optional|required|repeated)?\s*(\w+)\s+(\w+)\s*=\s*(\d+);", text):
        if token.group(1):
            stack.append((token.group(1), token.group(2)))
        elif token.group(0) == "}":
            stack.pop()
        else:
            message = ".".join(name for kind, name in stack if kind == "message")
            label = token.group(3) or "optional"
            ftype = token.group(4)
            ftype = ftype if ftype in ("int64", "string", "bytes") else "message"
            out[(message, token.group(5))] = (int(token.group(6)), label, ftype)
    return out


def descriptor_fields():
    out = {}
    file_proto = descriptor_pb2.FileDescriptorProto()
    checkpoint_pb2.DESCRIPTOR.CopyToProto(file_proto)

    def walk(msg, prefix):
        name = prefix + msg.name
        for f in msg.field:
            out[(name, f.name)] = (f.number, _LABELS[f.label], _TYPES[f.type])
        for nested in msg.nested_type:
            walk(nested, name + ".")

    for msg in file_proto.message_type:
        walk(msg, "")
    return out


def test_descriptor_matches_proto_file():
    fields = proto_fields()
    assert len(fields) == 8
    assert descriptor_fields() == fields
    value = checkpoint_pb2.Checkpoint.DESCRIPTOR.nested_types_by_name["Value"]
    assert [f.name for f in value.oneofs_by_name["value"].fields] == ["tensor", "maptensor"]


def test_large_parameters_are_split_and_merged(tmp_path, monkeypatch):
    monkeypatch.setattr(_ckpt_format, "SLICE_BYTES", 64)
    big = np.arange(50, dtype=np.float32).reshape(5, 10)  # 200 bytes: 4 slices
    path = str(tmp_path / "big.ckpt")
    ms.save_checkpoint([Parameter(Tensor(big), name="big"),
                        Parameter(Tensor(np.ones(2, np.int8)), name="small")], path)
    msg = checkpoint_pb2.Checkpoint()
    msg.ParseFromString(open(path, "rb").read())
    assert [v.tag for v in msg.value] == ["big"] * 4 + ["small"]
    assert all(list(v.tensor.dims) == [5, 10] for v in msg.value[:4])
    loaded = ms.load_checkpoint(path)
    np.testing.assert_array_equal(loaded["big"].asnumpy(), big)
    np.testing.assert_array_equal(loaded["small"].asnumpy(), 1)


def test_crc_tail_layout(tmp_path):
    path = str(tmp_path / "crc.ckpt")
    ms.save_checkpoint([Parameter(Tensor(np.ones(3, np.float32)), name="w")], path,
                       crc_check=True)
    data = open(path, "rb").read()
    assert data[-17:-10] == b"crc_num"
    assert int.from_bytes(data[-10:], "big") == binascii.crc32(data[:-17])


def test_entry_encoding_matches_mindspore_layout(tmp_path):
    path = str(tmp_path / "enc.ckpt")
    ms.save_checkpoint({"s": Parameter(Tensor(np.float32(1.5)), name="s"), "note": "hé"}, path)
    msg = checkpoint_pb2.Checkpoint()
    msg.ParseFromString(open(path, "rb").read())
    scalar, note = msg.value
    assert list(scalar.tensor.dims) == [] and scalar.tensor.tensor_type == "Float32"
    assert scalar.tensor.tensor_content == np.float32(1.5).tobytes()
    assert list(note.tensor.dims) == [0] and note.tensor.tensor_type == "str"
    assert note.tensor.tensor_content == "hé".encode("utf-32-le")
    assert ms.load_checkpoint(path)["note"] == "hé"
