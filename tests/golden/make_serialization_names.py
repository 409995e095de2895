"""Write tests/golden/serialization_names.json: MindSpore 2.10's
``train.serialization.tensor_to_np_type`` for each checkpoint type name (as numpy dtype
names; None when unknown).

    cd /tmp/some_dir && GLOG_v=3 ~/ms-oracle/bin/python /path/to/tests/golden/make_serialization_names.py
"""
import json
import os

import numpy as np
from mindspore.train import serialization as s

NAMES = ["Int8", "UInt8", "Int16", "UInt16", "Int32", "UInt32", "Int64", "UInt64", "Float16",
         "Float32", "Float64", "Bool", "str", "BFloat16", "Foo"]


def main():
    out = {}
    for name in NAMES:
        t = s.tensor_to_np_type(name)
        out[name] = None if t is None else np.dtype(t).name
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)),
                           "serialization_names.json"), "w") as f:
        json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
