"""Stage 2a, execute (child side): run one example cell by cell and record what each cell shows.

Run as ``python .../execute/runner.py SPEC.json`` by ``supervise.run_example``, always in a
fresh process, like ``python example.py``: standard library only (it never imports the
``pytorch_notes`` package; its sibling modules ``streams``, ``paths``, ``proctree`` and
``provenance`` are loaded from this folder and then dropped from ``sys.modules``), the example
runs as ``__main__`` in a real module registered as ``sys.modules["__main__"]`` (pickling a
class it defines works), ``sys.argv == [example]``, ``sys.path[0]`` is the example's folder,
stdin is ``/dev/null`` and the working directory is a fresh scratch directory.

SPEC (written by the parent) holds the example's path and cells (index, line, source,
metadata) and the paths of: RESULTS, the two files that file descriptors 1 and 2 write to,
the stack-dump file, the scratch directory, ``TMPDIR`` and the repository root; and ``host``, the
parent's ``provenance.device()`` when the parent runs this same interpreter (else null): the device
of an example that never imports torch, which the runner then need not import (``provenance``).

Each cell is compiled under the example's real path with its real line numbers, so a
traceback points at ``examples/<chapter>/<name>.py:<line>`` and ``line`` of an error is the
line that raised. Stored text shows no directory of this machine (``paths``). After every
cell one JSON line is appended to RESULTS (and flushed), so the parent knows how far a run
got if the child hangs or dies. The last line is ``{"kind": "end", ...}`` with the
provenance. SIGUSR2 dumps the stacks to the stack file (``faulthandler``, works even inside C
code); SIGINT interrupts the cell, which records the line it was on. Before exiting the runner
kills every process the example left behind (``proctree``).

Output records (``outputs`` of a cell), in the order the cell produced them:
  * ``{"type": "stream", "name": "stdout"|"stderr", "text": str}``: ``print`` and writes to
    file descriptors 1 and 2 (``os.write``, subprocesses, C extensions) alike.
  * ``{"type": "display", "data": {"text/plain": str, "text/html"?: str}}``: value of a
    trailing bare expression, as Jupyter shows it.
  * ``{"type": "image", "mime": "image/png", "data": base64 str, "width": px, "height": px}``
  * ``{"type": "error", "ename": str, "evalue": str, "traceback": str, "line": int,
    "expected": bool}``
"""

from __future__ import annotations

import ast
import base64
import builtins
import faulthandler
import importlib.machinery
import io
import json
import os
import signal
import sys
import time
import traceback
import types
from datetime import UTC, datetime

if __package__:  # imported as pytorch_notes.execute.runner (render, tests)
    from .paths import REPO_ROOT, PathScrubber, frame_path
    from .proctree import become_subreaper, kill_tree, reap_children
    from .provenance import provenance
    from .streams import MAX_CELL_TEXT, CellSink, FdFiles, PyStream, collapse_carriage_returns, valid_text
else:  # run by path in the child: this folder is sys.path[0]
    from paths import REPO_ROOT, PathScrubber, frame_path
    from proctree import become_subreaper, kill_tree, reap_children
    from provenance import provenance
    from streams import MAX_CELL_TEXT, CellSink, FdFiles, PyStream, collapse_carriage_returns, valid_text

    for _name in ("paths", "proctree", "provenance", "streams"):  # the example may have its own
        sys.modules.pop(_name, None)

__all__ = ["MAX_CELL_TEXT", "REPO_ROOT", "collapse_carriage_returns", "frame_path", "main", "run_cell",
           "valid_text"]


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


def figure_title(fig) -> str:
    """What a figure shows, from its own titles: the figure's suptitle, else the titles of up to three
    axes joined with "; " (a grid of more panels is labelled per panel, e.g. digits: its titles do not
    describe the figure). Empty when there is none; pages then use a generic alt text and caption."""
    suptitle = getattr(fig, "_suptitle", None)
    if suptitle is not None and suptitle.get_text().strip():
        return suptitle.get_text().strip()
    titles = [t for t in (ax.get_title().strip() for ax in fig.get_axes()) if t]
    return "; ".join(titles) if len(titles) <= 3 else ""


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
                       "width": int(w), "height": int(h), "alt": figure_title(fig)})
    plt.close("all")
    return images


def _error_record(exc: BaseException, path: str, expected: bool) -> dict:
    frames = traceback.extract_tb(exc.__traceback__)
    # Match the real file names before they are rewritten for display.
    in_file = [i for i, f in enumerate(frames) if f.filename == path]
    shown = frames[in_file[0]:] if in_file else frames  # drop the runner's own frames
    for frame in shown:
        _ = frame.line  # read the source line while the real path is set
        frame.filename = frame_path(frame.filename)
    tb_text = "Traceback (most recent call last):\n" + "".join(traceback.format_list(shown))
    tb_text += "".join(traceback.format_exception_only(type(exc), exc))
    return {"type": "error", "ename": type(exc).__name__, "evalue": str(exc), "traceback": tb_text,
            "line": frames[in_file[-1]].lineno if in_file else 0, "expected": expected}


def _matches(exc: BaseException, name: str) -> bool:
    return any(cls.__name__ == name for cls in type(exc).__mro__)


def run_cell(cell: dict, path: str, namespace: dict, files: FdFiles) -> tuple[list, bool]:
    """Execute one cell in ``namespace``.

    Args:
        cell: ``{"index", "line", "source", "metadata"}`` as in the spec; ``metadata["raises"]``
            names the exception class the cell is declared to raise.
        path: the example's path, the file name its code is compiled under.
        namespace: the ``__dict__`` of the example's ``__main__`` module.
        files: the files behind fds 1 and 2.

    Returns:
        (outputs, ok): the cell's output records and whether it went as declared.
    """
    raises = cell.get("metadata", {}).get("raises")
    sink = CellSink()
    files.drain()  # what came between cells (a background process) goes to the cell that runs next
    files.sink = sink
    old = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = PyStream("stdout", 1, files), PyStream("stderr", 2, files)
    ok = True
    try:
        tree = ast.parse("\n" * (cell["line"] - 1) + cell["source"], filename=path)
        last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
        exec(compile(tree, path, "exec"), namespace)
        if last is not None:
            value = eval(compile(ast.Expression(last.value), path, "eval"), namespace)
            shown = _display(value)
            if shown:
                files.drain()
                sink.outputs.append(shown)
        if raises:
            files.drain()
            sink.outputs.append({"type": "error", "ename": "DeclaredExceptionNotRaised",
                                 "evalue": f"cell is declared raises={raises!r} but raised nothing",
                                 "traceback": "", "line": cell["line"], "expected": False})
            ok = False
    except BaseException as exc:  # noqa: BLE001 - SystemExit/KeyboardInterrupt are outputs too
        expected = bool(raises) and _matches(exc, raises)
        files.drain()
        sink.outputs.append(_error_record(exc, path, expected))
        ok = expected
    finally:
        sys.stdout, sys.stderr = old
    files.drain()
    files.flush_decoders()
    files.sink = None
    outputs = sink.finish()
    outputs.extend(_scrape_figures())
    return outputs, ok


def _main_module(path: str) -> types.ModuleType:
    """A fresh module for the example, registered as ``sys.modules["__main__"]`` as ``python path`` would."""
    module = types.ModuleType("__main__")
    module.__file__ = path
    module.__builtins__ = builtins
    module.__loader__ = importlib.machinery.SourceFileLoader("__main__", path)
    module.__spec__ = None
    module.__cached__ = None
    sys.modules["__main__"] = module
    return module


def main(argv: list[str]) -> int:
    """Run the example that ``argv[1]`` (a spec file) describes; exit with 0 if every cell went as declared."""
    become_subreaper()
    spec = json.loads(open(argv[1], encoding="utf-8").read())  # noqa: SIM115 - read once, at start-up
    runner = sys.modules.get("__main__")  # keep the runner's module alive once the example replaces it
    files = FdFiles(spec["stdout"], spec["stderr"])
    stack = open(spec["stack"], "w", encoding="utf-8")  # noqa: SIM115 - written by faulthandler until exit
    faulthandler.register(signal.SIGUSR2, file=stack, all_threads=True)
    scrub = PathScrubber(spec["scratch"], spec.get("tmpdir"), spec["root"])
    path = spec["path"]
    namespace = _main_module(path).__dict__
    sys.argv = [path]
    sys.path[0] = os.path.dirname(path)
    started = time.perf_counter()
    status = 0
    with open(spec["results"], "w", encoding="utf-8") as out:
        for cell in spec["cells"]:
            t0 = time.perf_counter()
            outputs, ok = run_cell(cell, path, namespace, files)
            scrub.outputs(outputs)
            record = {"kind": "cell", "index": cell["index"], "line": cell["line"], "ok": ok,
                      "duration_s": round(time.perf_counter() - t0, 4), "outputs": outputs}
            out.write(valid_text(json.dumps(record, ensure_ascii=False)) + "\n")
            out.flush()
            if not ok:
                status = 1
                break
        duration = round(time.perf_counter() - started, 4)
        # Kill what the example started and left running (DataLoader workers, daemons), first
        # restoring SIGCHLD: a handler the example installed (torch's DataLoader has one) would
        # raise here about the workers being killed.
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        kill_tree(os.getpid())
        end = {"kind": "end", "ok": status == 0, "duration_s": duration,
               "captured_at": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
               "provenance": provenance([c["source"] for c in spec["cells"]], spec.get("host"))}
        out.write(json.dumps(end, ensure_ascii=False) + "\n")
    kill_tree(os.getpid())  # provenance may have started nvidia-smi
    reap_children()
    del runner
    # Skip interpreter teardown (e.g. DataLoader workers): results are already on disk.
    os._exit(status)


if __name__ == "__main__":
    main(sys.argv)
