"""``BasicTokenizer``, ``WordpieceTokenizer`` and ``BertTokenizer`` (BERT's tokenizer).

``BasicTokenizer`` splits text as BERT does: optionally case-folded with accents
removed (``lower_case``), Unicode-normalised, split on whitespace (kept as tokens
with ``keep_whitespace``), with every punctuation character and every CJK
character a token of its own; BERT's reserved tokens (``[CLS]``, ``[SEP]``,
``[UNK]``, ``[PAD]``, ``[MASK]``, ``[unused<n>]``) stay whole with
``preserve_unused_token``. ``WordpieceTokenizer`` splits each token into the
longest pieces found in the vocab (pieces after the first carry
``suffix_indicator``); a token that cannot be split, or longer than
``max_bytes_per_token`` bytes, becomes ``unknown_token`` (itself when that is
empty). ``BertTokenizer`` is the two in turn. Outputs are string arrays;
``with_offsets`` is not implemented.
"""
from __future__ import annotations

import re
import unicodedata

import numpy as np

from msxla.dataset.text.utils import NormalizeForm, Vocab
from msxla.dataset.transforms.transforms import TensorOperation
from msxla.errors import user_error

__all__ = ["BasicTokenizer", "WordpieceTokenizer", "BertTokenizer"]

_RESERVED = re.compile(r"\[(?:CLS|SEP|UNK|PAD|MASK|unused\d+)\]")


def _text(x, who):
    arr = np.asarray(x)
    if arr.dtype.kind == "S":
        arr = np.char.decode(arr, "utf-8")
    if arr.dtype.kind != "U" or arr.ndim != 0:
        raise user_error(RuntimeError, f"{who}: the input should be one string (a scalar string "
                         f"tensor), but got {arr.dtype} of shape {arr.shape}.")
    return str(arr)


def _no_offsets(with_offsets, who):
    if with_offsets:
        raise user_error(NotImplementedError, f"{who}: with_offsets=True is not implemented in "
                         "msxla.", hint="use with_offsets=False.")


def _is_punctuation(c):
    o = ord(c)
    if 33 <= o <= 47 or 58 <= o <= 64 or 91 <= o <= 96 or 123 <= o <= 126:
        return True
    return unicodedata.category(c).startswith("P")


def _is_cjk(c):
    o = ord(c)
    return (0x4E00 <= o <= 0x9FFF or 0x3400 <= o <= 0x4DBF or 0x20000 <= o <= 0x2A6DF
            or 0x2A700 <= o <= 0x2B81F or 0x2B820 <= o <= 0x2CEAF or 0xF900 <= o <= 0xFAFF
            or 0x2F800 <= o <= 0x2FA1F)


class BasicTokenizer(TensorOperation):
    """Split a string into words, punctuation and CJK characters (see the module)."""

    def __init__(self, lower_case=False, keep_whitespace=False,
                 normalization_form=NormalizeForm.NONE, preserve_unused_token=True,
                 with_offsets=False):
        for name, v in (("lower_case", lower_case), ("keep_whitespace", keep_whitespace),
                        ("preserve_unused_token", preserve_unused_token),
                        ("with_offsets", with_offsets)):
            if not isinstance(v, bool):
                raise TypeError(f"Wrong input type for {name}, should be bool.")
        _no_offsets(with_offsets, type(self).__name__)
        self.lower_case, self.keep_whitespace = lower_case, keep_whitespace
        self.form = NormalizeForm(normalization_form)
        self.preserve_unused_token, self.with_offsets = preserve_unused_token, with_offsets

    def _normalise(self, s):
        if self.lower_case:
            s = unicodedata.normalize("NFD", s.casefold())
            s = "".join(c for c in s if unicodedata.category(c) != "Mn")
        elif self.form != NormalizeForm.NONE:
            s = unicodedata.normalize(self.form.name, s)
        return "".join(" " if unicodedata.category(c) == "Zs" and not self.keep_whitespace
                       else c for c in s
                       if not (ord(c) == 0 or ord(c) == 0xFFFD or
                               (unicodedata.category(c).startswith("C") and c not in "\t\n\r")))

    def _split(self, s):
        tokens, word = [], []
        for c in s:
            if c.isspace():
                if word:
                    tokens.append("".join(word))
                    word = []
                if self.keep_whitespace:
                    tokens.append(c)
            elif _is_punctuation(c) or _is_cjk(c):
                if word:
                    tokens.append("".join(word))
                    word = []
                tokens.append(c)
            else:
                word.append(c)
        if word:
            tokens.append("".join(word))
        return tokens

    def tokens(self, s):
        """The tokens of one Python string."""
        if not self.preserve_unused_token:
            return self._split(self._normalise(s))
        out, pos = [], 0
        for m in _RESERVED.finditer(s):
            out += self._split(self._normalise(s[pos:m.start()]))
            out.append(m.group())
            pos = m.end()
        return out + self._split(self._normalise(s[pos:]))

    def _apply(self, text):
        return np.array(self.tokens(_text(text, type(self).__name__)), dtype=str)


class WordpieceTokenizer(TensorOperation):
    """Split each token into the longest vocab pieces (see the module)."""

    def __init__(self, vocab, suffix_indicator="##", max_bytes_per_token=100,
                 unknown_token="[UNK]", with_offsets=False):
        if not isinstance(vocab, Vocab):
            raise TypeError("Wrong input type for vocab, should be text.Vocab object.")
        if not isinstance(max_bytes_per_token, int) or max_bytes_per_token < 0:
            raise ValueError("Input max_bytes_per_token is not within the required interval "
                             f"of [0, 2147483647], but got {max_bytes_per_token}.")
        _no_offsets(with_offsets, type(self).__name__)
        self.table = vocab.vocab()
        self.suffix, self.max_bytes = suffix_indicator, max_bytes_per_token
        self.unknown, self.with_offsets = unknown_token, with_offsets

    def pieces(self, word):
        """The word pieces of one token."""
        if len(word.encode()) > self.max_bytes:
            return [self.unknown or word]
        out, start = [], 0
        while start < len(word):
            end = len(word)
            while end > start:
                piece = word[start:end] if start == 0 else self.suffix + word[start:end]
                if piece in self.table:
                    break
                end -= 1
            if end == start:
                return [self.unknown or word]
            out.append(piece)
            start = end
        return out

    def _apply(self, tokens):
        arr = np.asarray(tokens)
        if arr.dtype.kind == "S":
            arr = np.char.decode(arr, "utf-8")
        return np.array([p for t in arr.ravel() for p in self.pieces(str(t))], dtype=str)


class BertTokenizer(TensorOperation):
    """``BasicTokenizer`` then ``WordpieceTokenizer`` (BERT's tokenizer)."""

    def __init__(self, vocab, suffix_indicator="##", max_bytes_per_token=100,
                 unknown_token="[UNK]", lower_case=False, keep_whitespace=False,
                 normalization_form=NormalizeForm.NONE, preserve_unused_token=True,
                 with_offsets=False):
        self.basic = BasicTokenizer(lower_case, keep_whitespace, normalization_form,
                                    preserve_unused_token, with_offsets)
        self.wordpiece = WordpieceTokenizer(vocab, suffix_indicator, max_bytes_per_token,
                                            unknown_token, with_offsets)

    def _apply(self, text):
        words = self.basic.tokens(_text(text, type(self).__name__))
        return np.array([p for w in words for p in self.wordpiece.pieces(w)], dtype=str)
