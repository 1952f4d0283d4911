"""Stage 2b, execute (parent side): run an example in a fresh process with a timeout.

Standard library only. The child is ``runner.py``, run by path with the example's cells in a
spec file, so it never imports this package. Everything of one run lives in a temporary
``pn-run-*`` directory, removed afterwards: the spec, the results (one JSON line per cell, so a
run that hangs or crashes still tells which cell it reached), the two files the child's file
descriptors 1 and 2 write to (no pipe: a descendant that outlives the example cannot hold up
the capture), the stack dump, the example's scratch working directory ``work/`` and its
``TMPDIR`` ``tmp/``.

The timeout bounds the example with all its descendants: the runner adopts orphans
(``proctree``), and on a timeout, a crash or ``cancel_all`` this side kills the whole tree;
every wait is bounded.
"""

from __future__ import annotations

import functools
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from pytorch_notes.execute.paths import REPO_ROOT, PathScrubber
from pytorch_notes.execute.proctree import is_alive, kill_tree
from pytorch_notes.execute.provenance import device
from pytorch_notes.parse import Example
from pytorch_notes.settings import display_path

RUNNER = Path(__file__).resolve().parent / "runner.py"

# Environment that makes runs reproducible and non-interactive.
CHILD_ENV = {
    "MPLBACKEND": "Agg",
    "PYTHONHASHSEED": "0",
    "PYTHONUNBUFFERED": "1",
    "PYTHONIOENCODING": "utf-8",
    "TQDM_DISABLE": "1",
}


@dataclass
class CellResult:
    """Outputs of one executed cell (see runner.py for the record types)."""

    index: int
    line: int
    ok: bool
    duration_s: float
    outputs: list = field(default_factory=list)


@dataclass
class RunResult:
    """What one run of an example produced.

    Attributes:
        status: ``"ok"``, ``"failed"`` (a cell raised unexpectedly), ``"timeout"``,
            ``"crashed"`` (the process died without finishing, e.g. a segfault) or
            ``"cancelled"`` (``cancel_all``, e.g. on Ctrl-C).
        cells: results of the cells that ran, in order.
        duration_s: seconds from the first cell to the end, as measured by the child
            (wall time of the process when it did not finish).
        wall_s: wall-clock seconds of the whole process, start-up included.
        captured_at: UTC ISO-8601 timestamp when the run ended.
        provenance: device, driver and versions, see ``provenance.provenance``.
        error_line: line in the example where it failed (0 if unknown).
        message: one-line description of a failure, empty when ok.
        process_output: the child's raw stdout then stderr, machine paths rewritten, at most
            the last ``PROCESS_OUTPUT_TAIL`` bytes of each (only interesting when it crashed).
    """

    example: Example
    status: str
    cells: list[CellResult]
    duration_s: float
    wall_s: float
    captured_at: str = ""
    provenance: dict = field(default_factory=dict)
    error_line: int = 0
    message: str = ""
    process_output: str = ""

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    def location(self) -> str:
        """``examples/x/y.py:LINE`` of the failure (line of the cell when unknown)."""
        return f"{display_path(self.example.path)}:{self.error_line or 1}"


GRACE_S = 2.0  # after the timeout's SIGINT, seconds the runner gets to record the line it was on
WAIT_S = 5.0  # bound on every other wait for a killed process
PROCESS_OUTPUT_TAIL = 65_536  # bytes of the child's raw stdout and of its stderr kept for crash messages
_STACK_FRAME = re.compile(r'^\s*File "(?P<file>.*)", line (?P<line>\d+)', re.MULTILINE)


def _read_results(path: Path) -> tuple[list[CellResult], dict | None]:
    cells, end = [], None
    if not path.exists():
        return cells, end
    for raw in path.read_text(encoding="utf-8", errors="replace").splitlines():
        try:
            rec = json.loads(raw)
        except json.JSONDecodeError:
            break  # a line cut short by a kill
        if rec.get("kind") == "cell":
            cells.append(CellResult(rec["index"], rec["line"], rec["ok"], rec["duration_s"], rec["outputs"]))
        elif rec.get("kind") == "end":
            end = rec
    return cells, end


class _Run:
    """A child in progress, as ``cancel_all`` sees it."""

    def __init__(self, proc: subprocess.Popen):
        self.proc, self.cancelled = proc, False

    def kill(self) -> None:
        """Kill the runner's whole tree while the runner is unreaped (so its pid is still its own)."""
        if self.proc.returncode is None:
            kill_tree(self.proc.pid, session=self.proc.pid, include_root=True)


_lock = threading.Lock()
_active: set[_Run] = set()
_swept = False  # stale run directories are swept once per process
_generation = 0  # bumped by cancel_all: a run that started before it and registers after it is cancelled too


def cancel_all() -> None:
    """Kill every example run in progress, with all its descendants (e.g. on Ctrl-C).

    Safe to call from any thread; returns at once after the kills. Each ``run_example`` call that
    was running returns promptly with status ``"cancelled"`` and removes its temporary files.
    Calls of ``run_example`` that start afterwards run normally.
    """
    global _generation
    with _lock:
        _generation += 1
        runs = list(_active)
        for run in runs:
            run.cancelled = True
    for run in runs:
        run.kill()


@functools.cache
def host_device() -> dict | None:
    """``provenance.device()`` of this process, found once (it imports torch: ~1.8 s): the device a
    child running this interpreter reports. None when torch is not installed."""
    return device()


def _same_interpreter(python: str | None) -> bool:
    return python is None or os.path.realpath(python) == os.path.realpath(sys.executable)


def _child_env(tmpdir: Path) -> dict:
    """The parent's environment plus ``CHILD_ENV`` and ``TMPDIR``, without this package on PYTHONPATH."""
    env = {**os.environ, **CHILD_ENV, "TMPDIR": str(tmpdir)}
    package_root = RUNNER.parents[2]
    kept = [p for p in env.get("PYTHONPATH", "").split(os.pathsep)
            if p and Path(p).resolve() != package_root]
    if kept:
        env["PYTHONPATH"] = os.pathsep.join(kept)
    else:
        env.pop("PYTHONPATH", None)
    return env


def _tail(path: Path) -> str:
    try:
        with open(path, "rb") as f:
            f.seek(max(0, os.fstat(f.fileno()).st_size - PROCESS_OUTPUT_TAIL))
            return f.read().decode("utf-8", errors="replace")
    except OSError:
        return ""


def stack_line(dump: str, example_path: str) -> int:
    """The line of ``example_path`` the main thread was on in a ``faulthandler`` dump (0 if none).

    The dump lists each thread's frames, most recent call first; the main thread is the one
    whose stack goes through ``runner.py``.
    """
    for block in re.split(r"\n(?=\S)", dump):
        frames = [(m["file"], int(m["line"])) for m in _STACK_FRAME.finditer(block)]
        if any(f.endswith("runner.py") for f, _ in frames):
            return next((line for f, line in frames if f == example_path), 0)
    return 0


def _interrupt(proc: subprocess.Popen, stack: Path) -> None:
    """On a timeout: dump the stacks (SIGUSR2), then interrupt the cell (SIGINT) and give the
    runner ``GRACE_S`` to record the traceback of the line it was on."""
    for sig, wait in ((signal.SIGUSR2, 0.5), (signal.SIGINT, GRACE_S)):
        try:
            proc.send_signal(sig)
        except ProcessLookupError:
            return
        if sig == signal.SIGUSR2:
            end = time.monotonic() + wait
            while time.monotonic() < end and (not stack.exists() or stack.stat().st_size == 0):
                time.sleep(0.01)
            continue
        try:
            proc.wait(timeout=wait)
        except subprocess.TimeoutExpired:
            pass


def _owner() -> str:
    """This process as the owner of a run directory: its pid and its pid namespace (Linux), so that
    a machine whose ``/tmp`` is shared by containers never sweeps another container's runs."""
    try:
        namespace = os.readlink("/proc/self/ns/pid")
    except OSError:
        namespace = "-"
    return f"{os.getpid()} {namespace}"


def _sweep_stale_run_dirs() -> None:
    """Remove the ``pn-run-*`` directories whose capture was killed (SIGKILL, a power cut): each
    names its owner in ``owner.pid`` (``_owner``); one whose owner is gone is left over."""
    namespace = _owner().split(" ", 1)[1]
    for old in Path(tempfile.gettempdir()).glob("pn-run-*"):
        try:
            pid, owner_namespace = (old / "owner.pid").read_text().split(" ", 1)
            pid = int(pid)
        except (OSError, ValueError):
            continue  # not ours, or still being created
        if owner_namespace == namespace and pid != os.getpid() and not is_alive(pid):
            _remove(old)


def _remove(tmp: Path) -> None:
    for _ in range(3):  # a process killed a moment ago may still drop a file
        shutil.rmtree(tmp, ignore_errors=True)
        if not tmp.exists():
            return
        time.sleep(0.05)


def run_example(example: Example, python: str | None = None, timeout_s: float | None = None) -> RunResult:
    """Run ``example`` in a fresh interpreter and collect per-cell outputs.

    Args:
        example: the parsed example.
        python: interpreter to use (default: the current one).
        timeout_s: override of ``example.timeout_s``, seconds; bounds the example with every
            process it starts.

    Returns:
        A :class:`RunResult`; this function does not raise for failures of the example.
    """
    limit = example.timeout_s if timeout_s is None else timeout_s
    with _lock:
        generation = _generation
    global _swept
    if not _swept:
        _swept = True
        _sweep_stale_run_dirs()
    tmp = Path(tempfile.mkdtemp(prefix="pn-run-"))
    (tmp / "owner.pid").write_text(_owner())
    try:
        return _run(example, python, limit, tmp, generation)
    finally:
        _remove(tmp)


def _run(example: Example, python: str | None, limit: float, tmp: Path, generation: int) -> RunResult:
    work, tmpdir = tmp / "work", tmp / "tmp"
    work.mkdir()
    tmpdir.mkdir()
    names = {k: str(tmp / k) for k in ("results", "stdout", "stderr", "stack")}
    spec = {"path": str(example.path), "root": str(REPO_ROOT), "scratch": str(work), "tmpdir": str(tmpdir),
            **names, "cells": [{"index": c.index, "line": c.line, "source": c.source, "metadata": c.metadata}
                               for c in example.cells],
            # the device an example that never imports torch reports, so its runner need not import it
            "host": host_device() if _same_interpreter(python) else None}
    (tmp / "spec.json").write_text(json.dumps(spec, ensure_ascii=False), encoding="utf-8")
    cmd = [python or sys.executable, str(RUNNER), str(tmp / "spec.json")]
    t0 = time.perf_counter()
    with open(names["stdout"], "ab") as out, open(names["stderr"], "ab") as err:
        # A new session: the runner leads it, and a straggler of the example is found by its session id.
        proc = subprocess.Popen(cmd, cwd=work, env=_child_env(tmpdir), start_new_session=True,
                                stdin=subprocess.DEVNULL, stdout=out, stderr=err)
    run = _Run(proc)
    with _lock:
        _active.add(run)
        run.cancelled = _generation != generation
    timed_out = False
    try:
        if run.cancelled:
            run.kill()
        proc.wait(timeout=limit)
    except subprocess.TimeoutExpired:
        timed_out = not run.cancelled
        if timed_out:
            _interrupt(proc, tmp / "stack")
    finally:
        run.kill()
        try:
            proc.wait(timeout=WAIT_S)
        except subprocess.TimeoutExpired:
            pass  # stuck in the kernel (uninterruptible sleep): give up on it rather than hang
        kill_tree(-1, session=proc.pid, deadline_s=1.0)  # stragglers that left the tree before the runner died
        with _lock:
            _active.discard(run)
    wall = time.perf_counter() - t0
    cells, end = _read_results(Path(names["results"]))
    scrub = PathScrubber(str(work), str(tmpdir), REPO_ROOT)
    process_output = scrub.text(_tail(Path(names["stdout"])) + _tail(Path(names["stderr"])))
    stack = _tail(tmp / "stack") if timed_out else ""
    return _result(example, run.cancelled, timed_out, limit, proc.returncode, cells, end, wall, process_output,
                   stack)


def _result(example: Example, cancelled: bool, timed_out: bool, limit: float, returncode: int | None,
            cells: list[CellResult], end: dict | None, wall: float, process_output: str, stack: str) -> RunResult:
    result = RunResult(example, "ok", cells, end["duration_s"] if end else round(wall, 4), round(wall, 4),
                       process_output=process_output)
    if end:
        result.captured_at, result.provenance = end["captured_at"], end["provenance"]
    nxt = example.cells[min(len(cells), len(example.cells) - 1)]  # the cell that was running, if any
    if cancelled:
        result.status, result.error_line = "cancelled", nxt.line
        result.message = f"cancelled (Ctrl-C) in cell {nxt.index + 1}"
        return result
    if timed_out:
        interrupted = cells[-1] if cells and not cells[-1].ok else None
        cell = example.cells[interrupted.index] if interrupted else nxt
        err = next((o for o in interrupted.outputs if o["type"] == "error"), {}) if interrupted else {}
        line = err.get("line") or stack_line(stack, str(example.path)) or cell.line
        result.status, result.error_line = "timeout", line
        result.message = f"timed out after {limit:g} s in cell {cell.index + 1} (line {line}); " \
                         "raise `timeout` in the `# /// example` header if it needs longer"
        return result
    failed = next((c for c in cells if not c.ok), None)
    if failed:
        err = next((o for o in failed.outputs if o["type"] == "error"), {})
        result.status, result.error_line = "failed", err.get("line") or failed.line
        result.message = f"{err.get('ename', 'Error')}: {err.get('evalue', '')}".strip()
        return result
    if end is None or returncode != 0:
        result.status, result.error_line = "crashed", nxt.line
        tail = process_output.strip().splitlines()[-1:] or ["no output"]
        result.message = f"process exited with status {returncode} in cell {nxt.index + 1}: {tail[0]}"
    return result
