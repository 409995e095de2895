"""GE's graph IR as protobuf messages (``ge_ir.proto`` and its generated module).

``ge_ir.proto`` is GE's serialisation schema (ModelDef / GraphDef / OpDef /
TensorDescriptor / AttrDef, GE's DataType enum), written from GE's documented
field numbers. ``ge_ir_pb2.py`` is generated from it and committed, so msxla
needs only the protobuf runtime. To regenerate it (protoc 25 keeps the module
loadable by every protobuf runtime from 4.21 on)::

    python -m venv /tmp/protoc && /tmp/protoc/bin/pip install grpcio-tools==1.62.3
    cd msxla/ge/schema && /tmp/protoc/bin/python -m grpc_tools.protoc -I. --python_out=. ge_ir.proto
"""
from msxla.ge.schema import ge_ir_pb2 as pb

__all__ = ["pb"]
