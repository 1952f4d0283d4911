"""Memoise a function of one file by the file's identity on disk (standard library only).

A build reads the same example and the same records many times (every embed, both languages, the
notebooks, the verification line), and ``make serve`` rebuilds in a long-lived process. Parsing and
validating each time cost most of a build (``make bench``). ``file_memo`` keeps one result per file
and reuses it while the file's ``stat`` is unchanged, so an edited or re-captured file is read again on
the next call; nothing has to be invalidated by hand.

The stat key is (inode, size, mtime in ns, ctime in ns): a rewrite by an editor, ``git checkout`` or
``atomic_write_text`` (a rename onto the path, so a new inode) changes it.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable
from typing import TypeVar

R = TypeVar("R")


def stat_key(path: str | os.PathLike) -> tuple[int, int, int, int] | None:
    """The identity of ``path``'s current content on disk, or None when it does not exist."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return None
    return (st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


def file_memo(fn: Callable[..., R]) -> Callable[..., R]:
    """Decorate ``fn(path, *args, **kwargs)``: reuse its last result for the same arguments while the file is unchanged.

    The result must be treated as immutable by callers (the project's results are frozen dataclasses).
    Exceptions are not cached: a file that failed to parse is read again on the next call.
    ``wrapper.cache_clear()`` forgets everything (tests).
    """
    cache: dict[tuple, tuple[tuple | None, R]] = {}

    @functools.wraps(fn)
    def wrapper(path, *args, **kwargs):
        p = os.fspath(path)
        key = (os.path.abspath(p), *map(_hashable, args), *sorted((k, _hashable(v)) for k, v in kwargs.items()))
        stamp = stat_key(p)
        hit = cache.get(key)
        if hit is not None and hit[0] == stamp and stamp is not None:
            return hit[1]
        result = fn(path, *args, **kwargs)
        cache[key] = (stamp, result)
        return result

    wrapper.cache_clear = cache.clear  # type: ignore[attr-defined]
    return wrapper


def _hashable(value):
    return os.fspath(value) if isinstance(value, os.PathLike) else value
