"""The fallback's check that an example left the repository as it found it. Standard library only.

Without bubblewrap (``sandbox.py``) an example's process could write anywhere its user may, so the
capture takes a snapshot of the repository before a run and compares after it: every file added,
removed or changed (size, modification or change time, inode, mode, or a symlink's target) fails the run,
naming each path. Left out: bytecode that Python writes for itself (``__pycache__`` folders and
``sys.pycache_prefix``) and the caches of the linters and of pytest at the top (``TOOL_CACHES``),
which a contributor's editor rewrites at any moment. Anything else that changes during a run, an
edit of the contributor's included, fails it: the capture cannot tell who wrote it. The capture writes
its own records only between runs, one run at a time (``capture/run.py`` stores a result before the
next run starts, and the fallback runs one job), so every other change seen here is the example's.

A 50,000-file checkout (with its virtualenv) takes about 0.25 s per snapshot on a 2-core machine.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

Snapshot = dict[str, tuple]
TOOL_CACHES = frozenset({".ruff_cache", ".pytest_cache", ".mypy_cache"})


def _skipped(path: str, pycache: str | None, top: bool) -> bool:
    name = os.path.basename(path)
    return name == "__pycache__" or (top and name in TOOL_CACHES) or (pycache is not None and path == pycache)


def snapshot(root: Path, ignored: tuple[str, ...] = ()) -> Snapshot:
    """``{relative path: (kind, size, mtime_ns, ctime_ns, inode, mode, link target)}`` of everything under
    ``root`` (symlinks not followed), without bytecode caches. The change time is the one an example cannot
    set back (``os.utime`` sets the modification time, and changes the change time doing so)."""
    pycache = os.path.realpath(sys.pycache_prefix) if sys.pycache_prefix else None
    skip = {os.path.realpath(p) for p in ignored}
    found: Snapshot = {}
    todo = [str(root)]
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
            rel = os.path.relpath(entry.path, root)
            if entry.is_symlink():
                found[rel] = ("link", os.readlink(entry.path))
            elif entry.is_dir(follow_symlinks=False):
                if not _skipped(entry.path, pycache, folder == str(root)) and os.path.realpath(entry.path) not in skip:
                    found[rel] = ("dir", st.st_mode)
                    todo.append(entry.path)
            else:
                found[rel] = ("file", st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino, st.st_mode)
    return found


def changes(before: Snapshot, after: Snapshot) -> list[str]:
    """What differs between two snapshots, one line per path, sorted: ``added x``, ``removed x``, ``changed x``."""
    lines = [f"added {p}" for p in after.keys() - before.keys()]
    lines += [f"removed {p}" for p in before.keys() - after.keys()]
    lines += [f"changed {p}" for p in before.keys() & after.keys()
              if before[p] != after[p] and before[p][0] != "dir"]
    return sorted(lines, key=lambda line: line.split(" ", 1)[1])
