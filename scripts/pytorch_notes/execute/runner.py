"""Stage 2a, execute (child side): run one example cell by cell and record what each cell shows.

Run as ``python scripts/runner.py EXAMPLE.py RESULTS.jsonl``, always in a fresh process
started by ``execute.run_example``. Standard library only (plus the example's own imports),
so it runs on a GPU machine without Jupyter.

Each cell is compiled under the example's real path with its real line numbers, so a
traceback points at ``examples/<chapter>/<name>.py:<line>``; stored tracebacks show paths
without this machine's directories (``frame_path``). After every cell one JSON
line is appended to RESULTS (and flushed), so the parent knows how far a run got if the
child hangs or dies. The last line is ``{"kind": "end", ...}`` with the provenance.

Output records (``outputs`` of a cell), in the order the cell produced them:
  * ``{"type": "stream", "name": "stdout"|"stderr", "text": str}``
  * ``{"type": "display", "data": {"text/plain": str, "text/html"?: str}}``: value of a
    trailing bare expression, as Jupyter shows it.
  * ``{"type": "image", "mime": "image/png", "data": base64 str, "width": px, "height": px}``
  * ``{"type": "error", "ename": str, "evalue": str, "traceback": str, "line": int,
    "expected": bool}``
"""

from __future__ import annotations

import ast
import base64
import codecs
import io
import json
import os
import platform
import sys
import time
import traceback
from datetime import UTC, datetime
from pathlib import Path

from pytorch_notes.parse import Cell, parse_example

MAX_CELL_TEXT = 100_000  # characters of stdout + stderr kept per cell; the rest is counted, not stored


def valid_text(text: str) -> str:
    """``text`` as valid Unicode: each lone surrogate (how Python carries undecodable bytes,
    e.g. ``surrogateescape``) becomes U+FFFD, so the store is always valid UTF-8 JSON."""
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        return "".join("\ufffd" if 0xD800 <= ord(ch) <= 0xDFFF else ch for ch in text)


def collapse_carriage_returns(tail: str) -> str:
    """Collapse carriage-return rewrites (progress bars) in ``tail``, the text after the last
    newline that was already collapsed, to what a terminal would show.

    A complete line keeps its last non-empty ``\r`` segment; the unfinished last line keeps
    its last segment plus a trailing ``\r`` if it ends with one, so later writes still
    overwrite it. ``render.clean_text`` reuses it at display time.
    """
    lines = tail.split("\n")
    for i, line in enumerate(lines):
        if "\r" in line:
            parts = [p for p in line.split("\r") if p]
            keep = parts[-1] if parts else ""
            lines[i] = keep + ("\r" if i == len(lines) - 1 and line.endswith("\r") else "")
    return "\n".join(lines)


class _Budget:
    """Characters of text a cell may still store, and how many were dropped past the limit."""

    def __init__(self, limit: int):
        self.left, self.dropped = limit, 0


class _Capture(io.TextIOBase):
    """A text stream that appends to the current cell's output list, merging runs.

    Text is made valid UTF-8, progress-bar rewrites are collapsed as they arrive, and at most
    ``MAX_CELL_TEXT`` characters per cell are stored (see ``finish_cell`` for the notice).
    """

    def __init__(self, name: str, sink: list, budget: _Budget):
        self.name, self.sink, self.budget = name, sink, budget
        self.buffer = _BinaryCapture(self)

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        n = len(text)
        if not text:
            return n
        if self.budget.left <= 0:
            self.budget.dropped += n
            return n
        text = valid_text(text)
        last = self.sink[-1] if self.sink else None
        if not (last and last["type"] == "stream" and last["name"] == self.name):
            last = {"type": "stream", "name": self.name, "text": ""}
            self.sink.append(last)
        before = len(last["text"])
        combined = last["text"] + text
        if "\r" in text:
            start = combined.rfind("\n", 0, before) + 1
            combined = combined[:start] + collapse_carriage_returns(combined[start:])
        grown = len(combined) - before
        if grown > self.budget.left:
            self.budget.dropped += grown - self.budget.left
            combined = combined[:before + self.budget.left]
            grown = self.budget.left
        last["text"] = combined
        self.budget.left -= grown
        return n

    def isatty(self) -> bool:
        return False


class _BinaryCapture(io.RawIOBase):
    """``sys.stdout.buffer`` of a capture: bytes are decoded as UTF-8, invalid ones replaced."""

    def __init__(self, text: _Capture):
        self.text = text
        self.decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")

    def writable(self) -> bool:
        return True

    def write(self, data) -> int:
        self.text.write(self.decoder.decode(bytes(data)))
        return len(data)


def finish_cell(outputs: list, budget: _Budget) -> None:
    """Say in the outputs that text was cut, and how much (``budget.dropped`` characters)."""
    if budget.dropped:
        outputs.append({"type": "stream", "name": "stderr",
                        "text": f"[output truncated by capture: {budget.dropped:,} more characters not stored; "
                                f"the limit is {MAX_CELL_TEXT:,} characters per cell]\n"})


def _display(value) -> dict | None:
    if value is None:
        return None
    text = repr(value)
    if len(text) > MAX_CELL_TEXT:
        text = text[:MAX_CELL_TEXT] + f"\n[output truncated by capture: {len(text) - MAX_CELL_TEXT:,} more characters]"
    data = {"text/plain": text}
    html = getattr(value, "_repr_html_", None)
    if callable(html):
        try:
            rendered = html()
            if isinstance(rendered, str):
                data["text/html"] = rendered
        except Exception:  # a broken _repr_html_ must not fail the cell
            pass
    return {"type": "display", "data": data}


def _scrape_figures() -> list[dict]:
    """Save and close every open matplotlib figure (only if the example imported pyplot)."""
    plt = sys.modules.get("matplotlib.pyplot")
    if plt is None:
        return []
    images = []
    for num in plt.get_fignums():
        fig = plt.figure(num)
        buf = io.BytesIO()
        fig.savefig(buf, format="png", dpi=110, bbox_inches="tight")
        w, h = fig.get_size_inches() * 110
        images.append({"type": "image", "mime": "image/png",
                       "data": base64.b64encode(buf.getvalue()).decode("ascii"),
                       "width": int(w), "height": int(h)})
    plt.close("all")
    return images


REPO_ROOT = Path(__file__).resolve().parents[3]


def frame_path(filename: str, root: Path = REPO_ROOT) -> str:
    """``filename`` of a traceback frame as the stored output shows it, without this machine's
    directories, so an output does not depend on where the repository or Python is installed:

    * in an installed package: from the package directory, ``site-packages/torch/_tensor.py``
      (``dist-packages`` on Debian's Python);
    * under ``root`` (the repository): relative, ``examples/graph/retain_graph.py``;
    * in Python's standard library: ``lib/python3.11/...``, relative to ``sys.base_prefix``;
    * anything else (``<string>``, another folder): unchanged.
    """
    path = Path(filename)
    if not path.is_absolute():
        return filename
    parts = path.parts
    for marker in ("site-packages", "dist-packages"):  # first: a virtualenv may sit in the repository
        if marker in parts:
            return "/".join(parts[parts.index(marker):])
    if path.is_relative_to(root):
        return path.relative_to(root).as_posix()
    for base in (Path(sys.base_prefix), Path(sys.prefix)):  # in this order: one answer per file
        if path.is_relative_to(base):
            return path.relative_to(base).as_posix()
    return filename


def _error_record(exc: BaseException, path: str, expected: bool) -> dict:
    frames = traceback.extract_tb(exc.__traceback__)
    # Drop the runner's own frames: the traceback starts in the example.
    first = next((i for i, f in enumerate(frames) if f.filename == path), 0)
    shown = frames[first:]
    for frame in shown:
        _ = frame.line  # read the source line while the real path is set
        frame.filename = frame_path(frame.filename)
    lines = traceback.format_list(shown)
    tb_text = "Traceback (most recent call last):\n" + "".join(lines)
    tb_text += "".join(traceback.format_exception_only(type(exc), exc))
    in_file = [f.lineno for f in frames if f.filename == path]
    return {"type": "error", "ename": type(exc).__name__, "evalue": str(exc),
            "traceback": tb_text, "line": in_file[-1] if in_file else 0, "expected": expected}


def _matches(exc: BaseException, name: str) -> bool:
    return any(cls.__name__ == name for cls in type(exc).__mro__)


def run_cell(cell: Cell, path: str, namespace: dict) -> tuple[list, bool]:
    """Execute one cell in ``namespace``; return (outputs, ok)."""
    outputs: list = []
    budget = _Budget(MAX_CELL_TEXT)
    old = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = _Capture("stdout", outputs, budget), _Capture("stderr", outputs, budget)
    ok = True
    try:
        tree = ast.parse("\n" * (cell.line - 1) + cell.source, filename=path)
        last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
        exec(compile(tree, path, "exec"), namespace)
        if last is not None:
            value = eval(compile(ast.Expression(last.value), path, "eval"), namespace)
            shown = _display(value)
            if shown:
                outputs.append(shown)
        if cell.raises:
            outputs.append({"type": "error", "ename": "DeclaredExceptionNotRaised",
                            "evalue": f"cell is declared raises={cell.raises!r} but raised nothing",
                            "traceback": "", "line": cell.line, "expected": False})
            ok = False
    except BaseException as exc:  # noqa: BLE001 - SystemExit/KeyboardInterrupt are outputs too
        expected = bool(cell.raises) and _matches(exc, cell.raises)
        outputs.append(_error_record(exc, path, expected))
        ok = expected
    finally:
        sys.stdout.flush()
        sys.stdout, sys.stderr = old
    finish_cell(outputs, budget)
    outputs.extend(_scrape_figures())
    return outputs, ok


def provenance() -> dict:
    """Describe the machine as torch sees it: device name ("CPU" without CUDA) and versions."""
    info = {"device": "CPU", "device_kind": "cpu", "torch": None, "cuda": None,
            "python": platform.python_version(), "platform": platform.platform(terse=True)}
    torch = sys.modules.get("torch")
    if torch is None:
        try:
            import torch  # noqa: PLC0415 - only for the provenance of a torch-less example
        except ImportError:
            return info
    info["torch"] = torch.__version__
    if torch.cuda.is_available():
        info.update(device=torch.cuda.get_device_name(0), device_kind="cuda", cuda=torch.version.cuda)
    return info


def _die_with_parent() -> None:
    """On Linux, ask for SIGKILL when the process that started us dies, so that killing a
    capture (even with SIGKILL) leaves no orphaned example running. Best effort elsewhere."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes  # noqa: PLC0415
        import signal  # noqa: PLC0415

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # 1 = PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def main(argv: list[str]) -> int:
    _die_with_parent()
    example_path, results_path = argv[1], argv[2]
    example = parse_example(example_path)
    path = str(example.path)
    namespace = {"__name__": "__main__", "__file__": path, "__builtins__": __builtins__}
    sys.argv = [path]
    sys.path[0] = str(example.path.parent)
    started = time.perf_counter()
    status = 0
    with open(results_path, "w", encoding="utf-8") as out:
        for cell in example.cells:
            t0 = time.perf_counter()
            outputs, ok = run_cell(cell, path, namespace)
            record = {"kind": "cell", "index": cell.index, "line": cell.line, "ok": ok,
                      "duration_s": round(time.perf_counter() - t0, 4), "outputs": outputs}
            out.write(valid_text(json.dumps(record, ensure_ascii=False)) + "\n")
            out.flush()
            if not ok:
                status = 1
                break
        end = {"kind": "end", "ok": status == 0,
               "duration_s": round(time.perf_counter() - started, 4),
               "captured_at": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
               "provenance": provenance()}
        out.write(json.dumps(end, ensure_ascii=False) + "\n")
    # Skip interpreter teardown (e.g. DataLoader workers): results are already on disk.
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(status)


if __name__ == "__main__":
    main(sys.argv)
