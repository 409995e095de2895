"""Calls and function creation: ``CALL``, ``KW_NAMES``, ``CALL_FUNCTION_EX``,
``MAKE_FUNCTION``, ``LOAD_BUILD_CLASS``.

The stack convention is the same in 3.11 and 3.12 (``compat`` turns method
loads into ``NULL, bound attribute``): below the arguments is the callable,
below it either NULL or — for ``with``'s exit call — the callable to which
the next slot is the first argument. What a call *does* is decided by
``variables.callables.CallPolicy.call_value``.
"""
from __future__ import annotations

import builtins
import types

from msxla.capture.bytecode.frame import NULL


class CallOps:
    def KW_NAMES(self, frame, ins):
        frame.kw_names = ins.argval

    def CALL(self, frame, ins):
        argc = ins.arg
        stack = frame.stack
        args = stack[len(stack) - argc:]
        del stack[len(stack) - argc:]
        callable_ = stack.pop()
        slot = stack.pop()
        if slot is not NULL:
            args.insert(0, callable_)
            callable_ = slot
        kwargs = {}
        names = frame.kw_names
        if names:
            frame.kw_names = ()
            values = args[len(args) - len(names):]
            del args[len(args) - len(names):]
            kwargs = dict(zip(names, values))
        stack.append(self.call_value(frame, callable_, args, kwargs))

    def CALL_FUNCTION_EX(self, frame, ins):
        stack = frame.stack
        kwargs = stack.pop() if ins.arg & 1 else {}
        args = stack.pop()
        callable_ = stack.pop()
        slot = stack.pop()
        args = list(self.iterate(args))
        if slot is not NULL:
            args.insert(0, callable_)
            callable_ = slot
        if not isinstance(kwargs, dict):
            kwargs = dict(kwargs)
        stack.append(self.call_value(frame, callable_, args, kwargs))

    def MAKE_FUNCTION(self, frame, ins):
        flags = ins.arg or 0
        stack = frame.stack
        code = stack.pop()
        closure = stack.pop() if flags & 0x08 else None
        annotations = stack.pop() if flags & 0x04 else None
        kwdefaults = stack.pop() if flags & 0x02 else None
        defaults = stack.pop() if flags & 0x01 else None
        fn = types.FunctionType(code, frame.globals, code.co_name, defaults, closure)
        fn.__qualname__ = getattr(code, "co_qualname", code.co_name)
        if kwdefaults is not None:
            fn.__kwdefaults__ = kwdefaults
        if annotations is not None:
            fn.__annotations__ = (dict(zip(annotations[::2], annotations[1::2]))
                                  if isinstance(annotations, tuple) else annotations)
        stack.append(self.t.mark_fresh(fn) if self.symbolic else fn)

    def LOAD_BUILD_CLASS(self, frame, ins):
        frame.stack.append(builtins.__build_class__)
