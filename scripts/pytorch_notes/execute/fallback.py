"""What the capture does around each run when bubblewrap cannot start (parent side). Standard library only.

Without a sandbox the example is a plain process of this machine, so the capture:

* runs it as a user of its own when the capture is root and ``setpriv`` is there (``example_user``;
  ``runas.py``): a uid and gid no account, group or process has, new for each run, without capabilities, or
  with only ``CAP_DAC_READ_SEARCH`` when such a user cannot read what a run needs (an interpreter under ``/root``). It
  cannot then signal the capture (``os.kill(os.getppid(), SIGKILL)`` fails with EPERM) or write the
  repository; its scratch folders are handed to it (``hand_over``);
* snapshots the repository before and after the run (``repocheck``), with a copy of the files git
  cannot give back (``undo.Backup``), and undoes every change the example could have made
  (``undo.undo``) before it returns the run's result;
* removes what the example's user left in ``/tmp``, ``/var/tmp`` and ``/dev/shm`` (``TempEntries``): that
  uid is the run's alone, so nothing another program made is touched.

As the capture's own user (a contributor's machine without bubblewrap, or root without ``setpriv`` or the
capabilities to change user) the example can do what that user can: read the user's files, signal or trace
the capture, write anywhere the user may. The repository is still checked and its changes undone as far as git and the
copies allow; its ``TMPDIR`` (and ``TEMP``, ``TMP``) is a folder of the run, removed with it, but what it
writes to ``/tmp`` or ``/dev/shm`` by name is left alone: another program of the same user cannot be told
apart from the example there. ``Fallback.warning`` says which of these applies.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import shutil
import stat
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from pytorch_notes.execute import repocheck, runas
from pytorch_notes.execute.paths import REPO_ROOT
from pytorch_notes.execute.proctree import kill_started_since
from pytorch_notes.execute.undo import Backup, Quarantine, undo

TEMP_FOLDERS = ("/tmp", "/var/tmp", "/dev/shm")
READ_ALL = "dac_read_search"  # the capability a user of its own keeps where it cannot read the interpreter


@dataclass(frozen=True)
class ExampleUser:
    """The user an example runs as: ``uid``, ``gid`` (its only group), and ``keep``, the capabilities it
    keeps (``(READ_ALL,)`` or none), with ``why`` it needs them (a path it could not read otherwise)."""

    uid: int
    gid: int
    keep: tuple[str, ...] = ()
    why: str = ""

    @property
    def name(self) -> str:
        return f"uid {self.uid}"


def _may(st: os.stat_result, uid: int, gid: int, bits: int) -> bool:
    """Whether ``uid`` (group ``gid``) has every permission of ``bits`` (a combination of 4, 2, 1) on ``st``."""
    shift = 6 if st.st_uid == uid else 3 if st.st_gid == gid else 0
    return (st.st_mode >> shift) & bits == bits


def can_read(path: Path, user: ExampleUser) -> bool:
    """Whether ``user`` can reach and read ``path`` (every folder above it searchable; a folder listable)."""
    path = Path(os.path.realpath(path))
    try:
        for folder in reversed(path.parents):
            if not _may(os.stat(folder), user.uid, user.gid, 1):
                return False
        st = os.stat(path)
    except OSError:
        return False
    return _may(st, user.uid, user.gid, 5 if stat.S_ISDIR(st.st_mode) else 4)


def example_user(needed: list[Path]) -> tuple[ExampleUser | None, str]:
    """(the user an example runs as, "") when this process is root and can start a user of its own
    (``runas.fresh_id``; started by ``setpriv``) that reads this interpreter and every path of ``needed``, with
    ``CAP_DAC_READ_SEARCH`` if it must; else (None, why not). Starts the interpreter once as that user to
    make sure (``runas.probe``)."""
    if os.geteuid() != 0:
        return None, "the capture is not root, so it cannot run examples as another user"
    if runas.launcher() is None:
        return None, "setpriv (util-linux) is not installed, so the capture cannot run examples as another user"
    ident = runas.fresh_id()
    if ident is None:
        return None, "no uid is free for the examples in this user namespace"
    user = ExampleUser(ident, ident)
    needed = [Path(os.path.realpath(sys.executable)), *needed]  # what the probe starts
    blocked = [str(p) for p in needed if not can_read(p, user)]
    if blocked:
        user = ExampleUser(ident, ident, (READ_ALL,), blocked[0])
    why = runas.probe(user.uid, user.gid, user.keep, [str(p) for p in needed])
    if why:
        return None, f"a user of its own could not start Python here ({why})"
    return user, ""


class TempEntries:
    """What ``user`` left in the shared temporary folders during a run: every entry it owns, changed since
    ``started`` (a Unix time), at the top of ``TEMP_FOLDERS`` (and the temporary folder) or inside any
    folder there that it may write; ``clean`` removes them. ``user`` must be the run's alone (``runas``)."""

    def __init__(self, user: ExampleUser):
        self.user, self.started = user, time.time() - 1  # change times are whole jiffies: a second of slack

    def _found(self, folder: str) -> list[str]:
        found, todo = [], [folder]
        while todo:
            try:
                entries = list(os.scandir(todo.pop()))
            except OSError:
                continue
            for entry in entries:
                try:
                    st = entry.stat(follow_symlinks=False)
                except OSError:
                    continue
                if st.st_uid == self.user.uid:
                    if st.st_ctime >= self.started:
                        found.append(entry.path)
                elif stat.S_ISDIR(st.st_mode) and _may(st, self.user.uid, self.user.gid, 2 if self.user.keep else 3):
                    todo.append(entry.path)  # a shared folder (sticky /tmp/.X11-unix): its entries may be the run's
        return found

    def clean(self) -> list[str]:
        """Remove the run's entries; returns their paths."""
        removed = []
        for folder in dict.fromkeys((*TEMP_FOLDERS, tempfile.gettempdir())):
            for path in self._found(folder):
                if os.path.isdir(path) and not os.path.islink(path):
                    shutil.rmtree(path, ignore_errors=True)
                else:
                    with contextlib.suppress(OSError):
                        os.unlink(path)
                removed.append(path)
        return removed


@dataclass
class Watched:
    """What one run did outside its scratch folders: ``repository`` (one line per change, and how it was
    undone) and ``temporary`` (entries removed from ``TEMP_FOLDERS``)."""

    repository: list[str] = field(default_factory=list)
    temporary: list[str] = field(default_factory=list)


class Fallback:
    """The fallback around the runs of one capture in repository ``root`` (see the module docstring); with
    ``own_user`` False, examples run as the capture's user even where it is root."""

    def __init__(self, root: Path, own_user: bool = True):
        self.root = Path(root).resolve()
        needed = [self.root / "examples" if (self.root / "examples").is_dir() else self.root, Path(sys.prefix),
                  Path(sys.base_prefix), Path(os.path.realpath(sys.executable)), Path(__file__).parent,
                  Path(tempfile.gettempdir())]
        self.user, self.why_same_user = example_user(needed) if own_user else (None, "asked for by the caller")
        self.backup = Backup(self.root)
        self.quarantine = Quarantine()
        self.extra = tuple(repocheck.watched_folders(self.root)[1:]) if self.root == REPO_ROOT.resolve() else ()

    def warning(self) -> str:
        """What this fallback cannot stop, for the capture's report (one paragraph)."""
        if self.user:
            reads = (f"read every file of this machine (it keeps CAP_DAC_READ_SEARCH: without it, it cannot read "
                     f"{self.user.why})" if self.user.keep else "read every file other users may")
            return (f"without the sandbox, examples run as a user of their own (a uid no account or other process "
                    f"has, new for each run): they cannot signal the capture or write what other users may not, but "
                    f"can use the network, see this machine's processes and {reads}; what they change in the "
                    f"repository is undone, and what they leave in /tmp, /var/tmp and /dev/shm removed, after each run")
        return (f"without the sandbox, examples run as this capture's own user ({self.why_same_user}): an example "
                f"can read that user's files and use the network, signal or trace the capture (os.kill(os.getppid(), "
                f"SIGKILL) ends it), and leave files in /tmp and /dev/shm for the next one (its TMPDIR is the run's "
                f"and removed with it; what it writes there by name is left, since the capture cannot tell it from "
                f"other programs'); what it changes in the repository is undone as far as git and the capture's "
                f"copies allow")

    def command(self, argv: list[str]) -> list[str]:
        """``argv`` started as the example's user (``runas.command``; unchanged as the capture's own user)."""
        if not self.user:
            return argv
        return runas.command(argv, self.user.uid, self.user.gid, self.user.keep)

    def hand_over(self, run: Path, paths: list[Path]) -> None:
        """Let the example's user into the run folder ``run`` and give it ``paths`` (its scratch folders,
        with everything in them, and the files it reads by name)."""
        if not self.user:
            return
        os.chmod(run, 0o711)
        for path in paths:
            os.lchown(path, self.user.uid, self.user.gid)
            if path.is_dir() and not path.is_symlink():
                for folder, dirs, files in os.walk(path):
                    for name in dirs + files:
                        os.lchown(os.path.join(folder, name), self.user.uid, self.user.gid)

    @contextlib.contextmanager
    def watch(self, ignored: tuple[str, ...], since: int):
        """Around one run: yields a ``Watched`` that holds, once the block is left, what the run changed in
        the repository (undone) and left in the temporary folders (removed). ``since`` (``proctree.now_ticks``)
        is when the run started: every process started since is killed first. Picks the run's user first."""
        if self.user:  # a uid of this run's alone: what it owns afterwards is the run's
            fresh = runas.fresh_id()
            if fresh is not None:
                self.user = dataclasses.replace(self.user, uid=fresh, gid=fresh)
        before = repocheck.snapshot(self.root, ignored, self.extra)
        changeable = (lambda p: True) if not self.user else (  # noqa: E731
            lambda p: repocheck.theirs(repocheck.Change("changed", p, before[p], None), before, before,
                                       self.user.uid, frozenset({self.user.gid})))
        self.backup.refresh(before, changeable)
        temp = TempEntries(self.user) if self.user else None
        seen = Watched()
        try:
            yield seen
        finally:
            kill_started_since(since)  # what the run left behind, outside its session too
            after = repocheck.snapshot(self.root, ignored, self.extra)
            found = repocheck.changes(before, after)
            if self.user:
                found = [c for c in found if repocheck.theirs(c, before, after, self.user.uid,
                                                              frozenset({self.user.gid}))]
            seen.temporary = temp.clean() if temp else []
            seen.repository = undo(found, self.root, self.backup, self.quarantine)

    def close(self) -> None:
        """Remove the copies (the quarantine folder stays: it may hold a contributor's work)."""
        self.backup.close()
