"""MindIR as protobuf messages (``mind_ir.proto`` and its generated module).

``mind_ir.proto`` holds MindIR's messages (ModelProto / GraphProto /
NodeProto / AttributeProto / TensorProto / PrimitiveProto) with the field
numbers MindSpore 2.10 uses. ``mind_ir_pb2.py`` is generated from it and
committed, so msxla needs only the protobuf runtime. To regenerate it (protoc
25 keeps the module loadable by every protobuf runtime from 4.21 on)::

    python -m venv /tmp/protoc && /tmp/protoc/bin/pip install grpcio-tools==1.62.3
    cd msxla/mindir/schema && /tmp/protoc/bin/python -m grpc_tools.protoc -I. --python_out=. mind_ir.proto
"""
from msxla.mindir.schema import mind_ir_pb2 as pb

__all__ = ["pb"]
