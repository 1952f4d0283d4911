"""``--list`` and ``--prune``: the state of every example's records, and the files no example owns.

Standard library only.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from pytorch_notes.parse import Example, check_example_id, discover_examples, parse_example
from pytorch_notes.settings import EXAMPLES_DIR, display_path
from pytorch_notes.store import layout
from pytorch_notes.store.model import DEVICE_KINDS
from pytorch_notes.store.records import (
    StoreError,
    baseline_kind,
    device_kinds,
    device_outputs,
    load_failure,
)

NOT_APPLICABLE = "-"
NOT_CAPTURED = "none"  # no record of an optional device (CUDA for an example that runs on the CPU)


@dataclass(frozen=True)
class Row:
    """One example in ``--list``: its state per device kind and what needs doing (empty when nothing).

    ``states`` maps each of ``DEVICE_KINDS`` to ``fresh``, ``stale``, ``missing`` (no record on the
    example's baseline device: a problem), ``none`` (no record of an optional device, e.g. CUDA for an
    example that runs on the CPU: fine), ``failed``, ``corrupt`` or ``-`` (the example cannot have that
    kind, e.g. a CPU record of a CUDA-only one).
    """

    path: str
    states: dict[str, str]
    problems: tuple[str, ...]


def examine(example: Example, examples_dir: Path = EXAMPLES_DIR) -> Row:
    """The ``--list`` row of a parsed example.

    A problem is: a corrupt file, a failed last capture, a stale record of any device, or no record on
    the example's baseline device (the CPU, or CUDA for an example that requires it). A missing CUDA
    record of an example that runs on the CPU is not a problem: not every contributor has a GPU.
    """
    states, problems = {}, []
    name = display_path(example.path)
    for kind in DEVICE_KINDS:
        if kind not in device_kinds(example):
            states[kind] = NOT_APPLICABLE
            continue
        try:
            dev = device_outputs(example, kind, examples_dir)
        except StoreError as exc:
            states[kind] = "corrupt"
            problems.append(str(exc))
            continue
        states[kind] = "failed" if dev.failure else dev.state
        if dev.state == "missing" and kind != baseline_kind(example) and not dev.failure:
            states[kind] = NOT_CAPTURED  # allowed: not every contributor has a GPU
        if dev.failure:
            problems.append(f"{dev.failure.location}: the last capture on {kind} failed: {dev.failure.message}")
        if dev.state == "stale":
            problems.append(f"{name}: the {kind} record is stale (the code changed since it was captured)")
        if dev.state == "missing" and kind == baseline_kind(example):
            problems.append(f"{name}: no {kind} record (never captured)")
    return Row(name, states, tuple(problems))


def orphans(examples_dir: Path = EXAMPLES_DIR) -> list[tuple[Path, str]]:
    """Store files that no current example owns, each with the reason: a deleted example's record, a
    record of a device the example cannot run on, a failure marker about an older version of its
    example, a format-1 file (``--migrate``), or a file name the layout does not know."""
    examples = {}
    for path in discover_examples(examples_dir):
        rel = path.relative_to(Path(examples_dir).resolve()).as_posix()
        examples[rel] = path
    found = []
    try:
        stored = layout.stored_files(examples_dir)
    except StoreError:
        return []  # the store folder is a link: every example's row names it (examine), writers refuse it
    for f in stored:
        if f.legacy:
            found.append((f.path, "format-1 file: run `make capture ARGS=--migrate`"))
        elif f.rel not in examples or check_example_id(f.rel):
            found.append((f.path, f"examples/{f.rel} does not exist"))
        elif f.kind is None:
            found.append((f.path, f"unknown file name (expected one of {', '.join(DEVICE_KINDS)} + .json)"))
        elif f.failure:
            try:
                example = parse_example(examples[f.rel], examples_dir)
                marker = load_failure(f.rel, f.kind, examples_dir)
            except (ValueError, StoreError):
                continue  # reported by --list as malformed or corrupt
            if marker is not None and marker.key != example.key:
                found.append((f.path, "failure marker of an older version of the example"))
        else:
            try:
                example = parse_example(examples[f.rel], examples_dir)
            except ValueError:
                continue
            if f.kind not in device_kinds(example):
                found.append((f.path, f"{f.kind} record of an example that requires {baseline_kind(example)}"))
    return found


def prune(examples_dir: Path = EXAMPLES_DIR) -> list[tuple[Path, str]]:
    """Delete the ``orphans`` (not format-1 files: those are migrated) and empty folders. Call under the lock.

    Nothing is deleted through a symbolic link, nor a folder that is one (``layout.checked_path``).

    Returns:
        What was deleted, with the reason.

    Raises:
        StoreError: the store folder, or a folder on the way to an orphan, is a symbolic link (the
            message names it); what was deleted before stays deleted.
    """
    root = layout.checked_path(layout.store_dir(examples_dir))
    removed = [(p, why) for p, why in orphans(examples_dir) if not why.startswith("format-1")]
    for path, _ in removed:
        layout.checked_path(path.parent)
        path.unlink()  # a link itself, never what it points at
    for parent, _dirs, _files in os.walk(root, topdown=False):  # os.walk does not enter linked folders
        d = Path(parent)
        if d != root and not d.is_symlink() and not any(d.iterdir()):
            d.rmdir()
    return removed
