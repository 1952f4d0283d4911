"""The site directory of a full build: files are written over the last build's, and what the build did
not write is removed after it, instead of MkDocs emptying the directory first.

MkDocs' ``build`` calls ``mkdocs.utils.clean_directory(site_dir)`` before every full (not ``--dirty``)
build: it deletes the ~1,100 files of the last build and then creates each of them again. On ext4
without a journal (how this project's machines mount their disk: ``dmesg`` says "mounted filesystem
... without journal") creating a file right after deleting others is slow: ``find_inode_bit`` in
``fs/ext4/ialloc.c`` skips every inode deleted in the last 60 s (360 s while its inode table block is
dirty), one ``recently_deleted`` check each, before it takes a free one. ``perf`` put 22 % of a warm
build's busy time there, and the build spent 1.7–2.2 s in the kernel instead of 0.35–0.6 s when it
wrote over the existing files (warm strict build of this course, 2 cores, 2026-11-23). Writing over a
file keeps its inode on every file system, so the saving is not peculiar to ext4.

``install`` replaces ``clean_directory`` with ``defer_clean``, which only notes the directory and the
file system's time at that moment; ``remove_stale`` (the last ``on_post_build`` of the outer build)
then deletes every file under it last modified before that time: the files this build did not write,
whichever plugin would have written them. Hidden entries at the top are kept, as MkDocs keeps them.
The site is the same as after a clean build (``tests/test_incremental.py`` builds over a site holding
leftovers and compares the trees file by file; ``tests/test_sitedir.py`` tests the removal).
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass

import mkdocs.utils

from pytorch_notes.site.common import log


@dataclass(frozen=True)
class _Pending:
    directory: str
    since_ns: int  # the file system's modification time of a file created when the build started


_pending: _Pending | None = None
_mkdocs_clean_directory = mkdocs.utils.clean_directory


def _fs_now_ns(directory: str) -> int:
    """The modification time the file system gives a file written now in ``directory``: the clock that
    stamps the build's own files (a coarse kernel clock, which can lag ``time.time_ns()``)."""
    fd, path = tempfile.mkstemp(prefix=".pytorch-notes-", dir=directory)
    try:
        return os.fstat(fd).st_mtime_ns
    finally:
        os.close(fd)
        os.unlink(path)


def defer_clean(directory: str) -> None:
    """Stand-in for ``mkdocs.utils.clean_directory``: remember ``directory`` and when the build began;
    the files the build does not write again are removed by ``remove_stale``."""
    global _pending
    if not os.path.isdir(directory):
        _pending = None
        return
    _pending = _Pending(os.path.abspath(directory), _fs_now_ns(directory))


def install() -> None:
    """Make MkDocs' full builds write over the last build's files (``on_config``; idempotent)."""
    if mkdocs.utils.clean_directory is _mkdocs_clean_directory:
        mkdocs.utils.clean_directory = defer_clean


def _same_content(path: str, content: str | bytes) -> bool:
    data = content.encode("utf-8") if isinstance(content, str) else content
    try:
        if os.path.getsize(path) != len(data):
            return False
        with open(path, "rb") as fh:
            return fh.read() == data
    except OSError:
        return False


def keep_unchanged_generated_files() -> None:
    """Under ``make serve`` (``dirty``), do not write a generated file (a ``.py`` download, a figure)
    that the site already holds with the same content (``on_config``; once).

    MkDocs counts a file generated from content as modified on every build (``File.is_modified``), so
    each rebuild wrote all of them again: ~0.15 s of a 0.9 s rebuild after a page edit (2 cores,
    2026-11-23). Full builds still write every file: ``remove_stale`` tells the files a build wrote by
    their modification time.
    """
    from mkdocs.structure.files import File  # noqa: PLC0415

    copy_file = File.copy_file
    if getattr(copy_file, "_pytorch_notes_keep", False):
        return

    def copy_unless_same(self, dirty: bool = False) -> None:
        content = self._content
        if dirty and content is not None and not callable(content) and _same_content(self.abs_dest_path, content):
            return None
        return copy_file(self, dirty)

    copy_unless_same._pytorch_notes_keep = True  # type: ignore[attr-defined]
    File.copy_file = copy_unless_same


def forget(error: BaseException | None = None) -> None:
    """Drop the pending clean-up of a failed build (``on_build_error``). When the failure is a file
    of the last build standing where this one writes a directory (or the reverse), say how to clear it."""
    global _pending
    pending, _pending = _pending, None
    if pending is not None and isinstance(error, (FileExistsError, NotADirectoryError, IsADirectoryError)):
        log.error(f"{getattr(error, 'filename', '') or pending.directory}: a file of the last build is in the way "
                  f"of this one (a file became a folder or the reverse); delete {pending.directory} (make clean) "
                  f"and build again")


def remove_stale() -> list[str]:
    """Delete the files under the pending directory not written since its build began, then the
    directories left empty; hidden entries at its top are kept. Returns the removed files' paths
    relative to the directory (sorted)."""
    global _pending
    pending, _pending = _pending, None
    if pending is None:
        return []
    removed = _prune(pending.directory, pending.since_ns, top=True)
    if removed:
        log.debug(f"removed {len(removed)} file(s) the build did not write again from {pending.directory}")
    return sorted(os.path.relpath(p, pending.directory) for p in removed)


def _prune(directory: str, since_ns: int, top: bool = False) -> list[str]:
    """Delete the files under ``directory`` modified before ``since_ns``, then ``directory`` itself if
    that left it empty; at the ``top``, hidden entries are skipped and the directory is kept."""
    removed = []
    with os.scandir(directory) as it:
        entries = [e for e in it if not (top and e.name.startswith("."))]
    for entry in entries:
        if entry.is_dir(follow_symlinks=False):
            removed += _prune(entry.path, since_ns)
        elif entry.stat(follow_symlinks=False).st_mtime_ns < since_ns:
            os.unlink(entry.path)
            removed.append(entry.path)
    if top:
        return removed
    try:
        os.rmdir(directory)  # only succeeds when nothing is left in it
    except OSError:
        pass
    return removed

