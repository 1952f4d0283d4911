"""What the capture does around each run when bubblewrap cannot start (parent side). Standard library only.

Without a sandbox the example is a plain process of this machine, so the capture:

* runs it as an unprivileged user (``nobody``) when the capture is root and that user can read what a
  run needs (``example_user``): it cannot then signal the capture (``os.kill(os.getppid(), SIGKILL)``
  fails with EPERM), write the repository or read root's files; its scratch folders are handed to it
  (``hand_over``);
* snapshots the repository before and after the run (``repocheck``), with a copy of the files git
  cannot give back (``undo.Backup``), and undoes every change the example could have made
  (``undo.undo``) before it returns the run's result;
* removes what the example's user left in ``/tmp`` and ``/dev/shm`` (``TempEntries``).

As the capture's own user (a contributor's machine without bubblewrap, or a folder ``nobody`` cannot
read) the example can do what that user can: read the user's files, signal or trace the capture, write
anywhere the user may. The repository is still checked and its changes undone as far as git and the
copies allow, but ``/tmp`` and ``/dev/shm`` are left alone (another program of the same user cannot be
told apart from the example there). ``Fallback.warning`` says which of these applies.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import stat
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from pytorch_notes.execute import repocheck
from pytorch_notes.execute.paths import REPO_ROOT
from pytorch_notes.execute.proctree import kill_started_since
from pytorch_notes.execute.undo import Backup, Quarantine, undo

EXAMPLE_USER = "nobody"
TEMP_FOLDERS = ("/tmp", "/dev/shm")


@dataclass(frozen=True)
class ExampleUser:
    """The user an example runs as: ``uid``, ``gid`` (its only group) and ``name``."""

    uid: int
    gid: int
    name: str


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
    """(the user examples run as, "") when this process is root and ``EXAMPLE_USER`` can read every path of
    ``needed``; else (None, why not)."""
    if os.geteuid() != 0:
        return None, "the capture is not root, so it cannot run examples as another user"
    try:
        entry = pwd.getpwnam(EXAMPLE_USER)
    except KeyError:
        return None, f"this machine has no user {EXAMPLE_USER!r}"
    user = ExampleUser(entry.pw_uid, entry.pw_gid, EXAMPLE_USER)
    if user.uid == 0:
        return None, f"{EXAMPLE_USER!r} is root here"
    blocked = [str(p) for p in needed if not can_read(p, user)]
    if blocked:
        return None, f"{EXAMPLE_USER!r} cannot read {blocked[0]}"
    return user, ""


class TempEntries:
    """What ``user`` left in the shared temporary folders during a run: every entry it owns, changed since
    ``started`` (a Unix time), at the top of ``TEMP_FOLDERS`` (and the temporary folder) or inside any
    folder there that it may write; ``clean`` removes them."""

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
                elif stat.S_ISDIR(st.st_mode) and _may(st, self.user.uid, self.user.gid, 3):
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
    undone) and ``temporary`` (entries removed from ``/tmp`` and ``/dev/shm``)."""

    repository: list[str] = field(default_factory=list)
    temporary: list[str] = field(default_factory=list)


class Fallback:
    """The fallback around the runs of one capture in repository ``root`` (see the module docstring)."""

    def __init__(self, root: Path):
        self.root = Path(root).resolve()
        needed = [self.root / "examples" if (self.root / "examples").is_dir() else self.root, Path(sys.prefix),
                  Path(sys.base_prefix), Path(os.path.realpath(sys.executable)), Path(__file__).parent,
                  Path(tempfile.gettempdir())]
        self.user, self.why_same_user = example_user(needed)
        self.backup = Backup(self.root)
        self.quarantine = Quarantine()
        self.extra = tuple(repocheck.watched_folders(self.root)[1:]) if self.root == REPO_ROOT.resolve() else ()

    def warning(self) -> str:
        """What this fallback cannot stop, for the capture's report (one paragraph)."""
        if self.user:
            return (f"without the sandbox, examples run as {self.user.name!r}: they cannot signal the capture or "
                    f"write what {self.user.name!r} may not, but can use the network, see this machine's processes "
                    f"and read every file {self.user.name!r} may; what they change in the repository is undone, and "
                    f"what they leave in /tmp and /dev/shm removed, after each run")
        return (f"without the sandbox, examples run as this capture's own user ({self.why_same_user}): an example "
                f"can read that user's files and use the network, signal or trace the capture (os.kill(os.getppid(), "
                f"SIGKILL) ends it), and leave files in /tmp and /dev/shm for the next one, which the capture cannot "
                f"tell from other programs'; what it changes in the repository is undone as far as git and the "
                f"capture's copies allow")

    def popen_kwargs(self) -> dict:
        """``subprocess.Popen`` arguments that start the example as ``user`` (none as the capture's user)."""
        if not self.user:
            return {}
        return {"user": self.user.uid, "group": self.user.gid, "extra_groups": []}

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
        is when the run started: every process started since is killed first."""
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
