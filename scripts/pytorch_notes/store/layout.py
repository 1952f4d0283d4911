"""Where records live (one owner for the layout of ``examples/_outputs/``).

Format 2::

    examples/_outputs/<chapter>/<name>/cpu.json          last good run on a CPU
    examples/_outputs/<chapter>/<name>/cuda.json         last good run on an NVIDIA GPU
    examples/_outputs/<chapter>/<name>/<kind>.failed.json the last re-capture on <kind> failed
    examples/_outputs/.lock                              held by a running capture (git-ignored)

Format 1 kept one ``<chapter>/<name>.json`` (and ``<name>.failed.json``) per example; ``migrate.py``
moves such files. Standard library only.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

from pytorch_notes.settings import EXAMPLES_DIR
from pytorch_notes.store.model import DEVICE_KINDS

STORE_DIRNAME = "_outputs"
RECORD_SUFFIX = ".json"
FAILURE_SUFFIX = ".failed.json"


def store_dir(examples_dir: Path = EXAMPLES_DIR) -> Path:
    """The store folder, ``<examples_dir>/_outputs``."""
    return Path(examples_dir) / STORE_DIRNAME


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
    """Every record and failure marker in the store, current and format-1 layouts, sorted by path."""
    root = store_dir(examples_dir)
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
