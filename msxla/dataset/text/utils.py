"""``mindspore.dataset.text.utils``: ``Vocab`` and string helpers."""
from __future__ import annotations

import collections
import enum

import numpy as np


class NormalizeForm(enum.IntEnum):
    NONE = 0
    NFC = 1
    NFKC = 2
    NFD = 3
    NFKD = 4


class JiebaMode(enum.IntEnum):
    MIX = 0
    MP = 1
    HMM = 2


def _with_specials(words, special_tokens, special_first):
    specials = list(special_tokens or [])
    if len(set(specials)) != len(specials):
        raise ValueError("special_tokens contains duplicate tokens.")
    words = [w for w in words if w not in specials]
    return specials + words if special_first else words + specials


class Vocab:
    """A token <-> id table."""

    def __init__(self):
        self._ids = {}

    @classmethod
    def _from_tokens(cls, tokens):
        v = cls()
        for t in tokens:
            if t in v._ids:
                raise ValueError(f"word_list contains duplicate word: {t}.")
            v._ids[t] = len(v._ids)
        return v

    @classmethod
    def from_list(cls, word_list, special_tokens=None, special_first=True):
        """Ids in order: the special tokens (first or last), then the words."""
        if not isinstance(word_list, list) or not all(isinstance(w, str) for w in word_list):
            raise TypeError("word_list should be a list of str.")
        return cls._from_tokens(_with_specials(word_list, special_tokens, special_first))

    @classmethod
    def from_dict(cls, word_dict):
        """The given ``{word: id}`` table."""
        if not isinstance(word_dict, dict):
            raise TypeError("word_dict should be a dict of {str: int}.")
        v = cls()
        for w, i in word_dict.items():
            if not isinstance(i, int) or i < 0:
                raise ValueError(f"The id of word '{w}' should be a non-negative int.")
            v._ids[w] = i
        return v

    @classmethod
    def from_file(cls, file_path, delimiter="", vocab_size=None, special_tokens=None,
                  special_first=True):
        """One word per line (the text before ``delimiter``), at most ``vocab_size``."""
        words = []
        with open(file_path, encoding="utf-8") as f:
            for line in f:
                line = line.rstrip("\r\n")
                word = line.split(delimiter)[0] if delimiter else line
                if word:
                    words.append(word)
        if vocab_size is not None:
            words = words[:vocab_size]
        return cls._from_tokens(_with_specials(words, special_tokens, special_first))

    @classmethod
    def from_dataset(cls, dataset, columns=None, freq_range=None, top_k=None,
                     special_tokens=None, special_first=True):
        """Words of a dataset's string columns, most frequent first (ties: by word)."""
        names = dataset.get_col_names()
        cols = names if columns is None else ([columns] if isinstance(columns, str)
                                              else list(columns))
        idx = [names.index(c) for c in cols]
        counts = collections.Counter()
        for row in dataset.create_tuple_iterator(output_numpy=True, num_epochs=1):
            for i in idx:
                counts.update(str(w) for w in np.asarray(row[i]).ravel())
        lo, hi = freq_range if freq_range is not None else (0, None)
        kept = [(w, c) for w, c in counts.items() if c >= lo and (hi is None or c <= hi)]
        kept.sort(key=lambda wc: (-wc[1], wc[0]))
        if top_k is not None:
            kept = kept[:top_k]
        return cls._from_tokens(_with_specials([w for w, _ in kept], special_tokens,
                                               special_first))

    def vocab(self):
        return dict(self._ids)

    def tokens_to_ids(self, tokens):
        if isinstance(tokens, str):
            return self._ids.get(tokens, -1)
        return [self._ids.get(t, -1) for t in tokens]

    def ids_to_tokens(self, ids):
        inverse = {i: w for w, i in self._ids.items()}
        if isinstance(ids, (int, np.integer)):
            return inverse.get(int(ids), "")
        return [inverse.get(int(i), "") for i in ids]

    def __len__(self):
        return len(self._ids)


def to_str(array, encoding="utf8"):
    """A numpy bytes array as a str array."""
    if not isinstance(array, np.ndarray):
        raise TypeError(f"input should be a NumPy array, got {type(array)}.")
    return np.char.decode(array, encoding)


def to_bytes(array, encoding="utf8"):
    """A numpy str array as a bytes array."""
    if not isinstance(array, np.ndarray):
        raise TypeError(f"input should be a NumPy array, got {type(array)}.")
    return np.char.encode(array, encoding)
