"""``make capture``: run stale examples and store their outputs.

Usage::

    python scripts/capture.py [--force] [--jobs N] [--list] [PATH ...]

PATH may be an example file or a chapter folder under ``examples/`` (default: all).
An example is *stale* when its source hash differs from the stored one (or nothing is
stored); only stale examples run unless ``--force``. Each runs in a fresh process with
its timeout. Successful runs replace the stored record atomically; a failure keeps the
previous record, writes a ``.failed.json`` marker and makes the command exit 1 with
``file:line: message``. Examples that need CUDA are skipped (keeping their outputs) on a
machine without it. Standard library only: on a GPU machine with torch, run
``python3 scripts/capture.py --force``.
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from examplefile import EXAMPLES_DIR, Example, ExampleError, discover_examples, display_path, parse_example  # noqa: E402
from execute import RunResult, run_example  # noqa: E402
from store import StoreError, capture_lock, freshness, save_failure, save_success  # noqa: E402


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


def _summary(result: RunResult) -> str:
    dev = result.provenance.get("device", "?")
    return f"ok {result.duration_s:.1f} s ({dev})"


def main(argv: list[str] | None = None, examples_dir: Path = EXAMPLES_DIR) -> int:
    ap = argparse.ArgumentParser(prog="make capture", description=__doc__.split("\n\n")[0])
    ap.add_argument("paths", nargs="*", help="example files or chapter folders (default: all)")
    ap.add_argument("--force", action="store_true", help="run even if the stored outputs are fresh")
    ap.add_argument("--jobs", "-j", type=int, default=1, help="examples to run at once (default 1)")
    ap.add_argument("--list", action="store_true", help="only list each example's state; run nothing")
    args = ap.parse_args(argv)

    problems: list[str] = []
    examples: list[Example] = []
    for path in select(args.paths, examples_dir):
        try:
            examples.append(parse_example(path, examples_dir))
        except ExampleError as exc:
            problems.append(str(exc))

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
