"""What values the bytecode interpreter works on, one family per module.

The interpreter runs the function's instructions over *real* Python objects:
a Tensor is a real ``Tensor`` whose ``_data`` is a jax tracer of the graph
being built (so every Tensor operation is msxla's own op row, traced), a
tuple is a tuple, a Cell is the Cell. What a Dynamo-style tracker would
record lives beside the values instead:

- ``opaque``: ``Opaque``, a Python value produced outside the graph by an
  earlier break (a numpy array from ``asnumpy()``); any operation on it is a
  break, so the graph never bakes it in.
- ``iterators``: iterators the interpreter makes for ``for`` loops and
  ``zip``/``enumerate``/``range``/``reversed``, which can be carried across a
  graph break (a real ``list_iterator`` cannot be rebuilt).
- ``objects``: which objects were created by the code being captured
  ("fresh": mutating them is part of the capture) and which live outside it
  (mutating them is a side effect: a break); which modules are libraries.
- ``builtins``: the built-in functions that are pure (run while capturing),
  the ones that are breaks (I/O, ``eval``), and the ones modelled specially
  (``super``, ``print``, ``getattr``, ``zip``, ...).
- ``callables``: how a call is handled: inline a user function, method or
  ``Cell.construct``; call a library function with traced Tensors; or break.
"""
