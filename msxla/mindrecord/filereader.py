"""``mindspore.mindrecord.FileReader``: read MindRecord files row by row."""
from __future__ import annotations

from msxla.mindrecord._shards import ShardSet, python_value, shard_files
from msxla.mindrecord.common.exceptions import ParamTypeError, ParamValueError


class FileReader:
    """Rows of MindRecord files as dicts (``get_next()`` yields them all)."""

    def __init__(self, file_name, num_consumer=4, columns=None, operator=None):
        if not isinstance(file_name, (str, list)):
            raise ParamTypeError("file_name", "str or list")
        self._set = ShardSet(shard_files(file_name))
        if columns is not None:
            if not isinstance(columns, list):
                raise ParamTypeError("columns", "list")
            missing = [c for c in columns if c not in self._set.schema]
            if missing:
                raise ParamValueError(f"columns {missing} are not in the schema.")
        self._columns = columns

    def get_next(self):
        for i in range(len(self._set)):
            row = self._set.read(i)
            names = self._columns or sorted(row)
            yield {n: python_value(self._set.schema[n], row[n]) for n in names}

    def schema(self):
        return dict(self._set.schema)

    def len(self):
        return len(self._set)

    def close(self):
        self._set.close()
