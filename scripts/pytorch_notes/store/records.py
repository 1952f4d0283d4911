"""Stage 3, store: read and write records atomically, and tell which are fresh.

Files are written whole or not at all (``atomic.write_atomic``); a capture holds ``capture_lock``
for its whole run. A failed re-capture never touches the last good record: it writes a failure
marker beside it. The format is ``model.py``; the layout is ``layout.py``. Standard library only.

Every store file is untrusted (a pull request may touch only ``examples/_outputs/``): nothing is read,
written or deleted through a symbolic link or outside the store folder (``layout.checked_path``), a file
larger than ``limits.RECORD_FILE_BYTES`` is refused unread, and a record or failure marker must say it
is the one its place in the store says (``example`` and ``device_kind``).
"""

from __future__ import annotations

import fcntl
import json
import math
import os
import stat
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from pytorch_notes.atomic import write_atomic
from pytorch_notes.execute.limits import RECORD_FILE_BYTES
from pytorch_notes.filememo import file_memo
from pytorch_notes.parse import Example, check_example_id
from pytorch_notes.settings import EXAMPLES_DIR, display_path
from pytorch_notes.store import layout, tokens
from pytorch_notes.store.layout import StoreError  # defined beside the path checks that raise it; imported from here
from pytorch_notes.store.model import DEVICE_KINDS, Failure, FormatError, Record, dumps, load


def store_write_text(path: Path, text: str) -> None:
    """``atomic.write_atomic`` (durable) for a file of the store.

    Raises:
        StoreError: ``path`` is not inside a store folder, a part of it (the file included) is a symbolic
            link, or a file stands where a folder must (``layout.checked_path``); nothing is written.
    """
    where = layout.checked_path(path)
    try:
        write_atomic(where, text, durable=True)
    except (NotADirectoryError, FileExistsError) as exc:  # a file made in the meantime where a folder goes
        raise StoreError(f"{layout.shown(path)}: cannot be written: {exc.strerror or exc}") from None


def read_json(path: Path, rel: str) -> object:
    """Parsed JSON of store file ``path`` (of example ``rel``).

    Raises:
        StoreError: naming the file: a symbolic link or outside the store (``layout.checked_path``), not a
            regular file, larger than ``RECORD_FILE_BYTES`` (refused before it is read), or not valid JSON.
        FileNotFoundError: there is no such file.
    """
    path = layout.checked_path(path)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
    except OSError as exc:
        if isinstance(exc, FileNotFoundError):
            raise
        raise StoreError(_recover(path, rel, f"cannot be read ({exc.strerror or exc})")) from None
    with os.fdopen(fd, "rb") as fh:
        info = os.fstat(fh.fileno())
        if not stat.S_ISREG(info.st_mode):
            raise StoreError(_recover(path, rel, "not a regular file"))
        if info.st_size > RECORD_FILE_BYTES:
            raise StoreError(_recover(path, rel, f"{info.st_size:,} bytes, more than the {RECORD_FILE_BYTES:,} "
                                      "a store file may have (limits.RECORD_FILE_BYTES); it was not read"))
        data = fh.read(RECORD_FILE_BYTES + 1)
    if len(data) > RECORD_FILE_BYTES:  # grew since fstat
        raise StoreError(_recover(path, rel, f"more than the {RECORD_FILE_BYTES:,} bytes a store file may have"))
    try:
        return json.loads(data.decode("utf-8"))
    except (ValueError, UnicodeDecodeError) as exc:
        raise StoreError(_recover(path, rel, f"not valid JSON ({exc})")) from None
    except RecursionError:  # arrays or objects nested thousands deep: no record is
        raise StoreError(_recover(path, rel, "JSON nested too deep to be a record")) from None


def _recover(path: Path, rel: str, what: str) -> str:
    return (f"{layout.shown(path)}: {what}. Recover by re-capturing the example: "
            f"`make capture ARGS=\"--force examples/{rel}\"` (on the machine kind it was captured on), "
            f"or delete the file and run `make capture`.")


def _load(cls, path: Path, rel: str, kind: str):
    where, there = layout.checked(path)  # on every call: the memo below is keyed by what the path points at
    return _load_file(Path(where), cls, rel, kind) if there else None


@file_memo(persist="records")  # a build reads each record for every embed, language and notebook
def _load_file(path: Path, cls, rel: str, kind: str):
    """The ``cls`` in store file ``path``, which must be about example ``rel`` on device ``kind``."""
    data = read_json(path, rel)
    try:
        found = load(cls, data)
    except FormatError as exc:
        if exc.field == "format" and isinstance(data, dict) and data.get("format") == 1:
            raise StoreError(f"{display_path(path)}: a record in the old format 1; upgrade the store in place "
                             f"with `make capture ARGS=--migrate` (nothing is re-run)") from None
        raise StoreError(_recover(path, rel, f"field {exc.field or '(top level)'}: {exc.message}")) from None
    prov_kind = found.provenance.device_kind if found.provenance is not None else kind
    for field, value, expected, where in (
            ("example", found.example, rel, f"the file is in the place of examples/{rel}"),
            ("device_kind", found.device_kind, kind, f"the file name says {kind!r}"),
            ("provenance.device_kind", prov_kind, kind, f"the file name says {kind!r}")):
        if value != expected:
            raise StoreError(_recover(path, rel, f"field {field}: {value!r}, but {where} (a store file is never "
                                      "copied or moved by hand)"))
    if problem := _shape_problem(found):
        raise StoreError(_recover(path, rel, problem))
    return found


def _seconds(value: float) -> bool:
    return math.isfinite(value) and 0 <= value < 86_400 * 7


def _shape_problem(found: Record | Failure) -> str:
    """What the record format's types allow but no capture writes: cells out of order or numbered past
    what a file holds, lines outside a file, durations that are not a time (NaN, infinite, negative)."""
    prov = found.provenance
    if prov is not None and not (_seconds(prov.duration_s) and _seconds(prov.wall_s)):
        return f"field provenance.duration_s/wall_s: {prov.duration_s!r}/{prov.wall_s!r} is not a duration"
    for i, cell in enumerate(getattr(found, "cells", ())):
        if cell.index != i:
            return f"field cells[{i}].index: {cell.index!r}, expected {i} (cells are stored in order)"
        if not 0 < cell.line < 10_000_000:
            return f"field cells[{i}].line: {cell.line!r} is not a line of a file"
        if not _seconds(cell.duration_s):
            return f"field cells[{i}].duration_s: {cell.duration_s!r} is not a duration"
    return ""


def load_record(rel: str, kind: str, examples_dir: Path = EXAMPLES_DIR) -> Record | None:
    """The record of example ``rel`` on device ``kind``, or None if there is none.

    Raises:
        StoreError: the file is not valid JSON, does not match the format, is about another example or
            device kind than its place says, is larger than ``RECORD_FILE_BYTES``, or is (or lies behind)
            a symbolic link; the message names the file and the field, and how to recover.
    """
    return _load(Record, layout.record_path(rel, kind, examples_dir), rel, kind)


def load_failure(rel: str, kind: str, examples_dir: Path = EXAMPLES_DIR) -> Failure | None:
    """The failure marker of ``rel`` on ``kind``, or None. Raises StoreError like ``load_record``."""
    return _load(Failure, layout.failure_path(rel, kind, examples_dir), rel, kind)


def _place(obj: Record | Failure) -> None:
    """Refuse (StoreError) to file ``obj`` under an id or device kind that is not one: its path is made of them."""
    if problem := check_example_id(obj.example):
        raise StoreError(f"refused to store a run of {obj.example!r}: {problem}")
    if obj.device_kind not in DEVICE_KINDS:
        raise StoreError(f"refused to store a run of {obj.example!r} on device kind {obj.device_kind!r}: "
                         f"expected one of {', '.join(DEVICE_KINDS)}")


def save_record(record: Record, examples_dir: Path = EXAMPLES_DIR) -> Path:
    """Store a successful run and clear the failure marker of its device. Returns the record's path.

    Raises:
        StoreError: the record's id or kind is not one, or its place is behind a symbolic link
            (``store_write_text``); nothing is written.
    """
    _place(record)
    path = layout.record_path(record.example, record.device_kind, examples_dir)
    store_write_text(path, dumps(tokens.scrub(record)))  # credentials by their shape, whoever made the record
    layout.checked_path(layout.failure_path(record.example, record.device_kind, examples_dir)).unlink(missing_ok=True)
    return path


def save_failure(failure: Failure, examples_dir: Path = EXAMPLES_DIR) -> Path:
    """Record a failed re-capture beside the (untouched) last good record of its device.
    Raises StoreError like ``save_record``."""
    _place(failure)
    path = layout.failure_path(failure.example, failure.device_kind, examples_dir)
    store_write_text(path, dumps(tokens.scrub(failure)))
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
    """Delete ``.<name>.*.tmp`` files that ``atomic.write_atomic`` left behind when its process was
    killed before the rename. Call only while holding ``capture_lock``. Returns what was removed.

    Folders that are symbolic links are not entered; a ``.tmp`` that is a link is removed, not followed.
    Raises StoreError when the store folder is a link (``layout.checked_path``)."""
    root = layout.checked_path(layout.store_dir(examples_dir))
    removed = []
    for tmp in root.rglob(".*.tmp") if root.is_dir() else []:
        layout.checked_path(tmp.parent)
        tmp.unlink(missing_ok=True)  # unlink removes a link itself, never what it points at
        removed.append(tmp)
    return removed


@contextmanager
def capture_lock(examples_dir: Path = EXAMPLES_DIR, wait_message: Callable[[], None] | None = None):
    """Hold an exclusive lock on the store for a whole capture run (blocks while another runs).

    Raises:
        StoreError: the store folder or its ``.lock`` is a symbolic link (``layout.checked_path``).
    """
    d = layout.checked_path(layout.store_dir(examples_dir))
    d.mkdir(parents=True, exist_ok=True)
    fd = os.open(layout.checked_path(d / ".lock"), os.O_WRONLY | os.O_CREAT | os.O_NOFOLLOW, 0o644)
    with os.fdopen(fd, "w") as fh:
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
