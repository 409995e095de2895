"""Operators: ``BINARY_OP``, ``UNARY_*``, ``COMPARE_OP``, ``IS_OP``, ``CONTAINS_OP``,
``BINARY_SUBSCR`` and ``BINARY_SLICE``.

On Tensors these run msxla's operator rows on the traced values (the graph
grows). In-place operators on a list the code did not create (``acc += [x]``)
mutate outside state, so they are breaks; ``"%s" % tensor`` needs the
Tensor's text, so it is a break too.
"""
from __future__ import annotations

import operator

from msxla.capture.bytecode import breaks as B
from msxla.capture.bytecode import compat
from msxla.capture.bytecode.variables import objects as O
from msxla.capture.bytecode.variables.builtins import graph_tensor
from msxla.capture.bytecode.variables.opaque import Opaque
from msxla.common.cell_base import CellBase

_INPLACE = frozenset({operator.iadd, operator.iand, operator.ifloordiv, operator.ilshift,
                      operator.imatmul, operator.imul, operator.imod, operator.ior,
                      operator.ipow, operator.irshift, operator.isub, operator.itruediv,
                      operator.ixor})
_MUTABLE_BUILTINS = (list, dict, set, bytearray)


class MathOps:
    def _operands(self, *values):
        if self.symbolic:
            for v in values:
                if isinstance(v, Opaque):
                    raise B.GraphBreak(B.OPAQUE_VALUE, "an operator on a value Python computed "
                                       "at an earlier graph break")

    def BINARY_OP(self, frame, ins):
        right = frame.stack.pop()
        left = frame.stack.pop()
        op = ins.argval
        self._operands(left, right)
        if self.symbolic:
            if op in _INPLACE and isinstance(left, _MUTABLE_BUILTINS) and \
                    not self.t.may_mutate(left):
                raise B.GraphBreak(B.SIDE_EFFECT, f"'{ins.argrepr}' mutates a "
                                   f"{type(left).__name__} that lives outside the function")
            if op in (operator.mod, operator.imod) and isinstance(left, str) and \
                    _has_graph_tensor(right):
                raise B.GraphBreak(B.TENSOR_TO_PYTHON, "'%' formatting of a Tensor computed "
                                   "in the graph")
        result = op(left, right)
        if self.symbolic and op in _INPLACE and result is not left and \
                isinstance(result, _MUTABLE_BUILTINS):
            self.t.mark_fresh(result)
        frame.stack.append(result)

    def UNARY_NEGATIVE(self, frame, ins):
        self._operands(frame.stack[-1])
        frame.stack.append(-frame.stack.pop())

    def UNARY_POSITIVE(self, frame, ins):
        self._operands(frame.stack[-1])
        frame.stack.append(+frame.stack.pop())

    def UNARY_INVERT(self, frame, ins):
        self._operands(frame.stack[-1])
        frame.stack.append(~frame.stack.pop())

    def UNARY_NOT(self, frame, ins):
        frame.stack.append(not self.truth(frame.stack.pop()))

    def COMPARE_OP(self, frame, ins):
        right = frame.stack.pop()
        left = frame.stack.pop()
        self._operands(left, right)
        frame.stack.append(compat.COMPARE_OPS[ins.argval](left, right))

    def IS_OP(self, frame, ins):
        right = frame.stack.pop()
        left = frame.stack.pop()
        if isinstance(left, Opaque):
            left = left.value
        if isinstance(right, Opaque):
            right = right.value
        frame.stack.append((left is not right) if ins.arg else (left is right))

    def CONTAINS_OP(self, frame, ins):
        container = frame.stack.pop()
        item = frame.stack.pop()
        self._operands(container, item)
        if self.symbolic and graph_tensor(container):
            raise B.GraphBreak(B.TENSOR_TO_PYTHON, "'in' on a Tensor computed in the graph")
        result = item in container
        if self.symbolic and not self.t.is_tracked(container) and \
                isinstance(container, _MUTABLE_BUILTINS):
            self.t.guards.contents_read(container)
        frame.stack.append((not result) if ins.arg else result)

    def BINARY_SUBSCR(self, frame, ins):
        key = frame.stack.pop()
        container = frame.stack.pop()
        frame.stack.append(self.get_item(container, key))

    def BINARY_SLICE(self, frame, ins):
        end = frame.stack.pop()
        start = frame.stack.pop()
        container = frame.stack.pop()
        frame.stack.append(self.get_item(container, slice(start, end)))

    def get_item(self, container, key):
        self._operands(container, key)
        value = container[key]
        if self.symbolic and not self.t.is_tracked(container):
            self.t.saw_external(value)
            if isinstance(container, CellBase):
                self.t.guards.library_cell(container)
            elif isinstance(container, _MUTABLE_BUILTINS):
                if isinstance(key, slice):
                    self.t.guards.contents_read(container)
                else:
                    self.t.guards.item_read(container, key, value)
            elif not isinstance(container, (tuple, str)) and not O.is_staged_library(
                    type(container)) and not graph_tensor(container):
                self.t.guards.item_read(container, key, value)
        return value


def _has_graph_tensor(value):
    if isinstance(value, tuple):
        return any(graph_tensor(v) for v in value)
    return graph_tensor(value)
