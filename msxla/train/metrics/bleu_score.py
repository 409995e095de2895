"""``BleuScore``: BLEU of candidate sentences against reference sentences (clipped
n-gram precision up to ``n_gram``, geometric mean, brevity penalty)."""
from __future__ import annotations

from collections import Counter

import numpy as np

from msxla.nn import _checkparam as validator
from msxla.train.metrics.metric import Metric, rearrange_inputs

__all__ = ["BleuScore"]


def _ngrams(words, n_gram):
    counts = Counter()
    for n in range(1, n_gram + 1):
        for i in range(len(words) - n + 1):
            counts[tuple(words[i:i + n])] += 1
    return counts


class BleuScore(Metric):
    """BLEU score of a corpus of candidate sentences (lists of words)."""

    def __init__(self, n_gram=4, smooth=False):
        super().__init__()
        self.n_gram = validator.check_value_type("n_gram", n_gram, [int])
        if not 1 <= self.n_gram <= 4:
            raise ValueError("For 'BleuScore', the argument 'n_gram' should range from 1 to 4, "
                             f"but got {n_gram}.")
        self.smooth = validator.check_value_type("smooth", smooth, [bool])
        self.clear()

    def clear(self):
        self._numerator = np.zeros(self.n_gram)
        self._denominator = np.zeros(self.n_gram)
        self._c = 0.0
        self._r = 0.0
        self._trans_len = 0
        self._ref_len = 0
        self._is_update = False

    @rearrange_inputs
    def update(self, *inputs):
        if len(inputs) != 2:
            raise ValueError("For 'BleuScore.update', it needs 2 inputs (candidate_corpus, "
                             f"reference_corpus), but got {len(inputs)}.")
        candidates, references = inputs
        if len(candidates) != len(references):
            raise ValueError("For 'BleuScore.update', 'translate_corpus' (inputs[0]) and "
                             "'reference_corpus' (inputs[1]) should be equal in length, but got "
                             f"{len(candidates)}, {len(references)}")
        for candidate, refs in zip(candidates, references):
            self._c += len(candidate)
            lengths = [len(ref) for ref in refs]
            gaps = [abs(len(candidate) - n) for n in lengths]
            self._r += lengths[gaps.index(min(gaps))]
            counts = _ngrams(candidate, self.n_gram)
            ref_counts = Counter()
            for ref in refs:
                ref_counts |= _ngrams(ref, self.n_gram)
            for gram, n in (counts & ref_counts).items():
                self._numerator[len(gram) - 1] += n
            for gram, n in counts.items():
                self._denominator[len(gram) - 1] += n
        self._trans_len = np.array(self._c)
        self._ref_len = np.array(self._r)
        self._is_update = True

    def eval(self):
        if not self._is_update:
            raise RuntimeError("Please call the 'update' method before calling 'eval' method.")
        if min(self._numerator) == 0.0:
            return np.array(0.0)
        if self.smooth:
            precision = (self._numerator + 1) / (self._denominator + 1)
        else:
            precision = self._numerator / self._denominator
        mean = np.exp(np.sum(np.full(self.n_gram, 1.0 / self.n_gram) * np.log(precision)))
        penalty = np.array(1.0) if self._c > self._r else \
            np.exp(1 - (self._ref_len / self._trans_len))
        return penalty * mean
