"""The fallback puts back what an example changed in the repository (``repocheck.py`` finds it), before
anything reads it. Standard library only.

* Bytecode (``__pycache__``, ``*.pyc``, the bytecode prefix) and rebuilt caches (``.cache/``, ``site/``)
  that an example added or changed are deleted: Python and the build make them again.
* A file it changed or removed gets its content from before the run back: from a copy the capture made
  before the run (``Backup``: the files git would not give back, those that differ from git's index and
  the untracked ones; outside git, every file of a small tree), else from git's index (``git cat-file``).
  The changed content is moved to a quarantine folder first (``pn-quarantine-*`` in the temporary
  folder), so that nothing is lost if the change was not the example's after all.
* A file or folder it added is moved to the quarantine folder; a new object in ``.git/objects`` is left
  (inert: only a reference names it, and a changed reference is reported).
* What cannot be put back (a changed file that is neither in git nor copied, e.g. in the virtualenv; any
  change to ``.git``, after which git's index is not trusted) is moved to the quarantine folder too and
  named, so the next import or build fails rather than reading it.

Each step is one line of the run's failure message.
"""

from __future__ import annotations

import atexit
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from pytorch_notes.execute.repocheck import Change, Snapshot

REBUILT = frozenset({".cache", "site", "site-offline", "__pycache__"})  # top folders the build makes again
COPY_FILES, COPY_BYTES = 5000, 256 << 20  # bounds of the copies made outside git, per run


def _parts(path: str) -> list[str]:
    return Path(path).parts


def rebuilt(path: str) -> bool:
    """Bytecode or a cache the build makes again: deleting it is always safe."""
    parts = _parts(path)
    prefix = os.path.realpath(sys.pycache_prefix) if sys.pycache_prefix else None
    return ("__pycache__" in parts or path.endswith((".pyc", ".pyo")) or (parts and parts[0] in REBUILT)
            or (prefix is not None and (os.path.isabs(path) and path.startswith(prefix + "/"))))


class Backup:
    """Copies of the files of ``root`` that git cannot give back, made before each run (``refresh``) and
    kept for the capture's life (a file is copied again only when it changed); each copy's SHA-256 is kept
    in this process, so a copy changed by the example is not restored."""

    def __init__(self, root: Path):
        self.root = Path(root)
        self.folder: Path | None = None
        self.copies: dict[str, tuple[tuple, str, Path]] = {}  # path -> (snapshot entry, sha256, copy)
        try:
            top = subprocess.run(["git", "-C", str(root), "rev-parse", "--show-toplevel"], capture_output=True,
                                 text=True, timeout=30, stdin=subprocess.DEVNULL)
            self.git = top.returncode == 0 and Path(top.stdout.strip()).resolve() == self.root.resolve()
        except (OSError, subprocess.SubprocessError):
            self.git = False

    def _candidates(self, snap: Snapshot) -> list[str]:
        if not self.git:
            files = [p for p, e in snap.items() if e[0] == "file" and not os.path.isabs(p) and not rebuilt(p)]
            return files if len(files) <= COPY_FILES else []
        listed = subprocess.run(["git", "-C", str(self.root), "ls-files", "-z", "-m", "-o", "--exclude-standard"],
                                capture_output=True, timeout=60, stdin=subprocess.DEVNULL)
        names = [n for n in listed.stdout.decode("utf-8", "surrogateescape").split("\0") if n]
        return [n for n in dict.fromkeys(names) if snap.get(n, ("",))[0] == "file"]

    def refresh(self, snap: Snapshot, changeable) -> None:
        """Copy each candidate file of ``snap`` that ``changeable(path)`` says the example could change, unless
        its copy is of the same snapshot entry. Never raises: a file that cannot be copied is not."""
        if self.folder is None:
            self.folder = Path(tempfile.mkdtemp(prefix="pn-backup-"))
            atexit.register(self.close)
        total = 0
        for path in self._candidates(snap):
            entry = snap[path]
            total += entry[1]
            if total > COPY_BYTES:
                break
            if not changeable(path) or self.copies.get(path, ((),))[0] == entry:
                continue
            copy = self.folder / hashlib.sha256(path.encode("utf-8", "surrogateescape")).hexdigest()
            try:
                data = (self.root / path).read_bytes()
                copy.write_bytes(data)
            except OSError:
                continue
            self.copies[path] = (entry, hashlib.sha256(data).hexdigest(), copy)

    def content(self, path: str, git_ok: bool) -> bytes | None:
        """The content of ``path`` before the run: its copy if it is intact, else git's index (when
        ``git_ok``), else None."""
        if path in self.copies:
            _, digest, copy = self.copies[path]
            try:
                data = copy.read_bytes()
                if hashlib.sha256(data).hexdigest() == digest:
                    return data
            except OSError:
                pass
        if not (self.git and git_ok) or os.path.isabs(path):
            return None
        shown = subprocess.run(["git", "-C", str(self.root), "cat-file", "blob", f":{path}"], capture_output=True,
                               timeout=60, stdin=subprocess.DEVNULL)
        return shown.stdout if shown.returncode == 0 else None

    def close(self) -> None:
        if self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)


class Quarantine:
    """A ``pn-quarantine-*`` folder, made on first use, where changed and added files are moved."""

    def __init__(self):
        self.folder: Path | None = None

    def take(self, source: Path, key: str) -> Path:
        """Move ``source`` (shown as ``key``) into the quarantine folder; returns where it went."""
        if self.folder is None:
            self.folder = Path(tempfile.mkdtemp(prefix="pn-quarantine-"))
        target = self.folder / key.lstrip("/")
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.move(str(source), str(target))
        return target


def _where(root: Path, key: str) -> Path:
    return Path(key) if os.path.isabs(key) else root / key


def _delete(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path, ignore_errors=True)
    else:
        path.unlink(missing_ok=True)


def undo(found: list[Change], root: Path, backup: Backup, quarantine: Quarantine) -> list[str]:
    """Undo the changes ``found`` of one run in ``root`` (see the module docstring); one line per change
    saying what was done. Never raises for a file that vanished or cannot be written: its line says so."""
    git_ok = not any(_parts(c.path)[:1] == (".git",) and not _git_object(c) for c in found)
    lines, moved = [], []
    for change in sorted(found, key=lambda c: (c.what == "added", c.path)):
        if change.what == "added" and any(change.path.startswith(m + "/") for m in moved):
            continue  # inside a folder that went as a whole
        try:
            lines.append(_undo_one(change, root, backup, quarantine, git_ok))
        except OSError as exc:
            lines.append(f"{change} (could not be undone: {exc.strerror or exc})")
        if change.what == "added":
            moved.append(change.path)
    return lines


def _git_object(change: Change) -> bool:
    return change.what == "added" and _parts(change.path)[:2] == (".git", "objects")


def _undo_one(change: Change, root: Path, backup: Backup, quarantine: Quarantine, git_ok: bool) -> str:
    path = _where(root, change.path)
    if change.what == "added":
        if _git_object(change):
            return f"{change} (left: an object no reference names)"
        if rebuilt(change.path):
            _delete(path)
            return f"{change} (deleted: made again when needed)"
        return f"{change} (moved to {quarantine.take(path, change.path)})"
    before = change.before
    if before[0] == "dir":
        path.mkdir(parents=True, exist_ok=True)
        os.chmod(path, before[1] & 0o7777)
        return f"{change} (made again)"
    if before[0] == "link":
        if os.path.lexists(path):
            quarantine.take(path, change.path)
        os.symlink(before[1], path)
        return f"{change} (link made again)"
    if os.path.lexists(path) and rebuilt(change.path):
        _delete(path)
        return f"{change} (deleted: made again when needed)"
    data = backup.content(change.path, git_ok)
    kept = quarantine.take(path, change.path) if os.path.lexists(path) else None
    if data is None:
        if kept is not None:
            return f"{change} (cannot be put back: no copy and not in git; moved to {kept})"
        return f"{change} (made again when needed)" if rebuilt(change.path) else \
            f"{change} (cannot be put back: no copy and not in git)"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    os.chmod(path, before[5] & 0o7777)
    if os.geteuid() == 0:
        os.chown(path, before[6], before[7])
    return f"{change} (put back as it was" + (f"; the changed file is in {kept})" if kept else ")")
