"""Memoise a function of one file by the file's identity on disk (standard library only).

A build reads the same example and the same records many times (every embed, both languages, the
notebooks, the verification line), and ``make serve`` rebuilds in a long-lived process. Parsing and
validating each time cost most of a build (``make bench``). ``file_memo`` keeps one result per file
and reuses it while the file's ``stat`` is unchanged, so an edited or re-captured file is read again on
the next call; nothing has to be invalidated by hand.

The stat key is (inode, size, mtime in ns, ctime in ns): a rewrite by an editor, ``git checkout`` or
``atomic.write_atomic`` (a rename onto the path, so a new inode) changes it.

Across processes: every ``mkdocs build`` is a new process that would parse all 162 examples, load
their records and localize their comments again (~0.4 s of a ~4 s warm build, 2 cores). A memo
declared with a ``persist`` name (``file_memo(persist=...)``, ``value_memo``) is also kept in a pickle
file once ``persist`` names a directory and a version; the site build does both (``site/plugin.py``:
the version is the environment digest of its one cache, ``site/cache.py``, which covers the package's
code) and calls ``save`` at its end. Results of files whose stat changed are dropped when saving, and
another version makes every stored file unread.
"""

from __future__ import annotations

import functools
import os
import pickle
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from pytorch_notes.atomic import write_atomic

R = TypeVar("R")


def stat_key(path: str | os.PathLike) -> tuple[int, int, int, int] | None:
    """The identity of ``path``'s current content on disk, or None when it does not exist."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return None
    return (st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


def file_memo(fn: Callable[..., R] | None = None, *, persist: str | None = None):
    """Decorate ``fn(path, *args, **kwargs)``: reuse its last result for the same arguments while the file is unchanged.

    The result must be treated as immutable by callers (the project's results are frozen dataclasses).
    Exceptions are not cached: a file that failed to parse is read again on the next call.
    ``wrapper.cache_clear()`` forgets everything (tests).

    With ``persist="<name>"`` the results also outlive the process once ``persist`` has been called
    (the site build does; see there): ``@file_memo(persist="examples")``.
    """
    if fn is None:
        return functools.partial(file_memo, persist=persist)
    cache: dict[tuple, tuple[tuple | None, R]] = {}
    stored = _Stored(persist, cache, by_file=True) if persist else None

    @functools.wraps(fn)
    def wrapper(path, *args, **kwargs):
        p = os.fspath(path)
        key = (os.path.abspath(p), *map(_hashable, args), *sorted((k, _hashable(v)) for k, v in kwargs.items()))
        stamp = stat_key(p)
        if stored is not None:
            stored.load()
        hit = cache.get(key)
        if hit is not None and hit[0] == stamp and stamp is not None:
            return hit[1]
        result = fn(path, *args, **kwargs)
        cache[key] = (stamp, result)
        if stored is not None:
            stored.changed = True
        return result

    wrapper.cache_clear = cache.clear  # type: ignore[attr-defined]
    return wrapper


def value_memo(persist: str, limit: int = 20_000):
    """Decorate a pure function of plain, hashable arguments (strings, numbers): reuse its results, in
    this process and, once ``persist`` has been called, across processes under ``persist``'s name.
    At most ``limit`` results are stored; beyond that only the ones this process used are kept."""

    def decorate(fn: Callable[..., R]) -> Callable[..., R]:
        cache: dict[tuple, R] = {}
        stored = _Stored(persist, cache, by_file=False, limit=limit)

        @functools.wraps(fn)
        def wrapper(*args):
            stored.load()
            try:
                result = cache[args]
            except KeyError:
                result = cache[args] = fn(*args)
                stored.changed = True
            stored.used.add(args)
            return result

        def cache_clear() -> None:
            cache.clear()
            stored.used.clear()

        wrapper.cache_clear = cache_clear  # type: ignore[attr-defined]
        return wrapper

    return decorate


# ---------------------------------------------------------------- across processes

_directory: Path | None = None
_version = ""
_stored: list[_Stored] = []


class _Stored:
    """The pickle file ``<directory>/<name>.pickle`` of one memo: {"version", "entries"}."""

    def __init__(self, name: str, cache: dict, *, by_file: bool, limit: int = 0) -> None:
        self.name, self.cache, self.by_file, self.limit = name, cache, by_file, limit
        self.loaded, self.changed = False, False
        self.used: set = set()
        _stored.append(self)

    def path(self) -> Path | None:
        return _directory / f"{self.name}.pickle" if _directory is not None else None

    def load(self) -> None:
        if self.loaded or (path := self.path()) is None:
            return
        self.loaded = True
        try:
            with open(path, "rb") as fh:
                data = pickle.load(fh)
        except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError, TypeError, ValueError):
            return  # none yet, or written by other code: start empty
        if isinstance(data, dict) and data.get("version") == _version and isinstance(data.get("entries"), dict):
            for key, value in data["entries"].items():
                self.cache.setdefault(key, value)

    def save(self) -> None:
        if not self.changed or (path := self.path()) is None:
            return
        if self.by_file:  # only results that still match their file
            entries = {k: v for k, v in self.cache.items() if v[0] is not None and stat_key(k[0]) == v[0]}
        elif len(self.cache) > self.limit:
            entries = {k: v for k, v in self.cache.items() if k in self.used}
        else:
            entries = dict(self.cache)
        write_atomic(path, pickle.dumps({"version": _version, "entries": entries}, protocol=pickle.HIGHEST_PROTOCOL))
        self.changed = False


def persist(directory: Path | None, version: str) -> None:
    """Keep the memos declared with a ``persist`` name in ``directory`` (``save`` writes them; each is
    read on its first use). ``version`` is part of every stored file: pass a digest of the code whose
    results are kept (the site build passes its cache's environment digest, ``site/cache.py``), so that
    changed code never reads an older code's results. ``directory`` None: nothing is read or written
    any more (as before any call).

    The files are pickles, read only from this directory, which the project's own build writes
    (``.cache/pytorch-notes/memo/``: ``make clean`` removes it).
    """
    global _directory, _version
    if _directory != directory or _version != version:
        for s in _stored:
            s.loaded = False  # read again from the new place
        _directory, _version = directory, version


def persisting() -> tuple[Path | None, str]:
    """The ``(directory, version)`` that ``persist`` was last given; ``(None, "")`` before any call."""
    return _directory, _version


def forget() -> None:
    """Empty every memo declared with a ``persist`` name and mark its stored file unread, as a new process
    starts (what ``persist`` set stays): each memo's next call computes its result again or reads it from
    its stored file. For tests, which play several processes in one."""
    for s in _stored:
        s.cache.clear()
        s.used.clear()
        s.loaded, s.changed = False, False


def save() -> None:
    """Write every persisted memo that gained results since it was read (atomically; a concurrent build
    writing the same file at worst loses the other's additions)."""
    for s in _stored:
        s.save()


def _hashable(value):
    return os.fspath(value) if isinstance(value, os.PathLike) else value
