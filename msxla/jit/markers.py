"""Decorators that mark code for MindSpore's graph compiler: ``jit_class``,
``lazy_inline``, ``no_inline``, ``cell_attr_register``.

- ``jit_class`` marks a user class whose instances a graph may use. Every
  capture mode of msxla reads the attributes and calls the methods of any
  Python object, so the mark only records ``__ms_class__`` after MindSpore's
  checks (a class, and not a Cell).
- ``lazy_inline`` (on a Cell's ``__init__``) and ``no_inline`` (on a function)
  ask MindSpore to compile a repeated block once as a reusable subgraph. msxla
  accepts them with MindSpore's checks and records the marks
  (``cell_init_args``, ``no_inline``); a captured graph still holds each call
  of the block inline, and XLA compiles the whole graph as one program.
- ``cell_attr_register`` (``mindspore._extends``, on a Cell's ``__init__``)
  records the Cell's construction arguments in ``cell_init_args``, which
  MindSpore uses to share one compiled graph between equal Cells; msxla's
  graphs are keyed by what they capture, so the record is all it keeps.
"""
from __future__ import annotations

import functools
import inspect


def jit_class(cls):
    """Mark a user-defined class as usable inside jit (``mindspore.jit_class``)."""
    from msxla.common.cell_base import CellBase
    if not inspect.isclass(cls):
        raise TypeError(f"Decorator jit_class can only be used for class type, but got {cls}.")
    if issubclass(cls, CellBase):
        raise TypeError("Decorator jit_class is used for user-defined classes and cannot be "
                        f"used for nn.Cell: {cls}.")
    cls.__ms_class__ = True
    return cls


def lazy_inline(fn=None, attrs=None, policy=None):
    """Decorate a Cell's ``__init__`` so the Cell is a reusable block
    (``mindspore.lazy_inline``)."""

    def wrap(init):
        if inspect.isclass(init):
            raise ValueError(f"The lazy_inline should decorate the __init__ function, not the "
                             f"class {init.__name__}. File: {inspect.getfile(init)}")
        if init.__name__ != "__init__":
            raise ValueError(f"The lazy_inline should decorate the __init__ function, not the "
                             f"function: {init.__name__}. line: "
                             f"{init.__code__.co_firstlineno} in {init.__code__.co_filename}")
        if policy not in (None, "front"):
            raise ValueError("policy must be None or 'front'")

        @functools.wraps(init)
        def deco(self, *args, **kwargs):
            bound = inspect.signature(init).bind(self, *args, **kwargs).arguments
            init(self, *args, **kwargs)
            values = [v for k, v in bound.items() if k != "self"]
            if isinstance(attrs, (list, str)):
                names = [attrs] if isinstance(attrs, str) else attrs
                for a in names:
                    if not isinstance(a, str):
                        raise ValueError("attr must be a string")
                values = [getattr(self, a) for a in names if hasattr(self, a)]
            object.__setattr__(self, "cell_init_args",
                               "lazy_inline_" + type(self).__name__ + str(values))
            if policy == "front":
                object.__setattr__(self, "no_inline", False)

        return deco

    return wrap(fn) if fn is not None else wrap


def no_inline(fn=None):
    """Mark a function as a reusable subgraph (``mindspore.no_inline``)."""

    def wrap(f):
        f.no_inline = True
        return f

    return wrap(fn) if fn is not None else wrap


def cell_attr_register(fn=None, attrs=None):
    """Record a Cell's ``__init__`` arguments in ``cell_init_args``
    (``mindspore._extends.cell_attr_register``)."""

    def wrap(init):
        @functools.wraps(init)
        def deco(self, *args, **kwargs):
            bound = inspect.signature(init).bind(self, *args, **kwargs).arguments
            init(self, *args, **kwargs)
            if attrs is None:
                values = [v for k, v in bound.items() if k != "self"]
            else:
                names = [attrs] if isinstance(attrs, str) else list(attrs)
                values = [getattr(self, a) for a in names if hasattr(self, a)]
            object.__setattr__(self, "cell_init_args", type(self).__name__ + str(values))

        return deco

    return wrap(fn) if fn is not None else wrap
