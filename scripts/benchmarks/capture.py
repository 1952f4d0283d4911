"""Capture sections: ``incremental`` (nothing changed, then one example changed) and ``capture``
(the overhead of ``capture.py`` over one-cell runs of the same files, and of the sandbox over a supervised
process). Every example runs through the capture's runner and sandbox, never as a plain ``python`` of ours."""

from __future__ import annotations

import re
import statistics
import sys
import time
from pathlib import Path

from pytorch_notes.execute.script import run_script
from pytorch_notes.execute.supervise import Supervisor
from pytorch_notes.parse import discover_examples, parse_example
from pytorch_notes.settings import EXAMPLES_DIR

from benchmarks.figures import Figure, ratio
from benchmarks.repo import BenchError, bench_env, copy_repo, stored_durations, timed

# ---------------------------------------------------------------- 2. incremental capture


def store_mtimes(examples_dir: Path) -> dict[str, int]:
    """mtime (ns) of every store file, keyed by path relative to the store."""
    store = examples_dir / "_outputs"
    return {p.relative_to(store).as_posix(): p.stat().st_mtime_ns for p in store.rglob("*.json")}


_RAN = re.compile(r"^\[\d+/\d+\] ", re.MULTILINE)


def bench_incremental(tmp: Path, repeat: int) -> list[Figure]:
    """``capture.py`` with nothing stale, then with one example changed (a statement appended)."""
    root = copy_repo(tmp / "incr-repo")
    env, cmd = bench_env(tmp), [sys.executable, "scripts/capture.py"]
    timed(cmd, root, env)  # untimed: brings the copy up to date if the working tree has stale examples
    noop, noop_runs = [], []
    for _ in range(repeat):
        before = store_mtimes(root / "examples")
        seconds, out = timed(cmd, root, env)
        changed = [k for k, v in store_mtimes(root / "examples").items() if before.get(k) != v]
        noop.append(seconds)
        noop_runs.append(max(len(_RAN.findall(out)), len(changed)))
    durations = stored_durations(root / "examples")
    target = min(durations, key=durations.get)
    one, one_runs = [], []
    for _ in range(repeat):
        with open(root / "examples" / f"{target}.py", "a", encoding="utf-8") as fh:
            fh.write("\npass\n")  # new code in the last cell (a comment or newline would keep it fresh)
        before = store_mtimes(root / "examples")
        seconds, out = timed(cmd, root, env)
        changed = [k for k, v in store_mtimes(root / "examples").items() if before.get(k) != v]
        one.append(seconds)
        one_runs.append(max(len(_RAN.findall(out)), len(changed)))
    return [Figure("capture, nothing changed", "s", noop, ("<", 2)),
            Figure("capture, nothing changed: examples run", "", noop_runs, ("==", 0), "and store files changed"),
            Figure("capture, one example changed", "s", one, note=f"{target}.py (shortest stored run)"),
            Figure("capture, one example changed: examples run", "", one_runs, ("==", 1))]


# ---------------------------------------------------------------- 3. capture overhead


def overhead_subset(count: int, examples_dir: Path = EXAMPLES_DIR) -> list[str]:
    """``count`` examples (0: all) without a declared raising cell, spread evenly over stored run times."""
    durations = stored_durations(examples_dir)
    plain = []
    for path in discover_examples(examples_dir):
        ex = parse_example(path, examples_dir)
        if not ex.needs_cuda and not any(c.raises for c in ex.cells):
            plain.append((durations.get(ex.rel[:-3], 0.0), ex.rel))
    plain.sort()
    if count == 1:
        plain = [plain[len(plain) // 2]]
    elif 1 < count < len(plain):
        plain = [plain[round(i * (len(plain) - 1) / (count - 1))] for i in range(count)]
    return [rel for _, rel in plain]


def course_capture_time(examples_dir: Path = EXAMPLES_DIR) -> list[Figure]:
    """The whole course on the CPU, from the committed records (no run): the sum of every example's
    stored run time (``provenance.duration_s``), target under 25 minutes (issue 41, which grew the course by
    ten chapters; 20 minutes before, issue 31), and the slowest example, target at most 60 s. The records'
    times are those of the machine that captured them."""
    durations = stored_durations(examples_dir)
    if not durations:
        return []
    slowest = max(durations, key=durations.get)
    return [Figure("CPU capture time of all examples (records)", "s", [sum(durations.values())], ("<", 1500.0),
                   note=f"{len(durations)} examples, serial"),
            Figure("slowest example on the CPU (records)", "s", [durations[slowest]], ("<=", 60.0), note=slowest)]


def bench_capture(tmp: Path, repeat: int, count: int) -> list[Figure]:
    """Capture with ``-j 1`` and ``-j 2`` against the sum of one-cell runs of the same examples (each file as
    a script, ``execute.script.run_script``: the same runner and sandbox, no cells, no store); then the whole
    course's CPU capture time from the records (``course_capture_time``)."""
    root = copy_repo(tmp / "capture-repo")
    env = bench_env(tmp)
    subset = overhead_subset(count, root / "examples")
    paths = [f"examples/{rel}" for rel in subset]
    bare, j1, j2 = [], [], []
    for _ in range(repeat):
        bare.append(sum(_script_seconds(root / p) for p in paths))
        j1.append(timed([sys.executable, "scripts/capture.py", "--force", "-j", "1", *paths], root, env)[0])
        j2.append(timed([sys.executable, "scripts/capture.py", "--force", "-j", "2", *paths], root, env)[0])
    what = f"{len(subset)} examples" + (" (all without a raising cell)" if count == 0 else ", a subset")
    f_bare = Figure("one sandboxed run per example (run_script), summed", "s", bare, note=what)
    f_j1 = Figure("capture --force -j 1", "s", j1, note=what)
    f_j2 = Figure("capture --force -j 2", "s", j2, note=what)
    return [f_bare, f_j1, f_j2, ratio("capture overhead (-j 1 / one run each)", f_j1, f_bare, ("<=", 1.2)),
            ratio("parallel speed-up (-j 1 / -j 2)", f_j1, f_j2), *bench_sandbox(root, subset, repeat),
            *course_capture_time()]


def _script_seconds(path: Path) -> float:
    """Wall seconds of ``run_script(path)``; raises BenchError when it does not run to its end."""
    t0 = time.perf_counter()
    done = run_script(path, timeout_s=600)
    if not done.ok:
        raise BenchError(f"{path} ({done.isolation}): {done.status}: {done.message[:500]}")
    return time.perf_counter() - t0


def bench_sandbox(root: Path, subset: list[str], repeat: int) -> list[Figure]:
    """What bubblewrap adds to one example's run: each example of ``subset`` run ``repeat`` times (at
    least 2) in each mode, alternating, and its process time (``RunResult.wall_s``, spawn to exit; the
    fallback's repository check is outside it) compared. Target (issue 26): under 0.3 s per example,
    or under 15 % of the example's time, whichever is larger. Empty when bubblewrap cannot start here."""
    from pytorch_notes.execute.sandbox import bwrap_status  # noqa: PLC0415

    if bwrap_status()[0] is None:
        return []
    modes = {"bwrap": Supervisor(root, mode="bwrap"), "supervised": Supervisor(root, mode="supervised")}
    extra, plain_walls = [], []
    for rel in subset:
        ex = parse_example(root / "examples" / rel, root / "examples")
        walls: dict[str, list[float]] = {name: [] for name in modes}
        for _ in range(max(repeat, 2)):
            for name, runs in modes.items():
                result = runs.run(ex)
                if not result.ok:
                    raise BenchError(f"{rel} failed under {name}: {result.message}")
                walls[name].append(result.wall_s)
        boxed, plain = statistics.median(walls["bwrap"]), statistics.median(walls["supervised"])
        extra.append(boxed - plain)
        plain_walls.append(plain)
    allowed = max(0.3, 0.15 * statistics.median(plain_walls))
    note = f"{modes['bwrap'].isolation}, {len(subset)} examples x {max(repeat, 2)} runs; target max(0.3 s, 15 %)"
    return [Figure("sandbox overhead per example (bwrap - supervised)", "s", extra, ("<", allowed), note),
            Figure("example run, supervised (for the 15 %)", "s", plain_walls)]
