"""``mindspore.dataset.text.BertTokenizer`` (with ``BasicTokenizer`` and
``WordpieceTokenizer``) on a small vocab, and the ``Implementation`` enum."""
import numpy as np
import pytest

import msxla.dataset as ds
from msxla.dataset import text
from msxla.dataset.text.transforms import Implementation

VOCAB = ["[UNK]", "[CLS]", "i", "am", "mak", "##ing", "small", "mistake", "##s", "during",
         "work", "hour", "!", "床", "前"]


def _vocab():
    return text.Vocab.from_list(VOCAB)


def test_implementation_enum():
    assert Implementation.C.value == "C" and Implementation.PY.value == "P"
    assert Implementation("P") is Implementation.PY and Implementation.C == "C"
    assert ds.Implementation is Implementation


def test_bert_tokenizer_splits_words_punctuation_cjk_and_wordpieces():
    tok = text.BertTokenizer(vocab=_vocab(), lower_case=True)
    out = tok("[CLS] I am making small mistakes during working hours!床前 xyz")
    assert out.tolist() == ["[CLS]", "i", "am", "mak", "##ing", "small", "mistake", "##s",
                            "during", "work", "##ing", "hour", "##s", "!", "床", "前", "[UNK]"]


def test_case_is_kept_without_lower_case_and_unknown_token_can_be_the_word():
    tok = text.BertTokenizer(vocab=_vocab(), unknown_token="")
    assert tok("I am").tolist() == ["I", "am"]
    assert text.BertTokenizer(vocab=_vocab())("I am").tolist() == ["[UNK]", "am"]


def test_basic_tokenizer_options():
    basic = text.BasicTokenizer(lower_case=True)
    assert basic("Héllo, World!").tolist() == ["hello", ",", "world", "!"]
    kept = text.BasicTokenizer(keep_whitespace=True)
    assert kept("a b").tolist() == ["a", " ", "b"]
    split = text.BasicTokenizer(preserve_unused_token=False)
    assert split("[CLS] x").tolist() == ["[", "CLS", "]", "x"]
    with pytest.raises(NotImplementedError, match="with_offsets"):
        text.BasicTokenizer(with_offsets=True)


def test_wordpiece_limits():
    wp = text.WordpieceTokenizer(vocab=_vocab(), max_bytes_per_token=5)
    assert wp(np.array(["making", "mak", "zzz"])).tolist() == ["[UNK]", "mak", "[UNK]"]
    with pytest.raises(TypeError, match="text.Vocab"):
        text.WordpieceTokenizer(vocab=VOCAB)


def test_bert_tokenizer_in_a_pipeline():
    data = ds.NumpySlicesDataset(["I am making", "small mistakes"], column_names=["text"],
                                 shuffle=False)
    data = data.map(operations=text.BertTokenizer(vocab=_vocab(), lower_case=True))
    rows = [r[0].tolist() for r in data.create_tuple_iterator(output_numpy=True)]
    assert rows == [["i", "am", "mak", "##ing"], ["small", "mistake", "##s"]]
