"""``mindspore.train.summary``: event files of training runs (``SummaryRecord``)."""
from msxla.train.summary.summary_record import SummaryRecord

__all__ = ["SummaryRecord"]
