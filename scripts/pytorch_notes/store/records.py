"""Stage 3, store outputs: one committed JSON file per example, written atomically.

Layout: ``examples/_outputs/<chapter>/<name>.json`` holds the last good run of
``examples/<chapter>/<name>.py``; figures are inside it as base64 PNG. A failed re-capture
never touches that file; it writes ``<name>.failed.json`` beside it instead, so pages can
show the last good output with a notice. Standard library only.

Record format (``format`` 1)::

    {"format": 1, "example": "autograd/leaf.py", "source_sha256": "...",
     "provenance": {"device": "CPU" | "<GPU name>", "device_kind": "cpu" | "cuda",
                    "torch": "2.13.0+cpu", "cuda": null | "13.0", "python": "3.11.7",
                    "platform": "...", "captured_at": "2026-11-22T07:00:00Z",
                    "duration_s": 1.23, "wall_s": 3.4},
     "cells": [{"index": 0, "line": 4, "source": "...", "metadata": {},
                "duration_s": 0.01, "outputs": [...]}]}
"""

from __future__ import annotations

import fcntl
import json
import os
import tempfile
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from pytorch_notes.execute.supervise import RunResult
from pytorch_notes.parse import Example
from pytorch_notes.settings import EXAMPLES_DIR, display_path

FORMAT = 1
STORE_DIRNAME = "_outputs"


class StoreError(ValueError):
    """A store file is unreadable; the message names it and says how to recover."""


@dataclass(frozen=True)
class Freshness:
    """Whether stored outputs match the example's current source."""

    state: str  # "fresh" | "stale" | "missing"
    record: dict | None
    failure: dict | None  # the last failed re-capture of the current source, if any


def store_dir(examples_dir: Path = EXAMPLES_DIR) -> Path:
    return Path(examples_dir) / STORE_DIRNAME


def record_path(rel: str, examples_dir: Path = EXAMPLES_DIR) -> Path:
    """Store file of the example ``rel`` (e.g. ``"autograd/leaf.py"``)."""
    return store_dir(examples_dir) / (rel[:-3] + ".json")


def failure_path(rel: str, examples_dir: Path = EXAMPLES_DIR) -> Path:
    return store_dir(examples_dir) / (rel[:-3] + ".failed.json")


def atomic_write_text(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` so that readers see the old or the new file, never a part."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _dumps(obj: dict) -> str:
    return json.dumps(obj, ensure_ascii=False, indent=1, sort_keys=True) + "\n"


def build_record(result: RunResult) -> dict:
    """Turn a successful run into a store record."""
    ex = result.example
    cells = []
    for cell, res in zip(ex.cells, result.cells, strict=True):  # a successful run ran every cell
        cells.append({"index": cell.index, "line": cell.line, "source": cell.source,
                      "metadata": dict(cell.metadata), "duration_s": res.duration_s, "outputs": res.outputs})
    prov = dict(result.provenance)
    prov.update(captured_at=result.captured_at, duration_s=result.duration_s, wall_s=result.wall_s)
    return {"format": FORMAT, "example": ex.rel, "source_sha256": ex.sha256, "provenance": prov, "cells": cells}


def save_success(result: RunResult, examples_dir: Path = EXAMPLES_DIR) -> Path:
    """Store a successful run and clear any failure marker. Returns the record path."""
    path = record_path(result.example.rel, examples_dir)
    atomic_write_text(path, _dumps(build_record(result)))
    failure_path(result.example.rel, examples_dir).unlink(missing_ok=True)
    return path


def save_failure(result: RunResult, examples_dir: Path = EXAMPLES_DIR) -> Path:
    """Record a failed re-capture beside the (untouched) last good record."""
    path = failure_path(result.example.rel, examples_dir)
    atomic_write_text(path, _dumps({
        "format": FORMAT, "example": result.example.rel, "source_sha256": result.example.sha256,
        "status": result.status, "location": result.location(), "message": result.message,
        "captured_at": result.captured_at, "provenance": result.provenance,
    }))
    return path


def _load(path: Path, rel: str) -> dict | None:
    if not path.exists():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ValueError(f"expected a JSON object with \"format\": {FORMAT}")
    except (ValueError, UnicodeDecodeError) as exc:
        raise StoreError(
            f"{display_path(path)}: corrupt output store file ({exc}). Recover by re-capturing "
            f"the example: `make capture ARGS=\"--force examples/{rel}\"` "
            f"(or delete the file and run `make capture`)."
        ) from None
    return data


def load_record(rel: str, examples_dir: Path = EXAMPLES_DIR) -> dict | None:
    """The stored record of ``rel`` or None. Raises StoreError if the file is corrupt."""
    return _load(record_path(rel, examples_dir), rel)


def freshness(example: Example, examples_dir: Path = EXAMPLES_DIR) -> Freshness:
    """Compare the stored outputs of ``example`` with its current source hash."""
    record = load_record(example.rel, examples_dir)
    failure = _load(failure_path(example.rel, examples_dir), example.rel)
    if failure and failure.get("source_sha256") != example.sha256:
        failure = None
    if record is None:
        return Freshness("missing", None, failure)
    state = "fresh" if record.get("source_sha256") == example.sha256 else "stale"
    return Freshness(state, record, failure)


def remove_leftover_temp_files(examples_dir: Path = EXAMPLES_DIR) -> list[Path]:
    """Delete ``.<name>.*.tmp`` files that ``atomic_write_text`` left behind when its process was
    killed before the rename. Call only while holding ``capture_lock``. Returns what was removed."""
    removed = []
    for tmp in store_dir(examples_dir).rglob(".*.tmp"):
        tmp.unlink(missing_ok=True)
        removed.append(tmp)
    return removed


@contextmanager
def capture_lock(examples_dir: Path = EXAMPLES_DIR, wait_message=None):
    """Hold an exclusive lock on the store for a whole capture run (blocks while another runs)."""
    d = store_dir(examples_dir)
    d.mkdir(parents=True, exist_ok=True)
    with open(d / ".lock", "w") as fh:
        try:
            fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            if wait_message:
                wait_message()
            fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)
