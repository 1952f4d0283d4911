"""``make capture``: run the examples whose record on this machine's device is not fresh, and store them.

Usage::

    python3 scripts/capture.py [PATH ...] [--force] [-j N] [--shard K/N]
                               [--isolation auto|bwrap|supervised] [--report FILE]
                               [--list | --check | --prune | --migrate]

PATH is an example file or a chapter folder under ``examples/`` (default: all); anything else is
refused. This machine's device kind is ``cuda`` when torch sees a GPU, else ``cpu``, found by this
process (``supervise.this_device_kind``), never by an example's; a run writes only records of that
kind and never touches another device's. Every example runs in a sandbox (``execute/sandbox.py``;
``--isolation`` chooses), and everything it produced is cleaned and bounded before it is stored
(``store/untrusted.py``), the values of this environment's secret-looking variables removed. An
example runs when its record of this kind is missing or stale (its code, cell options or header
changed; comments do not count), or always with ``--force``. A failure keeps the last good record,
writes a failure marker and makes the command exit 1 with ``file:line: message``. ``--list`` prints
every example's state per device and exits 1 when something needs doing; ``--check`` re-runs fresh
examples, stores nothing and reports cells whose output changed; ``--prune`` deletes records no
example owns; ``--migrate`` upgrades old-format records in place (every run does it first). Standard
library only (rich for the live display when installed): on a GPU machine run ``python3
scripts/capture.py --force``.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

from pytorch_notes.atomic import write_atomic
from pytorch_notes.capture.changes import markdown as changes_markdown
from pytorch_notes.capture.report import examine, orphans, prune
from pytorch_notes.capture.run import check, failure_from_run, record_from_run, run_all
from pytorch_notes.capture.select import SelectionError, parse_shard, select, shard
from pytorch_notes.execute.sandbox import SandboxError
from pytorch_notes.execute.supervise import Supervisor, host_device
from pytorch_notes.parse import Example, ExampleError, parse_example
from pytorch_notes.settings import EXAMPLES_DIR, display_path
from pytorch_notes.store.migrate import migrate_store
from pytorch_notes.store.model import DEVICE_KINDS
from pytorch_notes.store.records import (
    StoreError,
    capture_lock,
    device_outputs,
    load_record,
    remove_leftover_temp_files,
)
from pytorch_notes.store.untrusted import Secrets, log_text, terminal_text
from pytorch_notes.store.warns import problems as warn_problems

__all__ = ["failure_from_run", "main", "record_from_run"]  # the two builders live in capture/run.py


def _say(line: str, stream=None) -> None:
    """Print ``line``, which quotes what an example printed (a failure message, a traceback), safely for a
    terminal and a CI log (``untrusted.log_text``: escaped, no line a runner obeys, and between stop-commands
    under GitHub Actions)."""
    print(log_text(line), file=stream or sys.stdout)


def _tell(line: str, stream=None) -> None:
    """Print the capture's own ``line`` (it may name a path or quote a value on one line) safely for a terminal
    and a CI log (``untrusted.terminal_text``)."""
    print(terminal_text(line), file=stream or sys.stdout)


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
        _tell(f"{row.states['cpu']:8} {row.states['cuda']:8} {row.path}")
        problems += row.problems
    for line in malformed:
        _tell(f"{'malformed':17} {line.split(':', 1)[0]}")
    problems += [f"{display_path(p)}: orphan: {why} (`make capture ARGS=--prune`)" for p, why in orphans(examples_dir)]
    for line in problems:
        _say(line, sys.stderr)
    print(f"capture --list: {len(examples) + len(malformed)} example(s), {len(problems)} problem(s)")
    return 1 if problems else 0


def recorded_durations(examples: list[Example], examples_dir: Path) -> dict[str, float]:
    """Seconds each example took at its last capture (any device; the longest), for ``--shard``."""
    found = {}
    for ex in examples:
        times = []
        for kind in DEVICE_KINDS:
            try:
                rec = load_record(ex.rel, kind, examples_dir)
            except StoreError:
                rec = None
            if rec is not None:
                times.append(rec.provenance.wall_s)
        if times:
            found[ex.rel] = max(times)
    return found


def main(argv: list[str] | None = None, examples_dir: Path = EXAMPLES_DIR) -> int:
    """Run ``make capture`` with ``argv``; returns the exit status (0 ok, 1 problems, 2 usage, 130 Ctrl-C)."""
    ap = argparse.ArgumentParser(prog="make capture", description=__doc__.split("\n\n")[0])
    ap.add_argument("paths", nargs="*", help="example files or chapter folders under examples/ (default: all)")
    ap.add_argument("--force", action="store_true", help="run even if this device's record is fresh")
    ap.add_argument("--jobs", "-j", type=int, default=1, help="examples to run at once (default 1)")
    ap.add_argument("--shard", metavar="K/N", help="only shard K of N, balanced by recorded durations")
    ap.add_argument("--report", type=Path, metavar="FILE",
                    help="write what changed in each re-captured example's outputs to FILE, as Markdown")
    ap.add_argument("--isolation", choices=("auto", "bwrap", "supervised"), default="auto",
                    help="bubblewrap sandbox when it starts here (auto, the default), always (bwrap: fail "
                         "otherwise), or supervised processes with a check of the repository")
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
        _tell(str(exc), sys.stderr)
        return 2
    if args.list:
        return list_states(examples, malformed, examples_dir)
    if args.migrate or args.prune:
        try:
            _maintain(args.migrate, examples_dir)
        except StoreError as exc:
            _tell(str(exc), sys.stderr)
            return 1
        return 0
    for line in malformed:
        _say(line, sys.stderr)
    try:
        runs = Supervisor(Path(examples_dir).resolve().parent, mode=args.isolation)
    except SandboxError as exc:
        _tell(f"capture: --isolation bwrap: {exc}", sys.stderr)
        return 2
    print(f"capture: {runs.sandbox.describe()}")
    if not runs.sandbox.bwrap and (names := Secrets(os.environ).names):
        _tell(f"capture: warning: without the sandbox an example can read this process's environment and files, "
             f"and {', '.join(names)} are set here; only their exact and simply encoded values are removed from "
             "what is stored. Unset them, or capture where bubblewrap runs.", sys.stderr)
    if args.check:
        return check(examples, args.jobs, runs, examples_dir) or (1 if malformed else 0)
    return _capture(examples, malformed, runs, args, examples_dir)


def _maintain(migrate: bool, examples_dir: Path) -> None:
    """``--migrate`` or ``--prune`` under the store's lock. Raises StoreError (a symbolic link in the store)."""
    with capture_lock(examples_dir, lambda: print("capture: another capture is running; waiting for it...")):
        if migrate:
            for m in migrate_store(examples_dir):
                target = display_path(m.target) if m.target else "(dropped)"
                print(f"migrated {display_path(m.source)} -> {target}: {m.note}")
        else:
            for path, why in prune(examples_dir):
                print(f"pruned {display_path(path)}: {why}")


def _capture(examples: list[Example], malformed: list[str], runs: Supervisor, args, examples_dir: Path) -> int:
    try:
        return _capture_locked(examples, malformed, runs, args, examples_dir)
    except StoreError as exc:  # the store folder itself is behind a symbolic link, or unreadable
        _tell(str(exc), sys.stderr)
        return 1


def _capture_locked(examples: list[Example], malformed: list[str], runs: Supervisor, args, examples_dir: Path) -> int:
    kind = runs.kind
    torch_here = (host_device() or {}).get("torch")
    skipped = [ex for ex in examples if ex.needs_cuda and kind != "cuda"]
    too_old = [ex for ex in examples if ex not in skipped and not ex.runs_with_torch(torch_here)]
    runnable = [ex for ex in examples if ex not in skipped and ex not in too_old]
    why = [f"examples/{ex.rel}: needs torch >= {ex.min_torch}, this machine has {torch_here}" for ex in too_old]
    t0 = time.perf_counter()
    failures: list[str] = []
    secrets = Secrets(os.environ)
    with capture_lock(examples_dir, lambda: print("capture: another capture is running; waiting for it...")):
        remove_leftover_temp_files(examples_dir)  # from a capture that was killed mid-write
        for m in migrate_store(examples_dir):
            print(f"capture: migrated {display_path(m.source)} to the current format: {m.note}")
        try:
            todo = [ex for ex in runnable if args.force or device_outputs(ex, kind, examples_dir).state != "fresh"]
        except StoreError as exc:
            _tell(str(exc), sys.stderr)
            return 1
        if todo:
            jobs = args.jobs if runs.sandbox.bwrap else 1
            print(f"capture: running {len(todo)} of {len(examples)} example(s) on {kind} with {jobs} job(s)")
            try:
                stored = run_all(todo, jobs, runs, examples_dir, secrets)
            except KeyboardInterrupt:
                print("capture: interrupted; the records of examples that finished are stored", file=sys.stderr)
                return 130
            failures = [s.failure for s in stored if s.failure]
            changed = [s.changes for s in stored if s.changes is not None]
            print(f"capture: {len(todo) - len(failures)} ok ({sum(c.changed for c in changed)} with changed or new "
                  f"outputs), {len(failures)} failed in {time.perf_counter() - t0:.1f} s")
            # every warning in what was stored is declared by its cell (store/warns.py): else exit 1, records kept
            failures += [str(p) for ex in todo for p in warn_problems(ex, examples_dir)]
            if args.report:
                write_atomic(args.report, changes_markdown(changed, f"Output changes on {kind}", why), durable=True)
                print(f"capture: the changes are in {args.report}")
        else:
            print(f"capture: nothing to run: {len(runnable)} example(s) have fresh {kind} records")
    for ex in skipped:
        print(f"capture: skipped {display_path(ex.path)}: needs CUDA, none here (stored outputs kept)")
    for line in why:
        print(f"capture: skipped {line} (stored outputs kept)")
    for line in malformed + failures:
        _say(line, sys.stderr)
    return 1 if malformed or failures else 0
