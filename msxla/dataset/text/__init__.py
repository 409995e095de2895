"""``mindspore.dataset.text``: vocabularies and the basic text transforms."""
from msxla.dataset.text import transforms, utils  # noqa: F401
from msxla.dataset.text.transforms import *  # noqa: F401,F403
from msxla.dataset.text.utils import JiebaMode, NormalizeForm, Vocab, to_bytes, to_str  # noqa: F401
