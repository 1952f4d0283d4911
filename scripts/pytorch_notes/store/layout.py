"""Where records live (one owner for the layout of ``examples/_outputs/``).

Format 2::

    examples/_outputs/<chapter>/<name>/cpu.json          last good run on a CPU
    examples/_outputs/<chapter>/<name>/cuda.json         last good run on an NVIDIA GPU
    examples/_outputs/<chapter>/<name>/<kind>.failed.json the last re-capture on <kind> failed
    examples/_outputs/.lock                              held by a running capture (git-ignored)

Format 1 kept one ``<chapter>/<name>.json`` (and ``<name>.failed.json``) per example; ``migrate.py``
moves such files.

The store is read and written only inside the store folder, which lies inside the examples folder:
``checked_path`` refuses a symbolic link anywhere from ``_outputs`` down (a pull request can commit a
link, and the store would then write, delete or publish files outside the repository). Standard
library only.
"""

from __future__ import annotations

import functools
import os
import stat
from dataclasses import dataclass
from pathlib import Path

from pytorch_notes.settings import EXAMPLES_DIR, REPO_ROOT
from pytorch_notes.store.model import DEVICE_KINDS

STORE_DIRNAME = "_outputs"
RECORD_SUFFIX = ".json"
FAILURE_SUFFIX = ".failed.json"


class StoreError(ValueError):
    """A store file is unreadable, has the wrong shape, or lies where the store may not read or write;
    the message names the file, the field and how to recover."""


def store_dir(examples_dir: Path = EXAMPLES_DIR) -> Path:
    """The store folder, ``<examples_dir>/_outputs`` (not checked: see ``checked_path``)."""
    return Path(examples_dir) / STORE_DIRNAME


def shown(path: Path | str) -> str:
    """``path`` for messages: relative to the repository when inside it; symbolic links not followed
    (``settings.display_path`` resolves them, and would name a link's target instead of the link)."""
    full = Path(os.path.abspath(path))
    return full.relative_to(REPO_ROOT).as_posix() if full.is_relative_to(REPO_ROOT) else str(full)


@functools.lru_cache(maxsize=64)
def _real(folder: str) -> str:
    return os.path.realpath(folder)


def checked_path(path: Path | str) -> Path:
    """``path``, a file or folder of a store (``<examples>/_outputs/...``), once it is safe to read, write
    or delete: nothing from the store folder down to ``path`` (both included) is a symbolic link, so it
    resolves inside the store folder, which resolves inside the examples folder (that one, the user's own
    setup, may be a link). Missing parts are fine (a writer creates them as real folders).

    Returns:
        The same place, spelled through the examples folder resolved.

    Raises:
        StoreError: ``path`` is not inside a store folder, or a part of it is a symbolic link (the
            message names ``path``, the link and its target).
    """
    return Path(checked(path)[0])


def checked(path: Path | str) -> tuple[str, bool]:
    """``checked_path`` as a string, and whether something is there (os.lstat, not pathlib: a build asks
    thousands of times). Raises StoreError like ``checked_path``."""
    parts = os.path.abspath(path).split(os.sep)
    if STORE_DIRNAME not in parts:
        raise StoreError(f"{shown(path)}: not inside a store folder (<examples>/{STORE_DIRNAME}/)")
    top = len(parts) - 1 - parts[::-1].index(STORE_DIRNAME)  # chapter and example names never start with _
    where = _real(os.sep.join(parts[:top]) or os.sep)
    for i in range(top, len(parts)):
        where = f"{where.rstrip(os.sep)}{os.sep}{parts[i]}"
        try:
            mode = os.lstat(where).st_mode
        except OSError:  # missing from here on: nothing to follow
            return os.path.join(where, *parts[i + 1:]), False
        if stat.S_ISLNK(mode):
            link = "it" if i == len(parts) - 1 else shown(where)
            raise StoreError(f"{shown(path)}: refused: {link} is a symbolic link (-> {os.path.realpath(where)}); the "
                             f"store reads and writes only inside its own folder {shown(os.sep.join(parts[:top + 1]))}/"
                             ", never through a link. Delete the link (`git rm` it), then run `make capture`")
        if i < len(parts) - 1 and not stat.S_ISDIR(mode):
            raise StoreError(f"{shown(path)}: refused: {shown(where)} is a file where the store needs a folder; "
                             "delete it (`git rm` it), then run `make capture`")
    return where, True


@functools.cache  # pure; a build asks thousands of times (pathlib is slow)
def example_dir(rel: str, examples_dir: Path = EXAMPLES_DIR) -> Path:
    """Folder of the records of example ``rel`` (e.g. ``"autograd/leaf.py"`` -> ``_outputs/autograd/leaf``)."""
    return store_dir(examples_dir) / rel.removesuffix(".py")


@functools.cache  # pure; a build asks thousands of times (pathlib is slow)
def record_path(rel: str, kind: str, examples_dir: Path = EXAMPLES_DIR) -> Path:
    """Record file of ``rel`` captured on device ``kind`` (``"cpu"`` or ``"cuda"``)."""
    return example_dir(rel, examples_dir) / f"{kind}{RECORD_SUFFIX}"


@functools.cache  # pure; a build asks thousands of times (pathlib is slow)
def failure_path(rel: str, kind: str, examples_dir: Path = EXAMPLES_DIR) -> Path:
    """Failure marker of ``rel`` on device ``kind``."""
    return example_dir(rel, examples_dir) / f"{kind}{FAILURE_SUFFIX}"


@functools.cache  # pure; a build asks thousands of times (pathlib is slow)
def legacy_paths(rel: str, examples_dir: Path = EXAMPLES_DIR) -> tuple[Path, Path]:
    """(record, failure marker) of ``rel`` in the format-1 layout."""
    stem = store_dir(examples_dir) / rel.removesuffix(".py")
    return stem.with_name(stem.name + RECORD_SUFFIX), stem.with_name(stem.name + FAILURE_SUFFIX)


def example_of(rel: str) -> str:
    """The example a file of the examples folder belongs to, from its path relative to that folder
    (``/``-separated): a record or failure marker, ``_outputs/ch/name/cpu.json`` (format 1:
    ``_outputs/ch/name.json``) -> ``ch/name.py``; any other path (the example itself, ``ch/name.py``) as it is."""
    parts = rel.split("/")
    if parts[0] != STORE_DIRNAME or not rel.endswith(RECORD_SUFFIX):
        return rel
    if len(parts) == 4:
        return f"{parts[1]}/{parts[2]}.py"
    if len(parts) == 3:
        return f"{parts[1]}/{parts[2].removesuffix(FAILURE_SUFFIX).removesuffix(RECORD_SUFFIX)}.py"
    return rel


@dataclass(frozen=True)
class StoredFile:
    """One file in the store: which example (``rel``) and device ``kind`` it is for, and whether it is a
    failure marker. ``kind`` is None for a format-1 file and for a name this layout does not know."""

    path: Path
    rel: str
    kind: str | None
    failure: bool
    legacy: bool


def stored_files(examples_dir: Path = EXAMPLES_DIR) -> list[StoredFile]:
    """Every record and failure marker in the store, current and format-1 layouts, sorted by path.

    Symbolic links to folders are not entered. Raises StoreError when the store folder is a link."""
    root = checked_path(store_dir(examples_dir))
    found = []
    for path in sorted(root.rglob(f"*{RECORD_SUFFIX}")) if root.is_dir() else []:
        parts = path.relative_to(root).parts
        failure = path.name.endswith(FAILURE_SUFFIX)
        stem = path.name.removesuffix(FAILURE_SUFFIX if failure else RECORD_SUFFIX)
        if len(parts) == 3:
            kind = stem if stem in DEVICE_KINDS else None
            found.append(StoredFile(path, f"{parts[0]}/{parts[1]}.py", kind, failure, legacy=False))
        elif len(parts) == 2:
            found.append(StoredFile(path, f"{parts[0]}/{stem}.py", None, failure, legacy=True))
        else:
            found.append(StoredFile(path, "/".join(parts), None, failure, legacy=False))
    return found
