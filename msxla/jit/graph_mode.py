"""GRAPH_MODE: a top-level Cell call compiles its ``construct``."""


def run_cell_in_graph_mode(cell, args, kwargs):
    """Compiled call of ``cell`` in GRAPH_MODE (NotImplemented: run eagerly)."""
    return NotImplemented
