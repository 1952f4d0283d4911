"""Stage 3, store: read and write records atomically, and tell which are fresh.

Files are written whole or not at all (``atomic_write_text``); a capture holds ``capture_lock``
for its whole run. A failed re-capture never touches the last good record: it writes a failure
marker beside it. The format is ``model.py``; the layout is ``layout.py``. Standard library only.
"""

from __future__ import annotations

import fcntl
import json
import os
import tempfile
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from pytorch_notes.filememo import file_memo
from pytorch_notes.parse import Example
from pytorch_notes.settings import EXAMPLES_DIR, display_path
from pytorch_notes.store import layout
from pytorch_notes.store.model import DEVICE_KINDS, Failure, FormatError, Record, dumps, load


class StoreError(ValueError):
    """A store file is unreadable or has the wrong shape; the message names the file, the field
    and how to recover."""


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


def read_json(path: Path, rel: str) -> object:
    """Parsed JSON of a store file. Raises StoreError (naming the file) if it is not valid JSON."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError) as exc:
        raise StoreError(_recover(path, rel, f"not valid JSON ({exc})")) from None


def _recover(path: Path, rel: str, what: str) -> str:
    return (f"{display_path(path)}: {what}. Recover by re-capturing the example: "
            f"`make capture ARGS=\"--force examples/{rel}\"` (on the machine kind it was captured on), "
            f"or delete the file and run `make capture`.")


def _load(cls, path: Path, rel: str):
    return _load_file(path, cls, rel)


@file_memo(persist="records")  # a build reads each record for every embed, language and notebook
def _load_file(path: Path, cls, rel: str):
    if not path.exists():
        return None
    data = read_json(path, rel)
    try:
        return load(cls, data)
    except FormatError as exc:
        if exc.field == "format" and isinstance(data, dict) and data.get("format") == 1:
            raise StoreError(f"{display_path(path)}: a record in the old format 1; upgrade the store in place "
                             f"with `make capture ARGS=--migrate` (nothing is re-run)") from None
        raise StoreError(_recover(path, rel, f"field {exc.field or '(top level)'}: {exc.message}")) from None


def load_record(rel: str, kind: str, examples_dir: Path = EXAMPLES_DIR) -> Record | None:
    """The record of example ``rel`` on device ``kind``, or None if there is none.

    Raises:
        StoreError: the file is not valid JSON or does not match the format (the message names
            the file and the field).
    """
    return _load(Record, layout.record_path(rel, kind, examples_dir), rel)


def load_failure(rel: str, kind: str, examples_dir: Path = EXAMPLES_DIR) -> Failure | None:
    """The failure marker of ``rel`` on ``kind``, or None. Raises StoreError like ``load_record``."""
    return _load(Failure, layout.failure_path(rel, kind, examples_dir), rel)


def save_record(record: Record, examples_dir: Path = EXAMPLES_DIR) -> Path:
    """Store a successful run and clear the failure marker of its device. Returns the record's path."""
    path = layout.record_path(record.example, record.device_kind, examples_dir)
    atomic_write_text(path, dumps(record))
    layout.failure_path(record.example, record.device_kind, examples_dir).unlink(missing_ok=True)
    return path


def save_failure(failure: Failure, examples_dir: Path = EXAMPLES_DIR) -> Path:
    """Record a failed re-capture beside the (untouched) last good record of its device."""
    path = layout.failure_path(failure.example, failure.device_kind, examples_dir)
    atomic_write_text(path, dumps(failure))
    return path


def device_kinds(example: Example) -> tuple[str, ...]:
    """The device kinds ``example`` can have records for: ``("cuda",)`` if it requires CUDA, else all."""
    return ("cuda",) if example.needs_cuda else DEVICE_KINDS


def baseline_kind(example: Example) -> str:
    """The device kind every contributor can capture ``example`` on: ``"cpu"``, or ``"cuda"`` if it needs one."""
    return "cuda" if example.needs_cuda else "cpu"


STATE_RANK = {"fresh": 0, "stale": 1, "missing": 2}


@dataclass(frozen=True)
class DeviceOutputs:
    """The stored outputs of one example on one device kind.

    Attributes:
        kind: ``"cpu"`` or ``"cuda"``.
        state: ``"fresh"`` (the record's key is the example's), ``"stale"`` or ``"missing"``.
        record: the record, None when missing.
        failure: the failure marker of the current source, None if there is none (or it is outdated).
    """

    kind: str
    state: str
    record: Record | None
    failure: Failure | None


@dataclass(frozen=True)
class Freshness:
    """Every device's stored outputs of one example, and the one a page shows until device tabs.

    ``devices`` maps each kind of ``device_kinds(example)`` to its ``DeviceOutputs``, in order of
    preference (CUDA first). ``preferred`` is the best by state (fresh, stale, missing), then by
    that order: the fresh CUDA record when there is one, else the CPU one.
    """

    devices: dict[str, DeviceOutputs]

    @property
    def preferred(self) -> DeviceOutputs:
        order = list(self.devices.values())
        return min(order, key=lambda d: (STATE_RANK[d.state], order.index(d)))

    @property
    def state(self) -> str:
        """State of the preferred record: ``"fresh"`` unless no device has a fresh record."""
        return self.preferred.state

    @property
    def record(self) -> Record | None:
        return self.preferred.record

    @property
    def failure(self) -> Failure | None:
        return self.preferred.failure


def device_outputs(example: Example, kind: str, examples_dir: Path = EXAMPLES_DIR) -> DeviceOutputs:
    """The stored outputs of ``example`` on ``kind``. Raises StoreError for an unreadable file."""
    record = load_record(example.rel, kind, examples_dir)
    failure = load_failure(example.rel, kind, examples_dir)
    if failure is not None and failure.key != example.key:
        failure = None  # about an older version of the example
    if record is None:
        return DeviceOutputs(kind, "missing", None, failure)
    return DeviceOutputs(kind, "fresh" if record.key == example.key else "stale", record, failure)


def freshness(example: Example, examples_dir: Path = EXAMPLES_DIR) -> Freshness:
    """Compare the stored outputs of ``example`` on every device kind with what it executes now.

    Raises:
        StoreError: a store file of the example is unreadable, has the wrong shape, or is in the
            old layout (the message names the file and the command that fixes it).
    """
    for legacy in layout.legacy_paths(example.rel, examples_dir):
        if legacy.exists():
            raise StoreError(f"{display_path(legacy)}: a record in the old format 1; upgrade the store in "
                             f"place with `make capture ARGS=--migrate` (nothing is re-run)")
    return Freshness({kind: device_outputs(example, kind, examples_dir) for kind in device_kinds(example)})


def remove_leftover_temp_files(examples_dir: Path = EXAMPLES_DIR) -> list[Path]:
    """Delete ``.<name>.*.tmp`` files that ``atomic_write_text`` left behind when its process was
    killed before the rename. Call only while holding ``capture_lock``. Returns what was removed."""
    removed = []
    for tmp in layout.store_dir(examples_dir).rglob(".*.tmp"):
        tmp.unlink(missing_ok=True)
        removed.append(tmp)
    return removed


@contextmanager
def capture_lock(examples_dir: Path = EXAMPLES_DIR, wait_message: Callable[[], None] | None = None):
    """Hold an exclusive lock on the store for a whole capture run (blocks while another runs)."""
    d = layout.store_dir(examples_dir)
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
