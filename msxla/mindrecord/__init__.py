"""``mindspore.mindrecord``: MindSpore's record file format.

``FileWriter`` writes and ``FileReader`` reads MindRecord files byte-compatible
with MindSpore 2.10's (the format is described in ``_format.py``);
``mindspore.dataset.MindDataset`` reads them into pipelines.
"""
from msxla.mindrecord.common.exceptions import *  # noqa: F401,F403
from msxla.mindrecord.filereader import FileReader  # noqa: F401
from msxla.mindrecord.filewriter import FileWriter  # noqa: F401

SUCCESS = 0
FAILED = 1
