"""Text transforms and Vocab against MindSpore 2.10 (tests/golden/dataset_text.json)."""
import json
import os

import pytest

import msxla
import msxla.dataset as ds
import msxla.dataset.text as text

from tests.dataset import text_cases

GOLDEN = json.load(open(os.path.join(os.path.dirname(__file__), "..", "golden",
                                     "dataset_text.json")))


@pytest.mark.parametrize("name", sorted(text_cases.CASES))
def test_text_transform_matches_mindspore(name):
    assert text_cases.run(text, msxla, name) == GOLDEN["transforms"][name]


def test_vocab_matches_mindspore():
    assert text_cases.vocab_cases(text, ds) == GOLDEN["vocab"]


def test_text_pipeline_tokenize_lookup_pad():
    vocab = text.Vocab.from_list(["a", "b", "c", "d"], special_tokens=["<pad>", "<unk>"])
    d = ds.NumpySlicesDataset(text_cases.SENTENCES + ["e"], ["t"], shuffle=False)
    d = d.map([text.WhitespaceTokenizer(), text.Lookup(vocab, "<unk>")], ["t"])
    d = d.padded_batch(2, pad_info={"t": ([None], 0)})
    rows = [r[0].tolist() for r in d.create_tuple_iterator(output_numpy=True, num_epochs=1)]
    assert rows == [[[3, 2, 4, 2], [2, 3, 0, 0]], [[4, 4, 4, 5], [1, 0, 0, 0]]]
