"""``LOAD_*`` / ``STORE_*`` / ``DELETE_*`` / ``IMPORT_*`` handlers, one per opcode.

Reads of state from outside the captured code (globals, closure variables
of enclosing functions, attributes of objects the code did not create) are
guarded; writes to it (``STORE_GLOBAL``, ``STORE_ATTR`` on such objects,
``nonlocal`` writes) are side effects, hence graph breaks.
"""
from __future__ import annotations

import types

from msxla.capture.bytecode import breaks as B
from msxla.capture.bytecode.frame import NULL, UNBOUND
from msxla.capture.bytecode.variables import objects as O
from msxla.capture.bytecode.variables.opaque import Opaque


def _unbound_local(name):
    return UnboundLocalError(f"cannot access local variable '{name}' where it is not associated "
                             "with a value")


def _class_attr(cls, name):
    for klass in cls.__mro__:
        if name in klass.__dict__:
            return klass.__dict__[name]
    return None


class LoadStoreOps:
    # ------------------------------------------------------------- fast locals
    def LOAD_CONST(self, frame, ins):
        frame.stack.append(ins.argval)

    def LOAD_FAST(self, frame, ins):
        value = frame.locals.get(ins.argval, UNBOUND)
        if value is UNBOUND:
            raise _unbound_local(ins.argval)
        frame.stack.append(value)

    def LOAD_FAST_AND_CLEAR(self, frame, ins):
        frame.stack.append(frame.locals.pop(ins.argval, NULL))

    def STORE_FAST(self, frame, ins):
        value = frame.stack.pop()
        if value is NULL:
            frame.locals.pop(ins.argval, None)
        else:
            frame.locals[ins.argval] = value

    def DELETE_FAST(self, frame, ins):
        if frame.locals.pop(ins.argval, UNBOUND) is UNBOUND:
            raise _unbound_local(ins.argval)

    # ----------------------------------------------------------------- globals
    def LOAD_GLOBAL(self, frame, ins):
        name = ins.argval
        if ins.push_null:
            frame.stack.append(NULL)
        try:
            value = frame.globals[name]
        except KeyError:
            try:
                value = frame.builtins[name]
            except KeyError:
                raise NameError(f"name '{name}' is not defined") from None
        else:
            if self.symbolic:
                self.t.saw_external(value)
                self.t.guards.global_read(frame.globals, frame.globals.get("__name__", "?"),
                                          name, value)
        frame.stack.append(value)

    def STORE_GLOBAL(self, frame, ins):
        if self.symbolic:
            raise B.GraphBreak(B.SIDE_EFFECT, f"assignment to the global '{ins.argval}'")
        frame.globals[ins.argval] = frame.stack.pop()

    def DELETE_GLOBAL(self, frame, ins):
        if self.symbolic:
            raise B.GraphBreak(B.SIDE_EFFECT, f"deletion of the global '{ins.argval}'")
        del frame.globals[ins.argval]

    # ------------------------------------------------------------------- cells
    def MAKE_CELL(self, frame, ins):
        value = frame.locals.pop(ins.argval, UNBOUND)
        cell = types.CellType() if value is UNBOUND else types.CellType(value)
        frame.cells[ins.argval] = self.t.mark_fresh(cell) if self.symbolic else cell

    def COPY_FREE_VARS(self, frame, ins):
        for name, cell in zip(frame.code.co_freevars, frame.fn.__closure__ or ()):
            frame.cells[name] = cell

    def LOAD_CLOSURE(self, frame, ins):
        frame.stack.append(frame.cells[ins.argval])

    def LOAD_DEREF(self, frame, ins):
        cell = frame.cells[ins.argval]
        try:
            value = cell.cell_contents
        except ValueError:
            raise NameError(f"cannot access free variable '{ins.argval}' where it is not "
                            "associated with a value in enclosing scope") from None
        if self.symbolic and not self.t.is_tracked(cell):
            self.t.saw_external(value)
            self.t.guards.closure_read(cell, ins.argval, value)
        frame.stack.append(value)

    def STORE_DEREF(self, frame, ins):
        cell = frame.cells[ins.argval]
        if self.symbolic and not self.t.is_tracked(cell):
            raise B.GraphBreak(B.SIDE_EFFECT, f"assignment to the nonlocal variable "
                               f"'{ins.argval}' of an enclosing function")
        cell.cell_contents = frame.stack.pop()

    def DELETE_DEREF(self, frame, ins):
        cell = frame.cells[ins.argval]
        if self.symbolic and not self.t.is_tracked(cell):
            raise B.GraphBreak(B.SIDE_EFFECT, f"deletion of the nonlocal '{ins.argval}'")
        del cell.cell_contents

    # -------------------------------------------------------------- attributes
    def LOAD_ATTR(self, frame, ins):
        value = self.load_attr(frame.stack.pop(), ins.argval, frame)
        if ins.method:
            frame.stack.append(NULL)
        frame.stack.append(value)

    def LOAD_SUPER_ATTR(self, frame, ins):
        owner = frame.stack.pop()
        klass = frame.stack.pop()
        frame.stack.pop()  # the global `super`
        value = self.load_attr(super(klass, owner), ins.argval, frame)
        if ins.method:
            frame.stack.append(NULL)
        frame.stack.append(value)

    def STORE_ATTR(self, frame, ins):
        obj = frame.stack.pop()
        self.store_attr(obj, ins.argval, frame.stack.pop())

    def DELETE_ATTR(self, frame, ins):
        self.delete_attr(frame.stack.pop(), ins.argval)

    def load_attr(self, obj, name, frame=None):
        if not self.symbolic:
            return getattr(obj, name)
        if isinstance(obj, Opaque):
            raise B.GraphBreak(B.OPAQUE_VALUE, f"attribute '{name}' of a value Python computed "
                               "at an earlier graph break")
        descriptor = _class_attr(type(obj), name)
        if isinstance(descriptor, property) and O.is_user_function(descriptor.fget):
            return self.inline(frame, descriptor.fget, [obj], {})
        value = getattr(obj, name)
        if not self.t.is_tracked(obj):
            self.t.saw_external(value)
            self._guard_attr(obj, name, value)
        return value

    def _guard_attr(self, obj, name, value):
        from msxla.common.tensor import Tensor
        if isinstance(obj, (Tensor, super)):
            return
        if isinstance(obj, types.ModuleType):
            if not O.is_library_module(obj):
                self.t.guards.attr_read(obj, name, value)
            return
        if isinstance(value, (types.MethodType, types.BuiltinMethodType)) and \
                getattr(value, "__self__", None) is obj:
            return  # a method looked up through the class
        if type(obj) is types.FunctionType or isinstance(obj, type) and \
                O.is_staged_library(obj):
            return
        self.t.guards.attr_read(obj, name, value)

    def store_attr(self, obj, name, value):
        if self.symbolic and not self.t.may_mutate(obj):
            raise B.GraphBreak(B.SIDE_EFFECT, f"assignment to the attribute '{name}' of a "
                               f"{type(obj).__name__} that lives outside the function")
        setattr(obj, name, value)

    def delete_attr(self, obj, name):
        if self.symbolic and not self.t.may_mutate(obj):
            raise B.GraphBreak(B.SIDE_EFFECT, f"deletion of the attribute '{name}' of a "
                               f"{type(obj).__name__} that lives outside the function")
        delattr(obj, name)

    # ------------------------------------------------------------------- items
    def STORE_SUBSCR(self, frame, ins):
        key = frame.stack.pop()
        container = frame.stack.pop()
        value = frame.stack.pop()
        self._check_store_item(container)
        container[key] = value

    def DELETE_SUBSCR(self, frame, ins):
        key = frame.stack.pop()
        container = frame.stack.pop()
        self._check_store_item(container)
        del container[key]

    def STORE_SLICE(self, frame, ins):
        end = frame.stack.pop()
        start = frame.stack.pop()
        container = frame.stack.pop()
        value = frame.stack.pop()
        self._check_store_item(container)
        container[start:end] = value

    def _check_store_item(self, container):
        if self.symbolic and not self.t.may_mutate(container):
            self.t.outside_tensor_write(container)
            raise B.GraphBreak(B.SIDE_EFFECT, f"item assignment to a {type(container).__name__} "
                               "that lives outside the function")

    # ----------------------------------------------------------------- imports
    def IMPORT_NAME(self, frame, ins):
        fromlist = frame.stack.pop()
        level = frame.stack.pop()
        frame.stack.append(__import__(ins.argval, frame.globals, None, fromlist, level))

    def IMPORT_FROM(self, frame, ins):
        module = frame.stack[-1]
        try:
            frame.stack.append(getattr(module, ins.argval))
        except AttributeError:
            import importlib
            frame.stack.append(importlib.import_module(f"{module.__name__}.{ins.argval}"))
