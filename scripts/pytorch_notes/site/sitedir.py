"""The site directory of a full build: files are written over the last build's, and what the build did
not write is removed after it, instead of MkDocs emptying the directory first.

MkDocs' ``build`` calls ``mkdocs.utils.clean_directory(site_dir)`` before every full (not ``--dirty``)
build: it deletes every file of the last build, and the build then creates each of them again. On ext4
without a journal (how this project's machines mount their disk) creating a file right after deleting
others is slow: ``find_inode_bit`` in ``fs/ext4/ialloc.c`` skips every inode deleted in the last 60 s
(360 s while its inode table block is dirty), one ``recently_deleted`` check each, before it takes a
free one. Writing over a file keeps its inode on every file system, so the saving is not peculiar to
ext4.

Only public events do it. ``SiteDir.set_aside`` (``on_pre_build`` of the outer build, just before
MkDocs cleans) moves the site's top-level entries into a hidden folder, which ``clean_directory`` keeps,
and leaves a visible marker; ``SiteDir.put_back`` (the first ``on_files``) moves them back. The marker
tells whether MkDocs cleaned (a full build): then ``SiteDir.remove_stale`` (the last ``on_post_build``
of the outer build) deletes every file under the site last modified before the file system's time at
``set_aside``: the files this build did not write, whichever plugin would have written them. Hidden
entries at the top are kept, as MkDocs keeps them. The site is the same as after a clean build
(``tests/site/test_incremental.py`` builds over a site holding leftovers and compares the trees file by file;
``tests/site/test_sitedir.py`` tests each step).
"""

from __future__ import annotations

import os
import shutil
import tempfile

from pytorch_notes.site.common import log

ASIDE = ".pytorch-notes-last-build"  # hidden: MkDocs' clean_directory leaves it
MARKER = "pytorch-notes-not-cleaned"  # visible: MkDocs' clean_directory removes it


def _fs_now_ns(directory: str) -> int:
    """The modification time the file system gives a file written now in ``directory``: the clock that
    stamps the build's own files (a coarse kernel clock, which can lag ``time.time_ns()``)."""
    fd, path = tempfile.mkstemp(prefix=".pytorch-notes-", dir=directory)
    try:
        return os.fstat(fd).st_mtime_ns
    finally:
        os.close(fd)
        os.unlink(path)


class SiteDir:
    """The site directory of the outer build: set aside before MkDocs cleans it, put back after."""

    def __init__(self) -> None:
        self.directory: str | None = None
        self.since_ns: int | None = None  # set when MkDocs cleaned: the files older than this go afterwards

    def set_aside(self, directory: str) -> None:
        """Move the top-level entries of ``directory`` into its hidden ``ASIDE`` folder and leave the
        ``MARKER`` (``on_pre_build`` of the outer build, the last event before MkDocs' clean-up)."""
        self.directory, self.since_ns = None, None
        if not os.path.isdir(directory):
            return
        aside = os.path.join(directory, ASIDE)
        if os.path.isdir(aside):  # an earlier build stopped before putting them back
            self._move_back(directory)
        os.makedirs(aside, exist_ok=True)
        for name in os.listdir(directory):
            if not name.startswith("."):
                os.rename(os.path.join(directory, name), os.path.join(aside, name))
        self.directory = os.path.abspath(directory)
        self.since_ns = _fs_now_ns(directory)
        with open(os.path.join(directory, MARKER), "w"):
            pass

    def put_back(self) -> None:
        """Move the entries set aside back (the first ``on_files``). The marker still there means that
        MkDocs did not clean (``--dirty``): nothing will be removed after the build."""
        if self.directory is None or not os.path.isdir(os.path.join(self.directory, ASIDE)):
            return  # nothing set aside, or put back already (the languages' inner builds)
        marker = os.path.join(self.directory, MARKER)
        if os.path.exists(marker):
            os.unlink(marker)
            self.since_ns = None
        self._move_back(self.directory)

    @staticmethod
    def _move_back(directory: str) -> None:
        aside = os.path.join(directory, ASIDE)
        for name in os.listdir(aside):
            target = os.path.join(directory, name)
            if not os.path.lexists(target):
                os.rename(os.path.join(aside, name), target)
        shutil.rmtree(aside, ignore_errors=True)

    def forget(self, error: BaseException | None = None) -> None:
        """Put back what was set aside and remove nothing: a failed build (``on_build_error``). When the
        failure is a file of the last build standing where this one writes a directory (or the reverse),
        say how to clear it."""
        directory = self.directory
        if directory is not None and os.path.isdir(os.path.join(directory, ASIDE)):
            self._move_back(directory)
        self.directory, self.since_ns = None, None
        if directory is not None and isinstance(error, (FileExistsError, NotADirectoryError, IsADirectoryError)):
            log.error(f"{getattr(error, 'filename', '') or directory}: a file of the last build is in the way "
                      f"of this one (a file became a folder or the reverse); delete {directory} (make clean) "
                      f"and build again")

    def remove_stale(self) -> list[str]:
        """After a full build: delete the files under the site not written since it began, then the
        directories left empty; hidden entries at its top are kept. Returns the removed files' paths
        relative to the site (sorted)."""
        directory, since_ns = self.directory, self.since_ns
        self.directory, self.since_ns = None, None
        if directory is None or since_ns is None:
            return []
        removed = _prune(directory, since_ns, top=True)
        if removed:
            log.debug(f"removed {len(removed)} file(s) the build did not write again from {directory}")
        return sorted(os.path.relpath(p, directory) for p in removed)


def _same_content(path: str, content: str | bytes) -> bool:
    data = content.encode("utf-8") if isinstance(content, str) else content
    try:
        if os.path.getsize(path) != len(data):
            return False
        with open(path, "rb") as fh:
            return fh.read() == data
    except OSError:
        return False


def keep_unchanged_generated_files(files, config):
    """Under ``make serve`` (``dirty`` rebuilds), back each file generated from content (a ``.py``
    download, a figure, a zip) that the site already holds with the same content by that file itself
    (``on_files``; ``files`` is changed in place, its order kept, and returned).

    MkDocs counts a file generated from content as modified on every build (``File.is_modified``), so
    each rebuild would write all of them again. A file backed by its own destination is one MkDocs
    neither copies onto itself nor, in a dirty build, counts as modified. Full builds are left alone:
    ``remove_stale`` tells the files a build wrote by their modification time.
    """
    from mkdocs.structure.files import File  # noqa: PLC0415

    moving = False  # from the first file replaced on, every file is removed and appended again: same order
    for f in list(files):
        kept = f
        if f.generated_by and f.abs_src_path is None and _same_content(f.abs_dest_path, f.content_bytes):
            kept = File.generated(config, f.src_uri, abs_src_path=f.abs_dest_path, inclusion=f.inclusion)
            kept.generated_by = f.generated_by
            moving = True
        if moving:
            files.remove(f)
            files.append(kept)
    return files


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

