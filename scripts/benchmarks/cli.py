"""``make bench``: measure the site against the alternatives, in one run.

Usage::

    python scripts/bench.py [--repeat N] [--exec-repeat N] [--quick] [--skip-tests] [--only SECTION,...]
                            [--scale 1,4,16] [--capture-examples N] [--test-args ARGS] [--edits N] [--fresh]

``make bench ARGS="--quick --skip-tests"`` takes a few minutes (for development); the full run takes
about 35 minutes on a 2-core machine (the executing build, the x16 scaling and the three ``make test``
runs dominate) plus the ``loop`` section's fresh clones, and should run on a quiet machine.
``--only loop --quick`` measures the edit-to-page loop in a few minutes.
A section that fails is reported (exit status 1); the others still run.

Sections (all by default, in this order):

* ``build``: strict build of both languages from stored outputs, cold (``.cache`` emptied, target
  < 15 s) and warm (mkdocs-jupyter cache filled by the previous build, target < 4 s); the page weights
  are measured on the warm build's output (``weight``). Each cold build is taken apart: the CPU seconds
  of all its processes (over the machine's cores: the least cold build there) and a build with only the
  notebooks' conversions kept (the build's own process: the least cold build on any number of cores).
* ``exec``: the same site built by a build that executes the examples: mkdocs-jupyter with
  ``execute: true`` and its cache off, on the chapter notebooks the hooks generate, stripped of their
  stored outputs by an extra hook. The page embeds are kept (they read the store, which costs little),
  so the variant does the stored-output build's work plus the execution. ``--quick`` executes one
  small chapter's notebook and estimates the rest from the stored run times.
* ``incremental``: ``scripts/capture.py`` with nothing changed (no example may start and no store
  file may change), then after appending a newline to one example (exactly one may run).
* ``capture``: ``capture.py --force -j 1`` and ``-j 2`` against the sum of one-cell runs of the same files
  through the capture's runner and sandbox (``execute.script.run_script``), over a subset spread across run
  times of the examples that declare no raising cell (a one-cell run of one that does stops at the declared
  exception).
* ``scaling``: warm build time with the content replicated 1x, 4x and 16x (pages, examples and
  outputs copied under new chapter names in both languages, nav extended).
* ``weight``: page weight (html + the css, js and images it references; no search index; shared
  assets counted on every page, as a browser without cache loads them) and search index sizes.
* ``reader``: on the warm build, served on 127.0.0.1, in Chromium: search recall@3 per language over the
  query set ``tests/search_queries.json`` (target >= 0.9) and over the held-out set
  ``tests/search_queries_heldout.json``, never tuned on (target >= 0.97, issue 44), and the serious +
  critical axe-core violations of the home, a chapter, a notebook and the 404 page in both languages,
  light and dark (target 0).
* ``lighthouse`` (``benchmarks.lighthouse``): on the warm build, served gzip-compressed on 127.0.0.1, Lighthouse 12's
  mobile scores (simulated throttling) of the home page and the attention, distributed, images and performance
  chapters, both languages, median of ``--repeat`` runs: performance >= 85, accessibility, best practices and
  SEO 100; and the highlighted code blocks a page holds twice (target 0). Lighthouse is an npm package, not
  installed by the project: without it the section says how to install it and reports only the code count.
  20-35 s a run on 2 busy cores: 10 pages x 3 runs add 10-18 minutes (3-6 with --quick).
* ``loop`` (``benchmarks.loop``, ``benchmarks.fresh``): under ``make serve``'s own command, the seconds
  from saving a page to the served page showing the edit (target <= 1 s) and from saving an example
  (a new comment) to every page showing it, both languages and notebooks (target <= 2 s), each over
  ``--edits`` edits (default 10; 5 with --quick) and as a ratio to a warm full build; the warm build of
  the same pages as plain Material, without hooks or notebooks (the floor for this stack; no target);
  ``make serve`` in a fresh ``git clone`` of HEAD until the home page answers, virtualenv set-up
  included (target <= 35 s), until its notebook views are ready (converted after it answers), and
  ``make build`` right after it against a warm one (target <= 1.5x: they share every cache); ``make test``
  in another clone (target < 180 s, 1 run; left out by ``--skip-tests``). ``--quick`` leaves the fresh
  clones out unless ``--fresh`` is given.
* ``tests``: wall time of ``make test``.

Every measurement runs in a temporary copy of the repository (removed afterwards); the repository
itself is only written under ``artifacts/bench/`` (``bench-<date>.json`` and ``latest.json``).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path

from pytorch_notes.settings import REPO_ROOT

from benchmarks.build import bench_build, bench_exec, bench_scaling, bench_tests
from benchmarks.capture import bench_capture, bench_incremental
from benchmarks.figures import Figure, format_table, ratio, write_report
from benchmarks.lighthouse import bench_lighthouse
from benchmarks.loop import bench_loop
from benchmarks.reader import bench_reader
from benchmarks.repo import BenchError, PartialResults
from benchmarks.weight import bench_weight

SECTIONS = ("build", "exec", "incremental", "capture", "scaling", "weight", "reader", "lighthouse", "loop", "tests")


# ---------------------------------------------------------------- main


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    ap = argparse.ArgumentParser(prog="make bench", description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, help="runs per figure (default 3; 1 with --quick)")
    ap.add_argument("--exec-repeat", type=int, default=1, help="runs of the slow executing build (default 1)")
    ap.add_argument("--quick", action="store_true",
                    help="for development: 1 run, partial executing build, 3-example capture subset, scaling x1 x2")
    ap.add_argument("--skip-tests", action="store_true",
                    help="do not time `make test` (neither the tests section nor the loop's fresh clone)")
    ap.add_argument("--test-args", default="", help="ARGS for the timed `make test` (default: none, the full suite)")
    ap.add_argument("--only", help=f"comma-separated sections: {','.join(SECTIONS)}")
    ap.add_argument("--scale", help="content factors for the scaling section (default 1,4,16; --quick 1,2)")
    ap.add_argument("--capture-examples", type=int,
                    help="examples in the capture-overhead subset, 0 = all (default 8; --quick 3)")
    ap.add_argument("--edits", type=int,
                    help="edits per reload figure of the loop section (default 10; 5 with --quick)")
    ap.add_argument("--fresh", action="store_true", help="with --quick: run the loop section's fresh clones anyway")
    args = ap.parse_args(argv)
    repeat = args.repeat or (1 if args.quick else 3)
    factors = [int(x) for x in (args.scale or ("1,2" if args.quick else "1,4,16")).split(",")]
    count = args.capture_examples if args.capture_examples is not None else (3 if args.quick else 8)
    sections = args.only.split(",") if args.only else list(SECTIONS)
    unknown = set(sections) - set(SECTIONS)
    edits = args.edits or (5 if args.quick else 10)
    if unknown or repeat < 1 or args.exec_repeat < 1 or edits < 1:
        ap.error(f"unknown section(s) {sorted(unknown)}" if unknown else "repeats must be >= 1")
    if args.skip_tests and "tests" in sections:
        sections.remove("tests")
    if {"exec", "weight", "reader", "lighthouse"} & set(sections) and "build" not in sections:
        sections.insert(0, "build")  # the executing estimate, the weights and the reader figures need the build

    started, load_start = datetime.now(), list(os.getloadavg())
    figures: list[Figure] = []
    with tempfile.TemporaryDirectory(prefix="pytorch-notes-bench-") as tmpdir:
        tmp = Path(tmpdir)
        steps = {
            "incremental": lambda: bench_incremental(tmp, repeat),
            "capture": lambda: bench_capture(tmp, repeat, count),
            "scaling": lambda: bench_scaling(tmp, repeat, factors),
            "tests": lambda: bench_tests(tmp, repeat, args.test_args),
            "loop": lambda: bench_loop(tmp, repeat, edits, fresh=args.fresh or not args.quick,
                                       tests=(args.fresh or not args.quick) and not args.skip_tests,
                                       test_args=args.test_args),
        }
        built, errors = None, []
        for section in [s for s in SECTIONS if s in sections]:
            print(f"bench: {section} ...", file=sys.stderr, flush=True)
            t0 = time.perf_counter()
            if section in ("exec", "weight", "reader", "lighthouse") and built is None:
                errors.append(f"{section}: skipped, it needs the build section, which failed")
                continue
            try:
                if section == "build":
                    found, built = bench_build(tmp, repeat)
                elif section == "exec":
                    found = bench_exec(tmp, args.exec_repeat, found_by_name(figures, "cold"), args.quick)
                    found.append(ratio("speed-up, stored outputs vs executing", found[-1],
                                       found_by_name(figures, "warm"), (">=", 20)))
                elif section == "weight":
                    found = bench_weight(built)
                elif section == "reader":
                    found = bench_reader(built)
                elif section == "lighthouse":
                    found = bench_lighthouse(built, repeat)
                else:
                    found = steps[section]()
            except PartialResults as exc:
                figures.extend(exc.figures)
                errors.append(f"{section}: {exc}")
                print(f"bench: {section} PARTLY FAILED: {exc}", file=sys.stderr, flush=True)
                continue
            except (BenchError, subprocess.TimeoutExpired) as exc:
                errors.append(f"{section}: {exc}")
                print(f"bench: {section} FAILED: {exc}", file=sys.stderr, flush=True)
                continue
            figures.extend(found)
            print(f"bench: {section} done in {time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)

    load = os.getloadavg()
    kind = "QUICK run (for development, not for the record)" if args.quick else "full run"
    print(f"bench: {kind}, {repeat} run(s) per figure, {os.cpu_count()} CPUs, "
          f"load average now {load[0]:.1f} (1 min) / {load[2]:.1f} (15 min)")
    table = format_table(figures)
    print(table)
    dated = write_report(figures, table, started=started, argv=argv, repeat=repeat, quick=args.quick,
                         load_start=load_start, load=load, errors=errors)
    missed = [f.name for f in figures if f.met is False]
    print(f"bench: {len(missed)} target(s) missed" + (f": {'; '.join(missed)}" if missed else ""))
    print(f"bench: figures written to {dated.relative_to(REPO_ROOT)} and artifacts/bench/latest.json")
    for line in errors:
        print(f"bench: {line}", file=sys.stderr)
    return 1 if errors else 0


def found_by_name(figures: list[Figure], word: str) -> Figure:
    """The first build figure whose name contains ``word`` (``"warm"`` or ``"cold"``)."""
    return next(f for f in figures if f.name.startswith("build, stored") and word in f.name)
