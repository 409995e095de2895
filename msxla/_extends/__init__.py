"""``mindspore._extends``: the graph compiler's Python side that user code and tests
import from: ``cell_attr_register`` and ``parse.compile_config``."""
from msxla.jit.markers import cell_attr_register

__all__ = ["cell_attr_register"]
