"""Stage 2b, execute (parent side): run an example in a fresh process with a timeout.

Standard library only. The child is ``runner.py``; it streams one JSON line per cell to a
temporary file, so a run that hangs or crashes still tells which cell it reached.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

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
        status: ``"ok"``, ``"failed"`` (a cell raised unexpectedly), ``"timeout"`` or
            ``"crashed"`` (the process died without finishing, e.g. a segfault).
        cells: results of the cells that ran, in order.
        duration_s: seconds from the first cell to the end, as measured by the child
            (wall time of the process when it did not finish).
        wall_s: wall-clock seconds of the whole process, start-up included.
        captured_at: UTC ISO-8601 timestamp when the run ended.
        provenance: device and versions, see ``runner.provenance``.
        error_line: line in the example where it failed (0 if unknown).
        message: one-line description of a failure, empty when ok.
        process_output: the child's raw stdout/stderr (only interesting when it crashed).
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


def _kill_group(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def run_example(example: Example, python: str | None = None, timeout_s: float | None = None) -> RunResult:
    """Run ``example`` in a fresh interpreter and collect per-cell outputs.

    Args:
        example: the parsed example.
        python: interpreter to use (default: the current one).
        timeout_s: override of ``example.timeout_s``, seconds.

    Returns:
        A :class:`RunResult`; this function does not raise for failures of the example.
    """
    limit = example.timeout_s if timeout_s is None else timeout_s
    env = {**os.environ, **CHILD_ENV, "PYTHONPATH": str(RUNNER.parents[2])}
    with tempfile.TemporaryDirectory(prefix="pn-run-") as tmp:
        results = Path(tmp) / "results.jsonl"
        cmd = [python or sys.executable, str(RUNNER), str(example.path), str(results)]
        t0 = time.perf_counter()
        # A new session, so that a timeout kills the example's own children too.
        proc = subprocess.Popen(cmd, cwd=Path(example.path).parents[2], env=env, start_new_session=True,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        timed_out = False
        try:
            raw, _ = proc.communicate(timeout=limit)
        except subprocess.TimeoutExpired:
            timed_out = True
            # Interrupt first: the runner records a traceback naming the line it was on.
            try:
                os.killpg(proc.pid, signal.SIGINT)
                raw, _ = proc.communicate(timeout=3)
            except (subprocess.TimeoutExpired, ProcessLookupError):
                _kill_group(proc)
                raw, _ = proc.communicate()
        finally:
            if proc.poll() is None:
                _kill_group(proc)
        wall = time.perf_counter() - t0
        cells, end = _read_results(results)

    process_output = raw.decode("utf-8", errors="replace")
    result = RunResult(example, "ok", cells, end["duration_s"] if end else round(wall, 4), round(wall, 4),
                       process_output=process_output)
    if end:
        result.captured_at, result.provenance = end["captured_at"], end["provenance"]
    if timed_out:
        interrupted = cells[-1] if cells and not cells[-1].ok else None
        if interrupted:
            cell = example.cells[interrupted.index]
            err = next((o for o in interrupted.outputs if o["type"] == "error"), {})
            line = err.get("line") or cell.line
        else:
            cell = example.cells[min(len(cells), len(example.cells) - 1)]
            line = cell.line
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
    if end is None or proc.returncode != 0:
        nxt = len(cells)
        cell = example.cells[min(nxt, len(example.cells) - 1)]
        result.status, result.error_line = "crashed", cell.line
        tail = process_output.strip().splitlines()[-1:] or ["no output"]
        result.message = f"process exited with status {proc.returncode} in cell {cell.index + 1}: {tail[0]}"
    return result
