"""DatasetCache: MindSpore 2.10's argument checks (values read from the oracle), and
a dataset given a cache yields the rows it yields without one."""
import numpy as np
import pytest

import msxla.dataset as ds
import msxla.dataset.vision as V

# (arguments, the exception MindSpore 2.10 raises or None)
CASES = [
    (dict(session_id=1), None),
    (dict(session_id=1, size=64, spilling=True, hostname="127.0.0.1", port=50052,
          num_connections=12, prefetch_size=20), None),
    (dict(session_id="a"), TypeError),
    (dict(session_id=-1), ValueError),
    (dict(session_id=1, size=-1), ValueError),
    (dict(session_id=1, port=80), ValueError),
    (dict(session_id=1, spilling=1), TypeError),
    (dict(session_id=1, num_connections=0), ValueError),
    (dict(session_id=1, prefetch_size=0), ValueError),
]


@pytest.mark.parametrize("kwargs,error", CASES)
def test_arguments_checked_as_mindspore(kwargs, error):
    if error is None:
        assert ds.DatasetCache(**kwargs).session_id == kwargs["session_id"]
    else:
        with pytest.raises(error):
            ds.DatasetCache(**kwargs)


def test_cached_pipeline_gives_the_same_rows():
    images = np.random.default_rng(0).integers(0, 256, (6, 8, 8, 3), dtype=np.uint8)

    def rows(cache):
        data = ds.NumpySlicesDataset({"image": images}, shuffle=False)
        data = data.map(V.HWC2CHW(), "image", cache=cache)
        return [r["image"] for r in data.create_dict_iterator(output_numpy=True, num_epochs=1)]

    cached = rows(ds.DatasetCache(session_id=1, size=0))
    for a, b in zip(cached, rows(None)):
        np.testing.assert_array_equal(a, b)
    assert len(cached) == 6
