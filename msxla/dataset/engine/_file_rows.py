"""Row order of the file-based sources that MindSpore reads as streams
(``TextFileDataset``, ``CSVDataset``).

MindSpore sorts the files by name, lays their rows end to end and, for
sharding, gives shard ``s`` the contiguous block ``[s * m, (s + 1) * m)`` of
that row list, ``m = ceil(rows / num_shards)``, wrapping around to the first
rows to fill the last shards. Each shard's rows are split into per-file
pieces; piece ``i`` goes to worker ``i % workers`` and the workers' rows are
interleaved one by one. ``row_order`` reproduces that order with
``shuffle=False``; with shuffling the rows of the shard are permuted anew
each epoch (MindSpore's own shuffle order is not reproduced).
"""
from __future__ import annotations

import glob
import math
import os

import numpy as np


def expand_files(dataset_files):
    """The files matching ``dataset_files`` (a pattern or a list), sorted by name."""
    patterns = [dataset_files] if isinstance(dataset_files, str) else list(dataset_files)
    found, missing = [], []
    for p in patterns:
        hits = sorted(glob.glob(p)) if any(c in p for c in "*?[") else \
            ([p] if os.path.isfile(p) else [])
        if not hits:
            missing.append(p)
        found.extend(hits)
    if missing:
        raise ValueError(f"The following patterns did not match any files: {missing}.")
    return sorted(set(found))


def row_order(counts, num_shards, shard_id, workers):
    """(file index, row index) pairs of one shard, in MindSpore's sequential order."""
    total = sum(counts)
    starts = np.cumsum([0] + list(counts))
    if num_shards is None:
        lo, hi = 0, total
    else:
        per = math.ceil(total / num_shards) if total else 0
        lo, hi = shard_id * per, (shard_id + 1) * per
    pieces, pos = [], lo
    while pos < hi and total:
        g = pos % total
        f = int(np.searchsorted(starts, g, side="right") - 1)
        take = min(hi - pos, starts[f + 1] - g)
        pieces.append([(f, int(g - starts[f] + k)) for k in range(take)])
        pos += take
    lanes = [[] for _ in range(max(1, workers))]
    for i, piece in enumerate(pieces):
        lanes[i % len(lanes)].extend(piece)
    out, cursors = [], [0] * len(lanes)
    while len(out) < hi - lo and total:
        for w, lane in enumerate(lanes):
            if cursors[w] < len(lane):
                out.append(lane[cursors[w]])
                cursors[w] += 1
    return out
