"""``make capture``: run stale examples and store their outputs.

Usage::

    python scripts/capture.py [--force] [--jobs N] [--list] [--check] [PATH ...]

PATH may be an example file or a chapter folder under ``examples/`` (default: all).
An example is *stale* when its source hash differs from the stored one (or nothing is
stored); only stale examples run unless ``--force``. Each runs in a fresh process with
its timeout. Successful runs replace the stored record atomically; a failure keeps the
previous record, writes a ``.failed.json`` marker and makes the command exit 1 with
``file:line: message``. Examples that need CUDA are skipped (keeping their outputs) on a
machine without it. ``--check`` re-runs fresh examples without storing anything and
reports each cell whose output differs from the stored one (cells marked ``volatile=true``
are not compared): a test for non-determinism. Standard library only: on a GPU machine with torch, run
``python3 scripts/capture.py --force``.
"""

from __future__ import annotations

import argparse
import difflib
import sys
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path

from pytorch_notes.execute.supervise import RunResult, run_example
from pytorch_notes.parse import Example, ExampleError, discover_examples, parse_example
from pytorch_notes.settings import EXAMPLES_DIR, display_path
from pytorch_notes.store.records import (
    StoreError,
    capture_lock,
    freshness,
    remove_leftover_temp_files,
    save_failure,
    save_success,
)


def select(paths: list[str], examples_dir: Path = EXAMPLES_DIR) -> list[Path]:
    """Example files named by ``paths`` (files or folders); all examples when empty.

    Raises:
        SystemExit: a path is neither an example file nor a folder of examples.
    """
    if not paths:
        return discover_examples(examples_dir)
    chosen: list[Path] = []
    for raw in paths:
        p = Path(raw).resolve()
        if p.is_dir():
            found = [q for q in discover_examples(examples_dir) if p in q.parents]
            if not found:
                raise SystemExit(f"capture: {raw}: no examples in this folder")
            chosen.extend(found)
        elif p.suffix == ".py" and p.is_file():
            chosen.append(p)
        else:
            raise SystemExit(f"capture: {raw}: not an example file or folder (expected examples/<chapter>/<name>.py)")
    return sorted(dict.fromkeys(chosen))


def cuda_available() -> bool:
    """True if torch is importable here and sees a CUDA device."""
    try:
        import torch  # noqa: PLC0415 - imported only when a CUDA-only example is selected
    except ImportError:
        return False
    return torch.cuda.is_available()


def _state(ex: Example, examples_dir: Path) -> str:
    try:
        return freshness(ex, examples_dir).state
    except StoreError:
        return "corrupt"


def _summary(result: RunResult) -> str:
    dev = result.provenance.get("device", "?")
    return f"ok {result.duration_s:.1f} s ({dev})"


def _comparable(outputs: list) -> list[str]:
    """Outputs as lines of text, for comparing two runs (figures by their PNG bytes' digest)."""
    import hashlib  # noqa: PLC0415

    lines = []
    for out in outputs:
        if out["type"] == "stream":
            lines += [f"[{out['name']}] {ln}" for ln in out["text"].splitlines()]
        elif out["type"] == "display":
            lines += [f"[value] {ln}" for ln in out["data"].get("text/plain", "").splitlines()]
        elif out["type"] == "image":
            lines.append(f"[figure] sha256 {hashlib.sha256(out['data'].encode()).hexdigest()[:16]}")
        elif out["type"] == "error":
            lines.append(f"[error] {out['ename']}: {out['evalue']}")
    return lines


def changed_cells(record: dict, result: RunResult) -> list[str]:
    """Compare a new run with the stored ``record`` of the same source, cell by cell.

    Returns one message per differing non-volatile cell, ``examples/x.py:LINE: cell N output
    changed: - stored / + now`` with the first differing line of each side.
    """
    messages = []
    stored = {c["index"]: c for c in record.get("cells", [])}
    for cell, res in zip(result.example.cells, result.cells, strict=False):
        if cell.volatile or cell.index not in stored:
            continue
        old, new = _comparable(stored[cell.index]["outputs"]), _comparable(res.outputs)
        if old != new:
            diff = [ln for ln in difflib.unified_diff(old, new, lineterm="", n=0)
                    if ln[:1] in "+-" and not ln.startswith(("+++", "---"))]
            first_old = next((ln for ln in diff if ln.startswith("-")), "-")
            first_new = next((ln for ln in diff if ln.startswith("+")), "+")
            messages.append(f"{display_path(result.example.path)}:{cell.line}: cell {cell.index + 1} output changed "
                            f"between runs (mark it `# %% volatile=true` if that is expected)\n"
                            f"    stored {first_old}\n    now    {first_new}")
    return messages


def check(examples: list[Example], jobs: int, examples_dir: Path = EXAMPLES_DIR) -> int:
    """``--check``: re-run examples whose stored outputs are fresh and report changed cells.

    Never writes the store. Returns the exit status (1 if a cell changed or a run failed).
    """
    here = "cuda" if cuda_available() else "cpu"
    todo, problems = [], []
    for ex in examples:
        fresh = freshness(ex, examples_dir)
        if fresh.state != "fresh":
            print(f"check: skipped {display_path(ex.path)}: outputs are {fresh.state}; run `make capture` first")
        elif fresh.record["provenance"].get("device_kind", "cpu") != here:
            print(f"check: skipped {display_path(ex.path)}: stored on {fresh.record['provenance'].get('device')}, "
                  f"this machine is {here}: outputs may differ legitimately")
        else:
            todo.append((ex, fresh.record))
    print(f"check: re-running {len(todo)} example(s)")
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


def main(argv: list[str] | None = None, examples_dir: Path = EXAMPLES_DIR) -> int:
    ap = argparse.ArgumentParser(prog="make capture", description=__doc__.split("\n\n")[0])
    ap.add_argument("paths", nargs="*", help="example files or chapter folders (default: all)")
    ap.add_argument("--force", action="store_true", help="run even if the stored outputs are fresh")
    ap.add_argument("--jobs", "-j", type=int, default=1, help="examples to run at once (default 1)")
    ap.add_argument("--list", action="store_true", help="only list each example's state; run nothing")
    ap.add_argument("--check", action="store_true",
                    help="re-run fresh examples, store nothing, report cells whose output changed")
    ap.add_argument("--examples-dir", type=Path, default=None,
                    help="examples folder to work on (default: the repository's examples/; for tests)")
    args = ap.parse_args(argv)
    if args.examples_dir is not None:
        examples_dir = args.examples_dir.resolve()

    problems: list[str] = []
    examples: list[Example] = []
    for path in select(args.paths, examples_dir):
        try:
            examples.append(parse_example(path, examples_dir))
        except ExampleError as exc:
            problems.append(str(exc))

    if args.check:
        for line in problems:
            print(line, file=sys.stderr)
        return check(examples, args.jobs, examples_dir) or (1 if problems else 0)

    todo: list[Example] = []
    for ex in examples:
        try:
            state = freshness(ex, examples_dir).state
        except StoreError as exc:
            print(f"  {exc}", file=sys.stderr)
            state = "corrupt"
        if args.list:
            print(f"{state:8} {display_path(ex.path)}")
        if args.force or state != "fresh":
            todo.append(ex)
    if args.list:
        return 0

    skipped = []
    if any(ex.needs_cuda for ex in todo) and not cuda_available():
        skipped = [ex for ex in todo if ex.needs_cuda]
        todo = [ex for ex in todo if not ex.needs_cuda]

    if not todo:
        print(f"capture: nothing to run: {len(examples)} example(s) up to date"
              + (f", {len(skipped)} need CUDA (skipped on this machine)" if skipped else ""))
    failures: list[str] = []
    t0 = time.perf_counter()
    if todo:
        with capture_lock(examples_dir, lambda: print("capture: another capture is running; waiting for it...")):
            remove_leftover_temp_files(examples_dir)  # from a capture that was killed mid-write
            if not args.force:  # another capture may have stored some of them while we waited
                todo = [ex for ex in todo if _state(ex, examples_dir) != "fresh"]
            print(f"capture: running {len(todo)} of {len(examples)} example(s) with {args.jobs} job(s)")
            with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
                futures = {pool.submit(run_example, ex): ex for ex in todo}
                for n, fut in enumerate(as_completed(futures), start=1):
                    result = fut.result()
                    name = display_path(result.example.path)
                    if result.ok:
                        save_success(result, examples_dir)
                        print(f"[{n}/{len(todo)}] {name}: {_summary(result)}", flush=True)
                    else:
                        save_failure(result, examples_dir)
                        line = f"{result.location()}: {result.message} (previous outputs kept)"
                        failures.append(line)
                        print(f"[{n}/{len(todo)}] {name}: FAILED ({result.status})", flush=True)
                        print(f"  {line}", flush=True)
        print(f"capture: {len(todo) - len(failures)} ok, {len(failures)} failed in {time.perf_counter() - t0:.1f} s")
    for ex in skipped:
        print(f"capture: skipped {display_path(ex.path)}: needs CUDA, none here (stored outputs kept)")
    for line in problems + failures:
        print(line, file=sys.stderr)
    return 1 if problems or failures else 0


if __name__ == "__main__":
    sys.exit(main())
