"""One capture's runs and what is stored of them: records of successes, failure markers of the rest.

Standard library only (rich for the live display when installed). Everything an example produced
is cleaned and bounded before it is written (``store/untrusted.py``), and a report the record format
rejects is that example's failure, never the end of the capture.
"""

from __future__ import annotations

import sys
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path

from pytorch_notes.capture.changes import ExampleChanges, compare, terminal_lines
from pytorch_notes.capture.check import changed_cells
from pytorch_notes.capture.progress import make_progress
from pytorch_notes.execute.supervise import RunResult, Supervisor
from pytorch_notes.parse import Example
from pytorch_notes.settings import display_path
from pytorch_notes.store.model import (
    FORMAT,
    CellRecord,
    Failure,
    FormatError,
    Provenance,
    Record,
    load_outputs,
    load_provenance,
)
from pytorch_notes.store.records import StoreError, device_outputs, load_record, save_failure, save_record
from pytorch_notes.store.untrusted import NO_SECRETS, Secrets, clean_failure, clean_record, log_text


def _provenance(result: RunResult) -> Provenance:
    """The run's provenance as the capture found it (``supervise``), with its times; the device kind is
    the supervisor's, whatever the example's process did."""
    prov = {"device": "CPU", "torch": None, "cuda": None, "python": "", "platform": "", **result.provenance,
            "device_kind": result.device_kind}
    prov.update(captured_at=result.captured_at or time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                duration_s=result.duration_s, wall_s=result.wall_s)
    return load_provenance(prov)


def record_from_run(result: RunResult, secrets: Secrets = NO_SECRETS) -> Record:
    """The record of a successful run (every cell ran), cleaned and bounded (``untrusted.clean_record``).

    Raises:
        FormatError: the runner's report of a cell does not match the record format (the field is named).
    """
    ex = result.example
    prov = _provenance(result)
    cells = tuple(CellRecord(index=cell.index, line=cell.line, source=cell.source, metadata=dict(cell.metadata),
                             key=cell.key, duration_s=float(res.duration_s),
                             outputs=load_outputs(res.outputs, f"cells[{cell.index}].outputs"))
                  for cell, res in zip(ex.cells, result.cells, strict=True))
    return clean_record(Record(format=FORMAT, example=ex.rel, device_kind=result.device_kind, key=ex.key,
                               source_sha256=ex.sha256, provenance=prov, cells=cells), secrets)


def failure_from_run(result: RunResult, secrets: Secrets = NO_SECRETS) -> Failure:
    """The failure marker of a run that did not succeed, on the supervisor's device kind, cleaned."""
    ex = result.example
    return clean_failure(Failure(format=FORMAT, example=ex.rel, device_kind=result.device_kind, key=ex.key,
                                 source_sha256=ex.sha256, status=result.status, location=result.location(),
                                 message=result.message, captured_at=result.captured_at or
                                 time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                                 provenance=_provenance(result) if result.provenance else None), secrets)


@dataclass
class Stored:
    """What storing one run did: the progress line's ``summary``, the ``failure`` line ("" when it
    succeeded) and, for a record, its ``changes`` from the one stored before (``changes.compare``)."""

    summary: str
    failure: str = ""
    changes: ExampleChanges | None = None


def store_result(result: RunResult, examples_dir: Path, secrets: Secrets = NO_SECRETS) -> Stored:
    """Store one finished run: its record, or a failure marker (the last good record kept).

    A run whose report the record format rejects (a forged or broken results channel) is stored as a
    failure naming the field. A previous record that cannot be read counts as none for the changes."""
    if result.ok:
        try:
            record = record_from_run(result, secrets)
        except FormatError as exc:
            result.status, result.error_line = "failed", result.example.cells[0].line
            result.message = f"the run's report cannot be trusted: {exc}"
        else:
            try:
                before = load_record(record.example, record.device_kind, examples_dir)
            except StoreError:
                before = None
            save_record(record, examples_dir)
            return Stored(f"ok {result.duration_s:.1f} s ({record.provenance.device}, {record.provenance.isolation})",
                          changes=compare(before, record))
    failure = failure_from_run(result, secrets)
    save_failure(failure, examples_dir)
    return Stored(f"FAILED ({result.status})", f"{failure.location}: {failure.message} (previous outputs kept)")


def run_all(todo: list[Example], jobs: int, runs: Supervisor, examples_dir: Path,
            secrets: Secrets = NO_SECRETS) -> list[Stored]:
    """Run ``todo`` with ``jobs`` at once, storing each result as it comes, and print each one's line with
    the cells whose outputs changed; returns what was stored, in the order the runs ended.

    A worker runs an example and then stores it before it takes the next, so in the fallback without a
    sandbox (one job) the capture never writes the store while an example runs: every change the
    repository check sees is the example's. A store error (a symbolic link, a file in a folder's place)
    fails that example. On Ctrl-C, stop every run (``Supervisor.cancel_all``) before leaving, keep what
    finished, and re-raise KeyboardInterrupt.

    Examples that require CUDA measure the GPU itself (bandwidth, throughput, memory), so they run first and
    one at a time, with nothing beside them; the others then share the ``jobs``.
    """
    jobs = max(1, jobs)
    alone = [ex for ex in todo if ex.needs_cuda]
    if jobs > 1 and alone and len(alone) < len(todo):
        first = run_all(alone, 1, runs, examples_dir, secrets)
        return first + run_all([ex for ex in todo if not ex.needs_cuda], jobs, runs, examples_dir, secrets)
    done: list[Stored] = []

    def run_and_store(ex: Example) -> tuple[RunResult, Stored | None]:
        result = runs.run(ex)
        if result.status == "cancelled":
            return result, None
        try:
            return result, store_result(result, examples_dir, secrets)
        except StoreError as exc:
            return result, Stored("FAILED (store)", str(exc))

    with make_progress(len(todo)) as progress:
        pool = ThreadPoolExecutor(max_workers=jobs)
        try:
            futures = [pool.submit(run_and_store, ex) for ex in todo]
            for ex in todo[:jobs]:
                progress.started(display_path(ex.path))
            queued = todo[jobs:]
            for fut in as_completed(futures):
                result, stored = fut.result()
                if stored is None:
                    continue
                done.append(stored)
                extra = stored.failure or "\n".join(terminal_lines(stored.changes) if stored.changes else [])
                progress.finished(display_path(result.example.path), stored.summary, extra)
                if queued:
                    progress.started(display_path(queued.pop(0).path))
        except BaseException:
            pool.shutdown(wait=False, cancel_futures=True)
            runs.cancel_all()
            raise
        finally:
            pool.shutdown(wait=True)
    return done


def check(examples: list[Example], jobs: int, runs: Supervisor, examples_dir: Path) -> int:
    """``--check``: re-run examples whose record of this device kind is fresh; store nothing.
    Returns 1 if a cell's output changed or a run failed."""
    todo, problems, kind = [], [], runs.kind
    for ex in examples:
        dev = device_outputs(ex, kind, examples_dir)
        if dev.state != "fresh":
            print(f"check: skipped {display_path(ex.path)}: no fresh {kind} record ({dev.state}); "
                  f"run `make capture` on a {kind} machine first")
        else:
            todo.append((ex, dev.record))
    print(f"check: re-running {len(todo)} example(s) on {kind}")
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        futures = {pool.submit(runs.run, ex): record for ex, record in todo}
        for fut in as_completed(futures):
            result = fut.result()
            if not result.ok:
                problems.append(f"{result.location()}: {result.message}")
                continue
            problems += changed_cells(futures[fut], result)
    for line in problems:
        print(log_text(line), file=sys.stderr)
    print(f"check: {len(todo)} re-run, {len(problems)} problem(s)")
    return 1 if problems else 0


