"""Stack shuffling and ``BUILD_*`` / ``UNPACK_*`` / container-update handlers.

Containers built here are *fresh*: the captured code may mutate them freely
(``LIST_APPEND`` in a comprehension, ``d[k] = v`` on a dict it built).
"""
from __future__ import annotations

from msxla.capture.bytecode import breaks as B
from msxla.capture.bytecode.frame import NULL
from msxla.capture.bytecode.variables.builtins import graph_tensor
from msxla.capture.bytecode.variables.opaque import Opaque


def _pop_n(stack, n):
    if n == 0:
        return []
    items = stack[-n:]
    del stack[-n:]
    return items


class BuildOps:
    def _fresh(self, obj):
        return self.t.mark_fresh(obj) if self.symbolic else obj

    # ---------------------------------------------------------------- stack
    def NOP(self, frame, ins):
        pass

    def POP_TOP(self, frame, ins):
        frame.stack.pop()

    def END_FOR(self, frame, ins):
        del frame.stack[-2:]

    def PUSH_NULL(self, frame, ins):
        frame.stack.append(NULL)

    def COPY(self, frame, ins):
        frame.stack.append(frame.stack[-ins.arg])

    def SWAP(self, frame, ins):
        s = frame.stack
        s[-1], s[-ins.arg] = s[-ins.arg], s[-1]

    # ---------------------------------------------------------------- build
    def BUILD_TUPLE(self, frame, ins):
        frame.stack.append(tuple(_pop_n(frame.stack, ins.arg)))

    def BUILD_LIST(self, frame, ins):
        frame.stack.append(self._fresh(_pop_n(frame.stack, ins.arg)))

    def BUILD_SET(self, frame, ins):
        frame.stack.append(self._fresh(set(_pop_n(frame.stack, ins.arg))))

    def BUILD_MAP(self, frame, ins):
        items = _pop_n(frame.stack, 2 * ins.arg)
        frame.stack.append(self._fresh(dict(zip(items[::2], items[1::2]))))

    def BUILD_CONST_KEY_MAP(self, frame, ins):
        keys = frame.stack.pop()
        values = _pop_n(frame.stack, ins.arg)
        frame.stack.append(self._fresh(dict(zip(keys, values))))

    def BUILD_STRING(self, frame, ins):
        frame.stack.append("".join(_pop_n(frame.stack, ins.arg)))

    def BUILD_SLICE(self, frame, ins):
        frame.stack.append(slice(*_pop_n(frame.stack, ins.arg)))

    def LIST_APPEND(self, frame, ins):
        value = frame.stack.pop()
        frame.stack[-ins.arg].append(value)

    def SET_ADD(self, frame, ins):
        value = frame.stack.pop()
        frame.stack[-ins.arg].add(value)

    def MAP_ADD(self, frame, ins):
        value = frame.stack.pop()
        key = frame.stack.pop()
        frame.stack[-ins.arg][key] = value

    def LIST_EXTEND(self, frame, ins):
        items = frame.stack.pop()
        frame.stack[-ins.arg].extend(self.iterate(items))

    def SET_UPDATE(self, frame, ins):
        items = frame.stack.pop()
        frame.stack[-ins.arg].update(self.iterate(items))

    def DICT_UPDATE(self, frame, ins):
        items = frame.stack.pop()
        self._no_opaque(items)
        frame.stack[-ins.arg].update(items)

    def DICT_MERGE(self, frame, ins):
        items = frame.stack.pop()
        self._no_opaque(items)
        target = frame.stack[-ins.arg]
        for key in items:
            if key in target:
                raise TypeError(f"got multiple values for keyword argument '{key}'")
            target[key] = items[key]

    def LIST_TO_TUPLE(self, frame, ins):
        frame.stack.append(tuple(frame.stack.pop()))

    # --------------------------------------------------------------- unpack
    def UNPACK_SEQUENCE(self, frame, ins):
        items = list(self.iterate(frame.stack.pop()))
        if len(items) != ins.arg:
            raise ValueError(f"too many values to unpack (expected {ins.arg})"
                             if len(items) > ins.arg else
                             f"not enough values to unpack (expected {ins.arg}, got "
                             f"{len(items)})")
        frame.stack.extend(reversed(items))

    def UNPACK_EX(self, frame, ins):
        before, after = ins.arg & 0xFF, ins.arg >> 8
        items = list(self.iterate(frame.stack.pop()))
        if len(items) < before + after:
            raise ValueError(f"not enough values to unpack (expected at least "
                             f"{before + after}, got {len(items)})")
        middle = self._fresh(items[before:len(items) - after])
        out = items[:before] + [middle] + items[len(items) - after:]
        frame.stack.extend(reversed(out))

    def GET_LEN(self, frame, ins):
        self._no_opaque(frame.stack[-1])
        frame.stack.append(len(frame.stack[-1]))

    # --------------------------------------------------------------- format
    def FORMAT_VALUE(self, frame, ins):
        flags = ins.arg or 0
        spec = frame.stack.pop() if flags & 0x04 else ""
        value = frame.stack.pop()
        self._no_opaque(value)
        if self.symbolic and graph_tensor(value):
            raise B.GraphBreak(B.TENSOR_TO_PYTHON, "formatting a Tensor computed in the graph "
                               "(its text exists only when the graph runs)")
        conv = flags & 0x03
        if conv == 1:
            value = str(value)
        elif conv == 2:
            value = repr(value)
        elif conv == 3:
            value = ascii(value)
        frame.stack.append(format(value, spec))

    # ---------------------------------------------------------------- match
    def MATCH_MAPPING(self, frame, ins):
        import collections.abc
        frame.stack.append(isinstance(frame.stack[-1], collections.abc.Mapping))

    def MATCH_SEQUENCE(self, frame, ins):
        import collections.abc
        value = frame.stack[-1]
        frame.stack.append(isinstance(value, collections.abc.Sequence) and
                           not isinstance(value, (str, bytes, bytearray)))

    def MATCH_KEYS(self, frame, ins):
        keys, subject = frame.stack[-1], frame.stack[-2]
        if all(k in subject for k in keys):
            frame.stack.append(tuple(subject[k] for k in keys))
        else:
            frame.stack.append(None)

    def _no_opaque(self, value):
        if self.symbolic and isinstance(value, Opaque):
            raise B.GraphBreak(B.OPAQUE_VALUE, "an operation on a value Python computed at an "
                               "earlier graph break")
