"""``import mindspore`` in a process started by a ``python -m msxla`` run.

``python -m msxla`` puts this directory first on ``PYTHONPATH``, so processes
the script starts (dataset workers, launched ranks, ``python`` subprocesses)
resolve ``mindspore`` to msxla too: importing this package turns the alias on
and hands back msxla itself.
"""
__msxla_shim__ = True

import msxla._alias  # noqa: E402

msxla._alias.alias_mindspore(quiet=True)
