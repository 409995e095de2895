"""``train.serialization.tensor_to_np_type`` against MindSpore 2.10
(tests/golden/make_serialization_names.py)."""
import json
import os

import numpy as np

from msxla.train.serialization import tensor_to_np_type

GOLDEN = json.load(open(os.path.join(os.path.dirname(__file__), "..", "golden",
                                     "serialization_names.json")))


def test_tensor_to_np_type():
    for name, want in GOLDEN.items():
        got = tensor_to_np_type(name)
        assert (None if got is None else np.dtype(got).name) == want, name
