"""``make capture``: run the examples whose record on this machine's device is not fresh, and store them.

Usage::

    python3 scripts/capture.py [PATH ...] [--force] [-j N] [--shard K/N]
                               [--list | --check | --prune | --migrate]

PATH is an example file or a chapter folder under ``examples/`` (default: all); anything else is
refused. This machine's device kind is ``cuda`` when torch sees a GPU, else ``cpu``; a run writes
only records of that kind and never touches another device's. An example runs when its record of
this kind is missing or stale (its code, cell options or header changed; comments do not count),
or always with ``--force``. A failure keeps the last good record, writes a failure marker and makes
the command exit 1 with ``file:line: message``. ``--list`` prints every example's state per device
and exits 1 when something needs doing; ``--check`` re-runs fresh examples, stores nothing and
reports cells whose output changed; ``--prune`` deletes records no example owns; ``--migrate``
upgrades old-format records in place (every run does it first). Standard library only (rich for the
live display when installed): on a GPU machine run ``python3 scripts/capture.py --force``.
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path

from pytorch_notes.capture.check import changed_cells
from pytorch_notes.capture.progress import make_progress
from pytorch_notes.capture.report import examine, orphans, prune
from pytorch_notes.capture.select import SelectionError, parse_shard, select, shard
from pytorch_notes.execute import supervise
from pytorch_notes.execute.supervise import RunResult, host_device, run_example
from pytorch_notes.parse import Example, ExampleError, parse_example
from pytorch_notes.settings import EXAMPLES_DIR, display_path
from pytorch_notes.store.migrate import migrate_store
from pytorch_notes.store.model import FORMAT, CellRecord, Failure, Provenance, Record, load_outputs, load_provenance
from pytorch_notes.store.records import (
    StoreError,
    capture_lock,
    device_outputs,
    load_record,
    remove_leftover_temp_files,
    save_failure,
    save_record,
)


def this_device_kind() -> str:
    """``"cuda"`` if torch is importable here and sees a CUDA device, else ``"cpu"`` (``host_device``)."""
    found = host_device()
    return found["device_kind"] if found is not None else "cpu"


def _provenance(result: RunResult, kind: str) -> Provenance:
    prov = {"device": "CPU", "device_kind": kind, "torch": None, "cuda": None, "python": "", "platform": "",
            **result.provenance}
    prov.update(captured_at=result.captured_at or time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                duration_s=result.duration_s, wall_s=result.wall_s)
    return load_provenance(prov)


def record_from_run(result: RunResult) -> Record:
    """The record of a successful run (every cell ran). Raises FormatError if the runner's data is malformed."""
    ex = result.example
    prov = _provenance(result, result.provenance.get("device_kind", "cpu"))
    cells = tuple(CellRecord(index=cell.index, line=cell.line, source=cell.source, metadata=dict(cell.metadata),
                             key=cell.key, duration_s=res.duration_s,
                             outputs=load_outputs(res.outputs, f"cells[{cell.index}].outputs"))
                  for cell, res in zip(ex.cells, result.cells, strict=True))
    return Record(format=FORMAT, example=ex.rel, device_kind=prov.device_kind, key=ex.key,
                  source_sha256=ex.sha256, provenance=prov, cells=cells)


def failure_from_run(result: RunResult, kind: str) -> Failure:
    """The failure marker of a run that did not succeed on device ``kind``."""
    ex = result.example
    prov = _provenance(result, kind) if result.provenance else None
    return Failure(format=FORMAT, example=ex.rel, device_kind=kind, key=ex.key, source_sha256=ex.sha256,
                   status=result.status, location=result.location(), message=result.message,
                   captured_at=result.captured_at or time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                   provenance=prov)


def _parse_all(paths: list[Path], examples_dir: Path) -> tuple[list[Example], list[str]]:
    examples, problems = [], []
    for path in paths:
        try:
            examples.append(parse_example(path, examples_dir))
        except ExampleError as exc:
            problems.append(str(exc))
    return examples, problems


def list_states(examples: list[Example], malformed: list[str], examples_dir: Path) -> int:
    """``--list``: a table of states per device, then what needs doing. Returns 1 if anything does."""
    print(f"{'cpu':8} {'cuda':8} example")
    problems = list(malformed)
    for ex in examples:
        row = examine(ex, examples_dir)
        print(f"{row.states['cpu']:8} {row.states['cuda']:8} {row.path}")
        problems += row.problems
    for line in malformed:
        print(f"{'malformed':17} {line.split(':', 1)[0]}")
    problems += [f"{display_path(p)}: orphan: {why} (`make capture ARGS=--prune`)" for p, why in orphans(examples_dir)]
    for line in problems:
        print(line, file=sys.stderr)
    print(f"capture --list: {len(examples) + len(malformed)} example(s), {len(problems)} problem(s)")
    return 1 if problems else 0


def check(examples: list[Example], jobs: int, kind: str, examples_dir: Path) -> int:
    """``--check``: re-run examples whose record of this device kind is fresh; store nothing.
    Returns 1 if a cell's output changed or a run failed."""
    todo, problems = [], []
    for ex in examples:
        dev = device_outputs(ex, kind, examples_dir)
        if dev.state != "fresh":
            print(f"check: skipped {display_path(ex.path)}: no fresh {kind} record ({dev.state}); "
                  f"run `make capture` on a {kind} machine first")
        else:
            todo.append((ex, dev.record))
    print(f"check: re-running {len(todo)} example(s) on {kind}")
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        futures = {pool.submit(run_example, ex): record for ex, record in todo}
        for fut in as_completed(futures):
            result = fut.result()
            if not result.ok:
                problems.append(f"{result.location()}: {result.message}")
                continue
            problems += changed_cells(futures[fut], result)
    for line in problems:
        print(line, file=sys.stderr)
    print(f"check: {len(todo)} re-run, {len(problems)} problem(s)")
    return 1 if problems else 0


def recorded_durations(examples: list[Example], examples_dir: Path) -> dict[str, float]:
    """Seconds each example took at its last capture (any device; the longest), for ``--shard``."""
    found = {}
    for ex in examples:
        times = []
        for kind in ("cuda", "cpu"):
            try:
                rec = load_record(ex.rel, kind, examples_dir)
            except StoreError:
                rec = None
            if rec is not None:
                times.append(rec.provenance.wall_s)
        if times:
            found[ex.rel] = max(times)
    return found


def _run(todo: list[Example], jobs: int, kind: str, examples_dir: Path) -> list[str]:
    """Run ``todo`` with ``jobs`` at once, storing each result as it comes. On Ctrl-C, stop every run
    (``supervise.cancel_all``) before leaving, keep what finished, and re-raise KeyboardInterrupt."""
    failures: list[str] = []
    jobs = max(1, jobs)
    with make_progress(len(todo)) as progress:
        pool = ThreadPoolExecutor(max_workers=jobs)
        try:
            futures = {pool.submit(run_example, ex): ex for ex in todo}
            for ex in todo[:jobs]:
                progress.started(display_path(ex.path))
            queued = todo[jobs:]
            for fut in as_completed(futures):
                result = fut.result()
                name = display_path(result.example.path)
                if result.status == "cancelled":
                    continue
                if result.ok:
                    record = record_from_run(result)
                    save_record(record, examples_dir)
                    progress.finished(name, f"ok {result.duration_s:.1f} s ({record.provenance.device})")
                else:
                    save_failure(failure_from_run(result, kind), examples_dir)
                    line = f"{result.location()}: {result.message} (previous outputs kept)"
                    failures.append(line)
                    progress.finished(name, f"FAILED ({result.status})", line)
                if queued:
                    progress.started(display_path(queued.pop(0).path))
        except BaseException:
            pool.shutdown(wait=False, cancel_futures=True)
            supervise.cancel_all()
            raise
        finally:
            pool.shutdown(wait=True)
    return failures


def main(argv: list[str] | None = None, examples_dir: Path = EXAMPLES_DIR) -> int:
    """Run ``make capture`` with ``argv``; returns the exit status (0 ok, 1 problems, 2 usage, 130 Ctrl-C)."""
    ap = argparse.ArgumentParser(prog="make capture", description=__doc__.split("\n\n")[0])
    ap.add_argument("paths", nargs="*", help="example files or chapter folders under examples/ (default: all)")
    ap.add_argument("--force", action="store_true", help="run even if this device's record is fresh")
    ap.add_argument("--jobs", "-j", type=int, default=1, help="examples to run at once (default 1)")
    ap.add_argument("--shard", metavar="K/N", help="only shard K of N, balanced by recorded durations")
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--list", action="store_true", help="list each example's state per device; run nothing")
    mode.add_argument("--check", action="store_true", help="re-run fresh examples, store nothing, report changes")
    mode.add_argument("--prune", action="store_true", help="delete records and failure markers no example owns")
    mode.add_argument("--migrate", action="store_true", help="upgrade old-format records in place")
    ap.add_argument("--examples-dir", type=Path, default=None, help="examples folder (default: examples/; for tests)")
    args = ap.parse_args(argv)
    if args.examples_dir is not None:
        examples_dir = args.examples_dir.resolve()
    try:
        paths = select(args.paths, examples_dir)
        examples, malformed = _parse_all(paths, examples_dir)
        if args.shard:
            k, n = parse_shard(args.shard)
            mine = set(shard([ex.rel for ex in examples], recorded_durations(examples, examples_dir), k, n))
            examples = [ex for ex in examples if ex.rel in mine]
    except SelectionError as exc:
        print(exc, file=sys.stderr)
        return 2
    if args.list:
        return list_states(examples, malformed, examples_dir)
    if args.migrate or args.prune:
        with capture_lock(examples_dir, lambda: print("capture: another capture is running; waiting for it...")):
            if args.migrate:
                for m in migrate_store(examples_dir):
                    target = display_path(m.target) if m.target else "(dropped)"
                    print(f"migrated {display_path(m.source)} -> {target}: {m.note}")
            else:
                for path, why in prune(examples_dir):
                    print(f"pruned {display_path(path)}: {why}")
        return 0
    for line in malformed:
        print(line, file=sys.stderr)
    kind = this_device_kind()
    if args.check:
        return check(examples, args.jobs, kind, examples_dir) or (1 if malformed else 0)
    return _capture(examples, malformed, kind, args, examples_dir)


def _capture(examples: list[Example], malformed: list[str], kind: str, args, examples_dir: Path) -> int:
    skipped = [ex for ex in examples if ex.needs_cuda and kind != "cuda"]
    runnable = [ex for ex in examples if ex not in skipped]
    t0 = time.perf_counter()
    failures: list[str] = []
    with capture_lock(examples_dir, lambda: print("capture: another capture is running; waiting for it...")):
        remove_leftover_temp_files(examples_dir)  # from a capture that was killed mid-write
        for m in migrate_store(examples_dir):
            print(f"capture: migrated {display_path(m.source)} to the current format: {m.note}")
        try:
            todo = [ex for ex in runnable if args.force or device_outputs(ex, kind, examples_dir).state != "fresh"]
        except StoreError as exc:
            print(exc, file=sys.stderr)
            return 1
        if todo:
            print(f"capture: running {len(todo)} of {len(examples)} example(s) on {kind} with {args.jobs} job(s)")
            try:
                failures = _run(todo, args.jobs, kind, examples_dir)
            except KeyboardInterrupt:
                print("capture: interrupted; the records of examples that finished are stored", file=sys.stderr)
                return 130
            print(f"capture: {len(todo) - len(failures)} ok, {len(failures)} failed in "
                  f"{time.perf_counter() - t0:.1f} s")
        else:
            print(f"capture: nothing to run: {len(runnable)} example(s) have fresh {kind} records")
    for ex in skipped:
        print(f"capture: skipped {display_path(ex.path)}: needs CUDA, none here (stored outputs kept)")
    for line in malformed + failures:
        print(line, file=sys.stderr)
    return 1 if malformed or failures else 0
