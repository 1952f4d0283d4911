"""Stage 2, execute (parent side): what a run was, decided from evidence the example cannot choose.

Standard library only. The runner shares its process with the example, so its report (``runner.py``:
JSON lines on the results channel) is read as untrusted: every line is checked for shape, the number
and order of the cells against the parsed example, each cell's success against its outputs and its
``raises=`` option, and the whole against the exit status the kernel gave. Any disagreement fails the
run. A process that died is described from what the kernel and ``faulthandler`` say: the signal in
words, and the line that was running (the fatal-signal dump, the ``os._exit`` report, or the sampled
position for a ``SIGKILL``).
"""

from __future__ import annotations

import json
import re
import signal
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from pytorch_notes.execute import limits
from pytorch_notes.parse import Example

REPORT_BYTES = 4 * (limits.RECORD_TEXT * 4 + limits.RECORD_FIGURE_BYTES * 2)  # more is not read
CRASH_OUTPUT = 1_200  # characters of a dead cell's last output kept in the failure message
SIGNAL_WORDS = {
    signal.SIGSEGV: "segmentation fault", signal.SIGABRT: "aborted", signal.SIGBUS: "bus error",
    signal.SIGFPE: "floating-point exception", signal.SIGILL: "illegal instruction",
    signal.SIGKILL: "killed; the kernel's out-of-memory killer does this when memory runs out",
    signal.SIGTERM: "terminated", signal.SIGINT: "interrupted", signal.SIGHUP: "hung up",
    signal.SIGPIPE: "broken pipe", signal.SIGXFSZ: "file size limit exceeded",
    signal.SIGXCPU: "CPU time limit exceeded",
}
_FRAME = re.compile(r'^\s*File "(?P<file>.*)", line (?P<line>\d+)', re.MULTILINE)
_FATAL = re.compile(r"^Fatal Python error: (?P<what>[^\n]+)", re.MULTILINE)


@dataclass
class Report:
    """The runner's report as read: well-formed records only, and what was wrong with the rest.

    Attributes:
        cells: ``{"index", "line", "ok", "duration_s", "outputs"}`` per finished cell, in order.
        starts: cell index -> ``[stdout offset, stderr offset]`` where its output begins.
        end: the ``end`` record, None when the runner never got there.
        exit: the ``exit`` record (``os._exit`` called by the example), None if none.
        problems: one line per malformed or out-of-place record.
    """

    cells: list[dict] = field(default_factory=list)
    starts: dict[int, list[int]] = field(default_factory=dict)
    end: dict | None = None
    exit: dict | None = None
    problems: list[str] = field(default_factory=list)


def _is_int(v, low: int = 0, high: int = 10_000_000) -> bool:
    """An int (not a bool) in ``[low, high)``: indexes, lines, statuses and offsets of a real run."""
    return isinstance(v, int) and not isinstance(v, bool) and low <= v < high


def _is_seconds(v) -> bool:
    """A finite, non-negative duration in seconds below a day."""
    return isinstance(v, int | float) and not isinstance(v, bool) and 0 <= v < 86_400


def _cell_problem(rec: dict) -> str:
    if not (_is_int(rec.get("index")) and _is_int(rec.get("line"), 1) and isinstance(rec.get("ok"), bool)):
        return "a cell record without an integer index and line and a boolean ok"
    if not _is_seconds(rec.get("duration_s")):
        return "a cell record without a duration in seconds"
    if not isinstance(rec.get("outputs"), list) or not all(isinstance(o, dict) for o in rec["outputs"]):
        return "a cell record whose outputs are not a list of objects"
    return ""


def read_report(path: Path) -> Report:
    """Parse the results channel at ``path`` (at most ``REPORT_BYTES``). Never raises for its content."""
    report = Report()
    try:
        with open(path, "rb") as f:
            raw = f.read(REPORT_BYTES + 1)
    except OSError:
        return report
    if len(raw) > REPORT_BYTES:
        report.problems.append(f"the report is larger than {REPORT_BYTES:,} bytes")
        raw = raw[:REPORT_BYTES]
    lines = raw.decode("utf-8", errors="replace").split("\n")
    for n, line in enumerate(lines, start=1):
        if not line:
            continue
        try:
            rec = json.loads(line)
        except (ValueError, RecursionError):  # RecursionError: arrays nested thousands deep
            if n < len(lines) - 1 or report.end is not None:  # only the very last line may be cut by a kill
                report.problems.append(f"line {n} of the report is not JSON")
            continue
        kind = rec.get("kind") if isinstance(rec, dict) else None
        if report.end is not None and kind is not None:
            report.problems.append(f"line {n}: a {kind!r} record after the end")
        elif kind == "start" and _is_int(rec.get("index")) and isinstance(rec.get("offsets"), list) \
                and len(rec["offsets"]) == 2 and all(_is_int(o, 0, 1 << 62) for o in rec["offsets"]):
            report.starts[rec["index"]] = rec["offsets"]
        elif kind == "cell" and not (why := _cell_problem(rec)):
            report.cells.append(rec)
        elif kind == "exit" and _is_int(rec.get("status"), -(1 << 31), 1 << 31) and _is_int(rec.get("line")):
            report.exit = report.exit or rec
        elif kind == "end" and isinstance(rec.get("ok"), bool) and _is_seconds(rec.get("duration_s")):
            report.end = rec
        else:
            report.problems.append(f"line {n}: " + (why if kind == "cell" else "an unknown or malformed record"))
    return report


def cell_ok(raises: str | None, outputs: list[dict]) -> bool:
    """Whether a cell went as declared, judged from its outputs: no unexpected error, and an expected
    one exactly when the cell declares ``raises=``."""
    errors = [o for o in outputs if o.get("type") == "error"]
    if any(o.get("expected") is not True for o in errors):
        return False
    return bool(errors) if raises else not errors


def consistency_problems(report: Report, cells: list[tuple[int, int, str | None]], returncode: int | None,
                         device_kind: str) -> list[str]:
    """Where the report disagrees with the example and the kernel. ``cells`` is ``(index, line, raises)``
    of the example's cells in order; ``returncode`` the runner's exit status (0 for success)."""
    problems = list(report.problems)
    for got, want in zip(report.cells, cells, strict=False):
        if (got["index"], got["line"]) != want[:2]:
            problems.append(f"cell {got['index'] + 1} reported as line {got['line']}, expected cell "
                            f"{want[0] + 1} at line {want[1]}")
            break
        if got["ok"] != cell_ok(want[2], got["outputs"]):
            problems.append(f"cell {want[0] + 1} reported {'success' if got['ok'] else 'failure'}, which its "
                            f"outputs contradict")
    if len(report.cells) > len(cells):
        problems.append(f"{len(report.cells)} cells reported for an example of {len(cells)}")
    if report.end is not None:
        all_ran = len(report.cells) == len(cells) and all(c["ok"] for c in report.cells)
        if report.end["ok"] != all_ran:
            problems.append(f"the end record says ok={report.end['ok']} after {len(report.cells)} of {len(cells)} "
                            f"cells")
        if report.end["ok"] and returncode != 0:
            problems.append(f"the runner reported success but exited with status {returncode}")
        seen = report.end.get("cuda_available")
        if isinstance(seen, bool) and seen != (device_kind == "cuda"):
            problems.append(f"the capture runs on {device_kind}, but torch in the example's process "
                            f"{'saw' if seen else 'did not see'} a GPU")
    return problems


def death_signal(returncode: int | None, sandboxed: bool) -> int | None:
    """The signal that ended the runner: a negative status from ``subprocess``, or, through bubblewrap
    (which exits with 128 + the signal of its child), a status above 128."""
    if returncode is None:
        return None
    if returncode < 0:
        return -returncode
    if sandboxed and 128 < returncode < 128 + 65:
        return returncode - 128
    return None


def signal_words(sig: int) -> str:
    """``SIGSEGV (segmentation fault)``: a signal's name and what it means."""
    try:
        name = signal.Signals(sig).name
    except ValueError:
        return f"signal {sig}"
    words = SIGNAL_WORDS.get(sig)
    return f"{name} ({words})" if words else name


def fatal_error(dump: str) -> str:
    """What ``faulthandler`` said a fatal error was (``Segmentation fault``), or "" when it said nothing."""
    m = _FATAL.search(dump)
    return m["what"].strip() if m else ""


def stack_line(dump: str, example_path: str) -> int:
    """The line of ``example_path`` the main thread was on in a ``faulthandler`` dump (0 if none).

    The dump lists each thread's frames, most recent call first, at most 100 per thread: in a deep
    recursion the runner's own frames are cut off. The main thread is the one whose stack goes through
    ``runner.py`` (else the first with a frame in the example); its most recent frame in the example
    file is the line.
    """
    best = 0
    for block in re.split(r"\n(?=\S)", dump):
        frames = [(m["file"], int(m["line"])) for m in _FRAME.finditer(block)]
        mine = [line for f, line in frames if f == example_path]
        if not mine:
            continue
        if any(f.endswith("runner.py") for f, _ in frames):
            return mine[0]
        best = best or mine[0]
    return best


def read_position(path: Path) -> tuple[int, int] | None:
    """(cell index, line) from the position channel, or None when it holds nothing sensible."""
    try:
        with open(path, "rb") as f:  # the example could write gigabytes into it: the first 64 bytes only
            parts = f.read(64).decode("ascii", errors="replace").split()
        found = (int(parts[0]), int(parts[1])) if len(parts) >= 2 else None
    except (OSError, ValueError):
        return None
    return found if found and 0 <= found[0] < 1_000_000 and 0 < found[1] < 10_000_000 else None


def output_since(paths: tuple[Path, Path], offsets: list[int] | None, limit: int) -> str:
    """What the process wrote to stdout and stderr from ``offsets`` on (a cell's start), the last ``limit``
    characters of each, for the report of a process that died in the middle of a cell."""
    parts = []
    for path, offset in zip(paths, offsets or [0, 0], strict=True):
        try:
            with open(path, "rb") as f:
                size = f.seek(0, 2)
                f.seek(max(offset, size - 4 * limit))
                text = f.read().decode("utf-8", errors="replace")
        except OSError:
            continue
        if text.strip():
            parts.append(text[-limit:])
    return "".join(parts)


@dataclass(frozen=True)
class Evidence:
    """What the capture knows about a finished process, none of it chosen by the example alone.

    Attributes:
        report: the runner's report as read (``read_report``), checked against the rest.
        returncode: the exit status ``subprocess`` gave (bubblewrap's, when sandboxed).
        sandboxed: whether bubblewrap ran it (its status is 128 + the signal of a killed child).
        device_kind: the supervisor's device kind.
        position: (cell, line) the line sampler saw last, or None.
        dump: the end of the ``faulthandler`` dumps (fatal signal, or the timeout's SIGUSR2).
        streams: the files behind the process's stdout and stderr.
        scrub: rewrites this machine's paths in text (``paths.PathScrubber.text``).
    """

    report: Report
    returncode: int | None
    sandboxed: bool
    device_kind: str
    position: tuple[int, int] | None
    dump: str
    streams: tuple[Path, Path]
    scrub: Callable[[str], str]


@dataclass(frozen=True)
class Verdict:
    """``status`` (``ok``, ``failed``, ``timeout``, ``crashed``, ``cancelled``), the example's ``line`` where
    it went wrong (0 when ok) and the ``message`` (empty when ok)."""

    status: str
    line: int = 0
    message: str = ""


def _error_line(err: dict) -> int:
    return err.get("line") if _is_int(err.get("line")) and err.get("line") > 0 else 0


def judge(example: Example, ev: Evidence, cancelled: bool, timed_out: bool, limit: float) -> Verdict:
    """What a run was, from ``ev``: cancelled, timed out (at the line that was running), a report that
    cannot be trusted, a cell that failed, a process that died (the signal in words, the line, and its
    last output), or ok."""
    report, cells = ev.report, example.cells
    nxt = cells[min(len(report.cells), len(cells) - 1)]  # the cell that was running, if any
    sampled = ev.position[1] if ev.position and ev.position[0] == nxt.index else 0
    if cancelled:
        return Verdict("cancelled", nxt.line, f"cancelled (Ctrl-C) in cell {nxt.index + 1}")
    if timed_out:
        interrupted = report.cells[-1] if report.cells and not report.cells[-1]["ok"] else None
        cell = cells[interrupted["index"]] if interrupted and interrupted["index"] < len(cells) else nxt
        err = next((o for o in interrupted["outputs"] if o.get("type") == "error"), {}) if interrupted else {}
        line = _error_line(err) or stack_line(ev.dump, str(example.path)) or sampled or cell.line
        return Verdict("timeout", line, f"timed out after {limit:g} s in cell {cell.index + 1} (line {line}); "
                                        "raise `timeout` in the `# /// example` header if it needs longer")
    problems = consistency_problems(report, [(c.index, c.line, c.raises) for c in cells], ev.returncode,
                                    ev.device_kind)
    if problems:
        return Verdict("failed", nxt.line, "the run's report cannot be trusted: " + "; ".join(problems[:5]))
    failed = next((c for c in report.cells if not c["ok"]), None)
    if failed:
        err = next((o for o in failed["outputs"] if o.get("type") == "error"), {})
        return Verdict("failed", _error_line(err) or failed["line"],
                       f"{err.get('ename', 'Error')}: {err.get('evalue', '')}".strip())
    if report.end is not None and ev.returncode == 0:
        return Verdict("ok")
    line, what = _death(ev, str(example.path), sampled or nxt.line)
    said = ev.scrub(output_since(ev.streams, report.starts.get(nxt.index), CRASH_OUTPUT)).strip("\n")
    tail = "\n".join("    " + ln for ln in said.splitlines()[-12:])
    return Verdict("crashed", line, f"{what} in cell {nxt.index + 1} (line {line})" +
                   (f"; its last output:\n{tail}" if said else "; it printed nothing"))


def _death(ev: Evidence, path: str, fallback_line: int) -> tuple[int, str]:
    """(line, what happened) for a process that ended without finishing."""
    if ev.report.exit is not None:
        return ev.report.exit["line"] or fallback_line, f"the example called os._exit({ev.report.exit['status']})"
    line = stack_line(ev.dump, path) or fallback_line
    sig = death_signal(ev.returncode, ev.sandboxed)
    if sig is not None:
        return line, f"the process was killed by {signal_words(sig)}"
    if fatal := fatal_error(ev.dump):
        return line, f"the process died: {fatal}"
    return line, f"the process exited with status {ev.returncode} before the end"
