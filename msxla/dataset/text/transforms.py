"""``mindspore.dataset.text.transforms``: the basic text transforms."""
from __future__ import annotations

import re
import unicodedata

import numpy as np

from msxla.dataset.text.utils import NormalizeForm, Vocab
from msxla.dataset.transforms.transforms import TensorOperation, _np_type


def _strings(x, who):
    arr = np.asarray(x)
    if arr.dtype.kind == "S":
        arr = np.char.decode(arr, "utf-8")
    if arr.dtype.kind != "U":
        raise RuntimeError(f"{who}: the input should be a string tensor, got {arr.dtype}.")
    return arr


class Lookup(TensorOperation):
    """Tokens -> ids of ``vocab`` (``unknown_token``'s id for the others)."""

    def __init__(self, vocab, unknown_token=None, data_type=None):
        if not isinstance(vocab, Vocab):
            raise TypeError("vocab should be a text.Vocab.")
        table = vocab.vocab()
        if unknown_token is not None and unknown_token not in table:
            raise ValueError(f"unknown_token '{unknown_token}' is not in the vocab.")
        self.table, self.unknown = table, unknown_token
        self.data_type = np.dtype(np.int32) if data_type is None else _np_type(data_type)

    def _apply(self, tokens):
        arr = _strings(tokens, "Lookup")
        default = self.table.get(self.unknown) if self.unknown is not None else None
        out = np.empty(arr.shape, dtype=np.int64)
        for pos, t in np.ndenumerate(arr):
            i = self.table.get(str(t), default)
            if i is None:
                raise RuntimeError(f"Lookup: token '{t}' is not in the vocab and no "
                                   f"unknown_token is given.")
            out[pos] = i
        return out.astype(self.data_type)


class PythonTokenizer(TensorOperation):
    """``tokenizer(str) -> list of str`` applied to each string."""

    def __init__(self, tokenizer):
        if not callable(tokenizer):
            raise TypeError("tokenizer should be a callable Python function.")
        self.tokenizer = tokenizer

    def _apply(self, text):
        arr = _strings(text, "PythonTokenizer")
        if arr.ndim == 0:
            return np.array(self.tokenizer(str(arr)), dtype=str)
        return np.array([self.tokenizer(str(t)) for t in arr.ravel()], dtype=str)


class ToNumber(TensorOperation):
    """Strings -> numbers of ``data_type`` (out of range or unparsable: RuntimeError)."""

    def __init__(self, data_type):
        self.data_type = _np_type(data_type)
        if self.data_type.kind not in "iuf":
            raise TypeError("data_type should be a numeric type.")

    def _convert(self, s):
        try:
            if self.data_type.kind == "f":
                return float(s)
            return int(float(s)) if re.fullmatch(r"\s*[-+]?\d+(\.\d*)?\s*", s) else int(s)
        except ValueError:
            raise RuntimeError(f'ToNumber: it is invalid to convert "{s}" to a number.') \
                from None

    def _apply(self, text):
        arr = _strings(text, "ToNumber")
        values = [self._convert(str(s)) for s in arr.ravel()]
        if self.data_type.kind in "iu":
            info = np.iinfo(self.data_type)
            for s, v in zip(arr.ravel(), values):
                if not info.min <= v <= info.max:
                    raise RuntimeError(f"ToNumber: string input {s} will be out of bounds if "
                                       f"cast to {self.data_type}. The valid range is: "
                                       f"[{info.min}, {info.max}].")
        return np.array(values).astype(self.data_type).reshape(arr.shape)


class SlidingWindow(TensorOperation):
    """Windows of ``width`` consecutive elements of a 1-D input (one row each)."""

    def __init__(self, width, axis=0):
        if not isinstance(width, int) or width < 1:
            raise ValueError("width should be a positive integer.")
        self.width, self.axis = width, axis

    def _apply(self, x):
        arr = np.asarray(x)
        if arr.ndim != 1:
            raise RuntimeError(f"SlidingWindow: SlidingWindow supports 1D input only for now, "
                               f"but got {arr.ndim}D.")
        n = len(arr) - self.width + 1
        if n <= 0:
            return np.zeros((0,), dtype=arr.dtype)
        return np.stack([arr[i:i + self.width] for i in range(n)])


def _offsets(tokens, spans):
    start = np.array([s for s, _ in spans], dtype=np.uint32)
    end = np.array([e for _, e in spans], dtype=np.uint32)
    return np.array(tokens, dtype=str), start, end


class WhitespaceTokenizer(TensorOperation):
    """Split a string on whitespace (with byte offsets if ``with_offsets``)."""

    def __init__(self, with_offsets=False):
        self.with_offsets = with_offsets

    def _apply(self, text):
        s = str(_strings(text, "WhitespaceTokenizer"))
        found = [(m.group(), m.span()) for m in re.finditer(r"\S+", s)]
        tokens = [t for t, _ in found]
        if not self.with_offsets:
            return np.array(tokens, dtype=str)
        spans = [(len(s[:a].encode()), len(s[:b].encode())) for _, (a, b) in found]
        return _offsets(tokens, spans)


class UnicodeCharTokenizer(TensorOperation):
    """Split a string into its characters."""

    def __init__(self, with_offsets=False):
        self.with_offsets = with_offsets

    def _apply(self, text):
        s = str(_strings(text, "UnicodeCharTokenizer"))
        if not self.with_offsets:
            return np.array(list(s), dtype=str)
        pos, spans = 0, []
        for c in s:
            n = len(c.encode())
            spans.append((pos, pos + n))
            pos += n
        return _offsets(list(s), spans)


class Truncate(TensorOperation):
    """The first ``max_seq_len`` elements of a 1-D input."""

    def __init__(self, max_seq_len):
        if not isinstance(max_seq_len, int) or max_seq_len <= 0:
            raise ValueError("max_seq_len should be a positive integer.")
        self.max_seq_len = max_seq_len

    def _apply(self, x):
        arr = np.asarray(x)
        if arr.ndim != 1:
            raise RuntimeError(f"Truncate: the input should be 1-D, got {arr.ndim}-D.")
        return arr[:self.max_seq_len].copy()


class Ngram(TensorOperation):
    """The n-grams of a 1-D string input, for each n, joined by ``separator``."""

    def __init__(self, n, left_pad=("", 0), right_pad=("", 0), separator=" "):
        self.n = [n] if isinstance(n, int) else list(n)
        if not self.n or any(not isinstance(k, int) or k <= 0 for k in self.n):
            raise ValueError("n should be a positive int or a list of them.")
        self.left_pad, self.right_pad, self.separator = left_pad, right_pad, separator

    def _apply(self, x):
        words = [str(w) for w in _strings(x, "Ngram").ravel()]
        out = []
        for k in self.n:
            seq = [self.left_pad[0]] * min(self.left_pad[1], k - 1) + words + \
                [self.right_pad[0]] * min(self.right_pad[1], k - 1)
            out += [self.separator.join(seq[i:i + k]) for i in range(len(seq) - k + 1)]
        return np.array(out, dtype=str)


class CaseFold(TensorOperation):
    """Unicode case folding."""

    def _apply(self, text):
        arr = _strings(text, "CaseFold")
        return np.vectorize(lambda s: s.casefold(), otypes=[str])(arr) if arr.ndim else \
            np.array(str(arr).casefold())


class NormalizeUTF8(TensorOperation):
    """Unicode normalisation (NFC, NFKC, NFD or NFKD)."""

    def __init__(self, normalize_form=NormalizeForm.NFKC):
        self.form = NormalizeForm(normalize_form)

    def _apply(self, text):
        arr = _strings(text, "NormalizeUTF8")
        if self.form == NormalizeForm.NONE:
            return arr
        f = self.form.name
        return np.vectorize(lambda s: unicodedata.normalize(f, s), otypes=[str])(arr) \
            if arr.ndim else np.array(unicodedata.normalize(f, str(arr)))


from msxla.dataset.text._bert import (  # noqa: E402 - BERT's tokenizer, in its own file
    BasicTokenizer, BertTokenizer, WordpieceTokenizer)
from msxla.dataset.transforms.transforms import Implementation  # noqa: E402,F401

__all__ = ["BasicTokenizer", "BertTokenizer", "WordpieceTokenizer", "Lookup", "PythonTokenizer", "ToNumber", "SlidingWindow", "WhitespaceTokenizer",
           "UnicodeCharTokenizer", "Truncate", "Ngram", "CaseFold", "NormalizeUTF8"]
