"""The fallback's check that an example left the repository as it found it. Standard library only.

Without bubblewrap (``sandbox.py``) an example's process may write wherever its user may, so the capture
takes a snapshot of the repository before a run and compares after it: every file added, removed or
changed (size, modification or change time, inode, mode, owner, or a symbolic link's target) is named,
and undone (``undo.py``) before anything reads it. Bytecode is checked like any file: every
``__pycache__`` folder, and the interpreter's bytecode prefix (``sys.pycache_prefix``, the virtualenv's
``pycache`` under ``make``) where it lies outside the repository, since the next ``import`` runs what is
there. Left out: the caches of the linters and of pytest (``TOOL_CACHES``), which hold no code, nothing
reads into the site, and a contributor's editor rewrites at any moment.

Whose change it was. When the example runs as another user than the capture (``fallback.ExampleUser``:
the capture is root, the example a uid of its own), only what that user could have done is its change: a file
it owns, one whose permissions let it write, or an entry added or removed in a folder it may write.
Anything else that changed meanwhile (another process of the machine's, a contributor's editor) is
neither failed nor undone. When the example runs as the capture's own user, every change is taken as
its own: the capture cannot tell who wrote it.

A 65,000-entry checkout (with its virtualenv and 22,000 bytecode files) takes about 1 s per snapshot on
a loaded 2-core machine.
"""

from __future__ import annotations

import os
import stat
import sys
from dataclasses import dataclass
from pathlib import Path

Snapshot = dict[str, tuple]
TOOL_CACHES = frozenset({".ruff_cache", ".pytest_cache", ".mypy_cache"})


@dataclass(frozen=True)
class Change:
    """One difference between two snapshots: ``what`` is ``added``, ``removed`` or ``changed``; ``path`` the
    key of both snapshots (relative to the repository, or absolute outside it); ``before``/``after`` the
    entries (None where there is none)."""

    what: str
    path: str
    before: tuple | None
    after: tuple | None

    def __str__(self) -> str:
        return f"{self.what} {self.path}"


def watched_folders(root: Path) -> list[Path]:
    """What the fallback snapshots for a repository ``root``: the repository, and the interpreter's bytecode
    prefix when it lies outside it."""
    folders = [Path(root)]
    prefix = sys.pycache_prefix
    if prefix and os.path.isdir(prefix) and not _inside(os.path.realpath(prefix), os.path.realpath(root)):
        folders.append(Path(prefix))
    return folders


def _inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def snapshot(root: Path, ignored: tuple[str, ...] = (), extra: tuple[Path, ...] = ()) -> Snapshot:
    """``{key: entry}`` of everything under ``root`` and the ``extra`` folders (symbolic links not followed),
    keyed by the path relative to ``root`` (``root`` itself is ``.``; absolute for ``extra``); ``ignored``
    folders and ``TOOL_CACHES`` are not entered. An entry is ``("file", size, mtime_ns, ctime_ns,
    inode, mode, uid, gid)``, ``("dir", mode, uid, gid)`` or ``("link", target, uid)``. The change time is the
    one an example cannot set back (``os.utime`` sets the modification time, and changes the change time
    doing so)."""
    skip = {os.path.realpath(p) for p in ignored}
    found: Snapshot = {}
    for top in (Path(root), *extra):
        found.update(_walk(str(top), str(root) if top == Path(root) else None, skip))
    return found


def _walk(top: str, relative_to: str | None, skip: set[str]) -> Snapshot:
    found: Snapshot = {}
    try:
        st = os.stat(top, follow_symlinks=False)
        found["." if relative_to is not None else top] = ("dir", st.st_mode, st.st_uid, st.st_gid)
    except OSError:
        return found
    todo = [top]
    while todo:
        folder = todo.pop()
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            try:
                st = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            key = os.path.relpath(entry.path, relative_to) if relative_to is not None else entry.path
            if stat.S_ISLNK(st.st_mode):
                try:
                    found[key] = ("link", os.readlink(entry.path), st.st_uid)
                except OSError:
                    continue
            elif stat.S_ISDIR(st.st_mode):
                if entry.name in TOOL_CACHES or os.path.realpath(entry.path) in skip:
                    continue
                found[key] = ("dir", st.st_mode, st.st_uid, st.st_gid)
                todo.append(entry.path)
            else:
                found[key] = ("file", st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino, st.st_mode,
                              st.st_uid, st.st_gid)
    return found


def changes(before: Snapshot, after: Snapshot) -> list[Change]:
    """What differs between two snapshots, sorted by path: entries added or removed, and files or links
    changed (a folder whose entries changed is not itself a change)."""
    found = [Change("added", p, None, after[p]) for p in after.keys() - before.keys()]
    found += [Change("removed", p, before[p], None) for p in before.keys() - after.keys()]
    found += [Change("changed", p, before[p], after[p]) for p in before.keys() & after.keys()
              if before[p] != after[p] and not (before[p][0] == after[p][0] == "dir")]
    return sorted(found, key=lambda c: c.path)


def may_write(entry: tuple | None, uid: int, gids: frozenset[int]) -> bool:
    """Whether user ``uid`` (groups ``gids``) may write the file or folder of snapshot ``entry``, by its mode
    bits (a folder: add and remove entries in it)."""
    if entry is None or entry[0] == "link":
        return False
    mode, owner, group = (entry[1], entry[2], entry[3]) if entry[0] == "dir" else (entry[5], entry[6], entry[7])
    if owner == uid:
        return bool(mode & stat.S_IWUSR)
    if group in gids:
        return bool(mode & stat.S_IWGRP)
    return bool(mode & stat.S_IWOTH)


def owned_by(entry: tuple | None, uid: int) -> bool:
    """Whether snapshot ``entry`` belongs to ``uid``."""
    if entry is None:
        return False
    return entry[2 if entry[0] == "link" else 3 if entry[0] == "dir" else 6] == uid


def theirs(change: Change, before: Snapshot, after: Snapshot, uid: int, gids: frozenset[int]) -> bool:
    """Whether user ``uid`` (groups ``gids``) could have made ``change``: it owns the entry, before or after,
    or could write the file, or the folder the entry is in (as that folder was before the run, or after)."""
    if owned_by(change.after, uid) or owned_by(change.before, uid):
        return True
    if change.what == "changed" and may_write(change.before, uid, gids):
        return True
    parent = os.path.dirname(change.path) or "."
    return may_write(before.get(parent), uid, gids) or may_write(after.get(parent), uid, gids)
