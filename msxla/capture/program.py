"""The captured program: what a front end returns for a function with graph breaks.

A ``CapturedGraph`` is one graph for the whole call. A function whose code
cannot be one graph (the bytecode front end found graph breaks) is instead
a ``CapturedProgram``: pieces of captured graph joined by Python steps (the
breaking instructions, run by the interpreter). Its pieces are captured on
demand, per instruction and live state, as calls reach them, so the record
holds the function and what capture has learnt about it (where it breaks);
the pieces themselves come from ``capture_piece``.

Running a program (compiling its pieces, caching them, calling them) is the
jit layer's job (``msxla/jit/program.py``). Its loop, in terms of this
interface::

    state = program.start(args, kwargs)
    while True:
        here = program.locate(state)          # None: the rest runs in Python
        piece = cache.get(here.key) or program.capture_piece(here)
        if piece.kind in ("graph",):
            step = program.resume(piece, run(piece.graph, here.leaves), here)
        else:                                 # "empty": the piece starts at a break
            step = Step(False, state)
        if step.done: return step.value
        step = program.step(step.value, piece, jit_callee)   # the breaking instruction
        if step.done: return step.value
        state = step.value

``jit_callee(fn, options, name)`` is how a Python step runs a function it
calls that itself has graph breaks: jitted on its own (the jit layer passes
it in; capture does not make jitted functions).
"""
from __future__ import annotations

import dataclasses


@dataclasses.dataclass
class CapturedPiece:
    """One piece of a program, from an instruction and a live state to the next break.

    ``kind``: ``"graph"`` (a captured graph ending at a break or the return),
    ``"empty"`` (the piece starts at a breaking instruction: nothing to run) or
    ``"python"`` (the live state cannot go through a graph: from here the frame
    runs in Python). ``recipe`` rebuilds the live state from the graph's outputs;
    ``returns``: the piece ends at the function's return; ``record``: the graph
    break it ends at (for reports)."""

    kind: str
    index: int
    graph: object = None
    recipe: object = None
    returns: bool = False
    record: object = None

    @property
    def guards(self):
        return self.graph.guards if self.graph is not None else None


@dataclasses.dataclass
class Location:
    """Where a program's call is: the cache key of the piece that starts here
    (instruction and live state) and the state's flat Tensor leaves."""

    key: tuple
    leaves: list
    owners: list
    objs: object
    index: int


@dataclasses.dataclass
class Step:
    """The result of running part of a program: ``done`` with the return ``value``,
    or not done with the frame state to go on from as ``value``."""

    done: bool
    value: object


class CapturedProgram:
    """Base of a front end's program record (see the module doc)."""

    name: str
    options: object
    guards = None          # what must hold for the whole program to be reused
    notes = ()

    def start(self, args, kwargs):
        raise NotImplementedError

    def locate(self, state) -> Location | None:
        raise NotImplementedError

    def capture_piece(self, here: Location) -> CapturedPiece:
        raise NotImplementedError

    def resume(self, piece: CapturedPiece, outs, here: Location) -> Step:
        raise NotImplementedError

    def step(self, state, piece: CapturedPiece, jit_callee) -> Step:
        raise NotImplementedError

    def python_tail(self, state, jit_callee):
        raise NotImplementedError
