"""Control flow: jumps, loops, returns, exceptions and ``with``.

A conditional jump on a Tensor computed in the graph is where a
data-dependent Python branch meets the graph: a graph break
(``DATA_DEPENDENT_BRANCH``). Loops over Python iterables are unrolled (each
iteration's instructions run again). Exceptions follow the code's exception
table exactly as CPython does, so ``try``/``except``/``finally`` and ``with``
run as written; an exception raised by the capture machinery itself (a
Tensor value needed in Python) is never seen by the user's ``except``.
"""
from __future__ import annotations

from jax.core import Tracer

from msxla.capture.bytecode import breaks as B
from msxla.capture.bytecode.frame import NULL
from msxla.capture.bytecode.variables import iterators as I
from msxla.capture.bytecode.variables.opaque import Opaque


class Return:
    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value


class FlowOps:
    def truth(self, value) -> bool:
        if self.symbolic:
            from msxla.common.tensor import Tensor
            if isinstance(value, Opaque):
                raise B.GraphBreak(B.OPAQUE_VALUE, "a branch on a value Python computed at an "
                                   "earlier graph break")
            if (isinstance(value, Tensor) and isinstance(value._data, Tracer)) or \
                    isinstance(value, Tracer):
                raise B.GraphBreak(B.DATA_DEPENDENT_BRANCH, "the condition is a Tensor "
                                   "computed in the graph; its value exists only when the "
                                   "graph runs")
        return bool(value)

    # ----------------------------------------------------------------- jumps
    def JUMP(self, frame, ins):
        frame.index = ins.target

    def POP_JUMP_IF_FALSE(self, frame, ins):
        if not self.truth(frame.stack[-1]):
            frame.index = ins.target
        frame.stack.pop()

    def POP_JUMP_IF_TRUE(self, frame, ins):
        if self.truth(frame.stack[-1]):
            frame.index = ins.target
        frame.stack.pop()

    def POP_JUMP_IF_NONE(self, frame, ins):
        if frame.stack.pop() is None:
            frame.index = ins.target

    def POP_JUMP_IF_NOT_NONE(self, frame, ins):
        if frame.stack.pop() is not None:
            frame.index = ins.target

    def JUMP_IF_FALSE_OR_POP(self, frame, ins):
        if not self.truth(frame.stack[-1]):
            frame.index = ins.target
        else:
            frame.stack.pop()

    def JUMP_IF_TRUE_OR_POP(self, frame, ins):
        if self.truth(frame.stack[-1]):
            frame.index = ins.target
        else:
            frame.stack.pop()

    # ----------------------------------------------------------------- loops
    def get_iter(self, obj):
        if self.symbolic and isinstance(obj, Opaque):
            raise B.GraphBreak(B.OPAQUE_VALUE, "iteration over a value Python computed at an "
                               "earlier graph break")
        it = I.make_iter(obj)
        if it is None:
            return iter(obj)
        if self.symbolic and not self.t.is_tracked(obj) and type(obj) in (list, dict, set):
            self.t.guards.contents_read(obj)
        if self.symbolic and it is not obj:
            self.t.mark_fresh(it)
            if type(it.seq if isinstance(it, I.SeqIter) else None) is list and \
                    it.seq is not obj:
                self.t.mark_fresh(it.seq)
        return it

    def iterate(self, obj):
        """The items of ``obj`` (for unpacking and ``*args``)."""
        if type(obj) in (list, tuple):
            return obj
        return list(self.get_iter(obj))

    def GET_ITER(self, frame, ins):
        frame.stack.append(self.get_iter(frame.stack.pop()))

    def FOR_ITER(self, frame, ins):
        try:
            value = next(frame.stack[-1])
        except StopIteration:
            frame.stack.pop()
            frame.index = ins.exit
            return
        frame.stack.append(value)

    # --------------------------------------------------------------- returns
    def RETURN_VALUE(self, frame, ins):
        return Return(frame.stack.pop())

    def RETURN_CONST(self, frame, ins):
        return Return(ins.argval)

    # ------------------------------------------------------------ exceptions
    def RAISE_VARARGS(self, frame, ins):
        if ins.arg == 0:
            exc = frame.exc
            if exc is None:
                raise RuntimeError("No active exception to reraise")
            raise exc.value if isinstance(exc, Opaque) else exc
        cause = frame.stack.pop() if ins.arg == 2 else NULL
        exc = frame.stack.pop()
        if isinstance(exc, Opaque):
            exc = exc.value
        if isinstance(exc, type):
            exc = exc()
        if cause is not NULL:
            if isinstance(cause, type):
                cause = cause()
            raise exc from cause
        raise exc

    def RERAISE(self, frame, ins):
        exc = frame.stack.pop()
        if ins.arg:
            frame.stack.pop()  # lasti
        raise exc.value if isinstance(exc, Opaque) else exc

    def PUSH_EXC_INFO(self, frame, ins):
        exc = frame.stack.pop()
        frame.stack.append(frame.exc)
        frame.exc = exc
        frame.stack.append(exc)

    def POP_EXCEPT(self, frame, ins):
        frame.exc = frame.stack.pop()

    def CHECK_EXC_MATCH(self, frame, ins):
        kind = frame.stack.pop()
        exc = frame.stack[-1]
        frame.stack.append(isinstance(exc.value if isinstance(exc, Opaque) else exc, kind))

    def LOAD_ASSERTION_ERROR(self, frame, ins):
        frame.stack.append(AssertionError)

    # ------------------------------------------------------------------- with
    def BEFORE_WITH(self, frame, ins):
        manager = frame.stack.pop()
        if self.symbolic and isinstance(manager, Opaque):
            raise B.GraphBreak(B.OPAQUE_VALUE, "a `with` on a value Python computed at an "
                               "earlier graph break")
        kind = type(manager)
        try:
            enter, exit_ = kind.__enter__, kind.__exit__
        except AttributeError:
            raise TypeError(f"'{kind.__name__}' object does not support the context manager "
                            "protocol") from None
        frame.stack.append(_bind(exit_, manager))
        frame.stack.append(self.call_value(frame, _bind(enter, manager), [], {}))

    def WITH_EXCEPT_START(self, frame, ins):
        exit_ = frame.stack[-4]
        exc = frame.stack[-1]
        if isinstance(exc, Opaque):
            exc = exc.value
        frame.stack.append(self.call_value(frame, exit_, [type(exc), exc, exc.__traceback__],
                                           {}))


def _bind(function, obj):
    getter = getattr(function, "__get__", None)
    return getter(obj, type(obj)) if getter is not None else function
