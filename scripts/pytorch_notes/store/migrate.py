"""Upgrade committed store files to the current format in place, never re-running an example.

``make capture ARGS=--migrate`` (and every capture run, under the lock) applies the steps in
``MIGRATIONS`` to each older file. Every output, figure and provenance field is carried over: a GPU
record stays a GPU record. Standard library only.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pytorch_notes.parse import Example, ExampleError, code_key, parse_example
from pytorch_notes.settings import EXAMPLES_DIR, display_path
from pytorch_notes.store import layout
from pytorch_notes.store.model import (
    FORMAT,
    CellRecord,
    FormatError,
    Record,
    dumps,
    load_outputs,
    load_provenance,
)
from pytorch_notes.store.records import StoreError, read_json, store_write_text

OUTDATED_KEY = "format-1-stale"  # the key of a format-1 record that was already stale: it stays stale


@dataclass(frozen=True)
class Migrated:
    """One file upgraded: from ``source`` (removed) to ``target``, or ``None`` when it was dropped
    (an outdated failure marker, or a file of a deleted example), with the reason."""

    source: Path
    target: Path | None
    note: str


def _current(rel: str, examples_dir: Path) -> Example | None:
    path = Path(examples_dir) / rel
    try:
        return parse_example(path, examples_dir) if path.is_file() else None
    except ExampleError:
        return None


def _v1_record(data: dict, example: Example | None, where: str) -> Record:
    """A format-1 record as format 2. Fresh stays fresh (same file bytes -> the current key)."""
    prov = {**data["provenance"]}
    prov.setdefault("driver", None)
    prov.setdefault("libraries", {})
    fresh = example is not None and data.get("source_sha256") == example.sha256
    cells = []
    for c in data["cells"]:
        key = example.cells[c["index"]].key if fresh else code_key(c["source"], c["metadata"])
        cells.append(CellRecord(index=c["index"], line=c["line"], source=c["source"], metadata=c["metadata"],
                                key=key, duration_s=float(c["duration_s"]),
                                outputs=load_outputs(c["outputs"], f"{where}.outputs")))
    return Record(format=FORMAT, example=data["example"], device_kind=prov["device_kind"],
                  key=example.key if fresh else OUTDATED_KEY, source_sha256=data["source_sha256"],
                  provenance=load_provenance(prov), cells=tuple(cells))


def migrate_store(examples_dir: Path = EXAMPLES_DIR) -> list[Migrated]:
    """Upgrade every format-1 file of the store. Call while holding ``records.capture_lock``.

    Returns:
        What was done, one entry per old file.

    Raises:
        StoreError: an old file cannot be read or converted (it is left as it was), or its target
            already exists (two records of one device: resolve by hand, keeping the newer).
    """
    done = []
    for f in layout.stored_files(examples_dir):
        if not f.legacy:
            continue
        data = read_json(f.path, f.rel)
        if not isinstance(data, dict) or data.get("format") != 1:
            raise StoreError(f"{display_path(f.path)}: not a format-1 store file; move or delete it")
        example = _current(f.rel, examples_dir)
        if f.failure:
            f.path.unlink()
            done.append(Migrated(f.path, None, "failure marker dropped (re-capture to see the failure again)"))
            continue
        try:
            record = _v1_record(data, example, display_path(f.path))
        except (KeyError, TypeError, FormatError) as exc:
            raise StoreError(f"{display_path(f.path)}: cannot migrate ({exc!r}); the file is left as it was") from None
        target = layout.record_path(f.rel, record.device_kind, examples_dir)
        if target.exists():
            raise StoreError(f"{display_path(f.path)}: cannot migrate: {display_path(target)} exists already; "
                             "keep the newer of the two by hand")
        store_write_text(target, dumps(record))
        f.path.unlink()
        state = "fresh" if example is not None and record.key == example.key else "stale"
        done.append(Migrated(f.path, target, f"{record.provenance.device}, {state}"))
    return done
