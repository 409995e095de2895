"""Cell containers: SequentialCell, CellList, CellDict."""
from __future__ import annotations

from collections import OrderedDict

from msxla.nn.cell import Cell, bump_epoch


def _check_cell(name, cell):
    if not isinstance(cell, Cell):
        raise TypeError(f"For '{name}', each element must be a Cell, but got "
                        f"{type(cell).__name__}.")
    return cell


class SequentialCell(Cell):
    """Calls its cells in order: ``SequentialCell([a, b])(x) == b(a(x))``."""

    def __init__(self, *args):
        super().__init__()
        if len(args) == 1 and isinstance(args[0], (list, tuple)):
            items = list(enumerate(args[0]))
        elif len(args) == 1 and isinstance(args[0], (dict, OrderedDict)):
            items = list(args[0].items())
        else:
            items = list(enumerate(args))
        for key, cell in items:
            self.insert_child_to_cell(str(key), _check_cell("SequentialCell", cell))

    def construct(self, input_data):
        for cell in self._cells.values():
            input_data = cell(input_data)
        return input_data

    def __getitem__(self, index):
        if isinstance(index, slice):
            return SequentialCell(list(self._cells.values())[index])
        return list(self._cells.values())[index]

    def __setitem__(self, index, cell):
        key = list(self._cells.keys())[index]
        self.insert_child_to_cell(key, _check_cell("SequentialCell", cell))

    def __delitem__(self, index):
        keys = list(self._cells.keys())
        for key in (keys[index] if isinstance(index, slice) else [keys[index]]):
            del self._cells[key]
        self._renumber()

    def __len__(self):
        return len(self._cells)

    def __iter__(self):
        return iter(self._cells.values())

    def _renumber(self):
        cells = list(self._cells.values())
        self._cells.clear()
        for i, cell in enumerate(cells):
            self._cells[str(i)] = cell
        bump_epoch()

    def append(self, cell):
        self.insert_child_to_cell(str(len(self._cells)), _check_cell("SequentialCell", cell))
        return self

    def insert(self, index, cell):
        cells = list(self._cells.values())
        cells.insert(index, _check_cell("SequentialCell", cell))
        self._cells.clear()
        for i, c in enumerate(cells):
            self.insert_child_to_cell(str(i), c)


class CellList(Cell):
    """A list of Cells registered as children named ``0``, ``1``, ..."""

    def __init__(self, *args, **kwargs):
        super().__init__()
        if args:
            self.extend(args[0])

    def __getitem__(self, index):
        if isinstance(index, slice):
            return CellList(list(self._cells.values())[index])
        return list(self._cells.values())[index]

    def __setitem__(self, index, cell):
        key = list(self._cells.keys())[index]
        self.insert_child_to_cell(key, _check_cell("CellList", cell))

    def __delitem__(self, index):
        keys = list(self._cells.keys())
        for key in (keys[index] if isinstance(index, slice) else [keys[index]]):
            del self._cells[key]
        cells = list(self._cells.values())
        self._cells.clear()
        for i, c in enumerate(cells):
            self._cells[str(i)] = c
        bump_epoch()

    def __len__(self):
        return len(self._cells)

    def __iter__(self):
        return iter(self._cells.values())

    def __iadd__(self, cells):
        return self.extend(cells)

    def append(self, cell):
        self.insert_child_to_cell(str(len(self._cells)), _check_cell("CellList", cell))
        return self

    def extend(self, cells):
        for cell in cells:
            self.append(cell)
        return self

    def insert(self, index, cell):
        cells = list(self._cells.values())
        cells.insert(index, _check_cell("CellList", cell))
        self._cells.clear()
        for i, c in enumerate(cells):
            self.insert_child_to_cell(str(i), c)

    def construct(self, *inputs):
        raise NotImplementedError("CellList is a container; call its elements.")


class CellDict(Cell):
    """An ordered dict of Cells registered under their keys."""

    def __init__(self, *args, **kwargs):
        super().__init__()
        if args:
            self.update(args[0])

    def __getitem__(self, key):
        return self._cells[key]

    def __setitem__(self, key, cell):
        self.insert_child_to_cell(key, _check_cell("CellDict", cell))

    def __delitem__(self, key):
        del self._cells[key]
        bump_epoch()

    def __len__(self):
        return len(self._cells)

    def __iter__(self):
        return iter(self._cells)

    def __contains__(self, key):
        return key in self._cells

    def keys(self):
        return self._cells.keys()

    def values(self):
        return self._cells.values()

    def items(self):
        return self._cells.items()

    def pop(self, key):
        cell = self._cells.pop(key)
        bump_epoch()
        return cell

    def clear(self):
        self._cells.clear()
        bump_epoch()

    def update(self, cells):
        items = cells.items() if hasattr(cells, "items") else cells
        for key, cell in items:
            self[key] = cell

    def construct(self, *inputs):
        raise NotImplementedError("CellDict is a container; call its elements.")
