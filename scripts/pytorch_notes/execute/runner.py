"""Stage 2a, execute (child side): run one example cell by cell and record what each cell shows.

Run as ``python .../execute/runner.py SPEC.json`` by ``supervise.run_example``, always in a
fresh process, like ``python example.py``: standard library only (it never imports the
``pytorch_notes`` package; its sibling modules ``streams``, ``paths``, ``proctree`` and
``provenance`` are loaded from this folder and then dropped from ``sys.modules``), the example
runs as ``__main__`` in a real module registered as ``sys.modules["__main__"]`` (pickling a
class it defines works), ``sys.argv == [example]``, ``sys.path[0]`` is the example's folder,
stdin is ``/dev/null`` and the working directory is a fresh scratch directory.

SPEC (written by the parent) holds the example's path and cells (index, line, source, metadata), the
capture's bytecode prefix (``pycache``: read, never written, since the example's environment has
``PYTHONDONTWRITEBYTECODE``), the paths of the two files that file descriptors 1 and 2 write to, of
the scratch directory, ``TMPDIR`` and the repository root, the ``limits`` to apply
(``sandbox.Limits``), and three file descriptors the parent opened: ``results_fd`` (the report
below), ``stack_fd`` (stack dumps) and ``position_fd`` (the line running now, sampled every 50 ms
and rewritten in place, for a process killed without a word: ``SIGKILL`` from the out-of-memory
killer). The runner knows no facts about the machine: the parent describes the device, versions and
isolation itself (``supervise``).

Each cell is compiled under the example's real path with its real line numbers, so a
traceback points at ``examples/<chapter>/<name>.py:<line>`` and ``line`` of an error is the
line that raised. Stored text shows no directory of this machine (``paths``). After every
cell one JSON line is written to the results channel, so the parent knows how far a run got if
the child hangs or dies: ``{"kind": "start", "index", "offsets"}`` before a cell (where fds 1 and
2 stood), ``{"kind": "cell", ...}`` after it, ``{"kind": "exit", "status", "line"}`` when the example
calls ``os._exit`` (the line that called it), and last ``{"kind": "end", "ok", "duration_s",
"cuda_available"}``. SIGUSR2 dumps the stacks to the stack channel (``faulthandler``, works even
inside C code), and so does a fatal signal (segmentation fault, abort, bus error, SIGTERM);
SIGINT interrupts the cell, which records the line it was on. Before exiting the runner kills
every process the example left behind (``proctree``).

The example shares this process, so it could still forge the report (the threat model in
CONTRIBUTING): the runner keeps its own references to the functions it writes with, and the
parent checks the report against the example and the exit status (``supervise``).

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
import threading
import time
import traceback
import types

if __package__:  # imported as pytorch_notes.execute.runner (render, tests)
    from . import limits
    from .channels import Reporter, apply_limits
    from .paths import REPO_ROOT, PathScrubber, frame_path
    from .proctree import become_subreaper, kill_tree, reap_children
    from .streams import CellSink, FdFiles, PyStream, collapse_carriage_returns, valid_text
else:  # run by path in the child: this folder is sys.path[0]
    import limits
    from channels import Reporter, apply_limits
    from paths import REPO_ROOT, PathScrubber, frame_path
    from proctree import become_subreaper, kill_tree, reap_children
    from streams import CellSink, FdFiles, PyStream, collapse_carriage_returns, valid_text

    for _name in ("channels", "limits", "paths", "proctree", "streams"):  # the example may have its own
        sys.modules.pop(_name, None)

__all__ = ["REPO_ROOT", "collapse_carriage_returns", "frame_path", "main", "run_cell", "valid_text"]

# The runner's own references, taken before any example code runs: an example that replaces one of them
# (builtins.exec swallowing exceptions, say) does not change how later cells run or are judged.
_real_exit, _parse, _compile, _exec, _eval = os._exit, ast.parse, builtins.compile, builtins.exec, builtins.eval
MAX_FRAMES = 200  # innermost frames kept in a traceback (a deep recursion has thousands)


def _display(value) -> dict | None:
    if value is None:
        return None
    text = repr(value)
    if len(text) > limits.CELL_TEXT:
        cut = len(text) - limits.CELL_TEXT
        text = text[:limits.CELL_TEXT] + f"\n[output truncated by capture: {cut:,} more characters]"
    data = {"text/plain": text}
    html = getattr(value, "_repr_html_", None)
    if callable(html):
        try:
            rendered = html()
            if isinstance(rendered, str) and len(rendered) <= limits.CELL_TEXT:
                data["text/html"] = rendered
        except Exception:  # a broken _repr_html_ must not fail the cell
            pass
    return {"type": "display", "data": data}


def figure_title(fig) -> str:
    """What a figure shows, from its own titles: the figure's suptitle, else the titles of up to three
    axes joined with "; " (a grid of more panels is labelled per panel, e.g. digits: its titles do not
    describe the figure). Empty when there is none; pages then use a generic alt text and caption."""
    suptitle = fig.get_suptitle().strip()  # public since matplotlib 3.8 (the project needs >= 3.9)
    if suptitle:
        return suptitle
    titles = [t for t in (ax.get_title().strip() for ax in fig.get_axes()) if t]
    return "; ".join(titles) if len(titles) <= 3 else ""


FIGURE_DPI = 110  # CSS pixels per inch of a figure on the page
PIXEL_RATIO = 2  # image pixels per CSS pixel: figures stay sharp on 2x screens and when opened full size


def figure_dpi(width_in: float, height_in: float, dpi: float = FIGURE_DPI * PIXEL_RATIO) -> float:
    """``dpi``, lowered so that a figure of ``width_in`` x ``height_in`` inches is at most
    ``limits.FIGURE_PIXELS`` pixels on its longer side (a larger figure is scaled down, not refused)."""
    longest = max(width_in, height_in, 1e-9) * dpi
    return dpi if longest <= limits.FIGURE_PIXELS else dpi * limits.FIGURE_PIXELS / longest


def _scrape_figures() -> list[dict]:
    """Save and close every open matplotlib figure (only if the example imported pyplot).

    Each PNG holds ``PIXEL_RATIO`` pixels per CSS pixel; ``width`` and ``height`` are its size on the
    page in CSS pixels (the PNG's own size, from its header, divided by ``PIXEL_RATIO``)."""
    plt = sys.modules.get("matplotlib.pyplot")
    if plt is None:
        return []
    images = []
    for num in plt.get_fignums():
        fig = plt.figure(num)
        buf = io.BytesIO()
        w, h = fig.get_size_inches()
        fig.savefig(buf, format="png", dpi=figure_dpi(w, h), bbox_inches="tight")
        png = buf.getvalue()
        px_w, px_h = int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")  # IHDR
        images.append({"type": "image", "mime": "image/png",
                       "data": base64.b64encode(png).decode("ascii"),
                       "width": max(1, round(px_w / PIXEL_RATIO)), "height": max(1, round(px_h / PIXEL_RATIO)),
                       "alt": figure_title(fig)})
    plt.close("all")
    return images


def _error_record(exc: BaseException, path: str, expected: bool) -> dict:
    frames = traceback.extract_tb(exc.__traceback__, limit=-MAX_FRAMES)
    # Match the real file names before they are rewritten for display.
    in_file = [i for i, f in enumerate(frames) if f.filename == path]
    shown = frames[in_file[0]:] if in_file else frames  # drop the runner's own frames
    for frame in shown:
        _ = frame.line  # read the source line while the real path is set
        frame.filename = frame_path(frame.filename)
    tb_text = "Traceback (most recent call last):\n" + "".join(traceback.format_list(shown))
    tb_text += "".join(traceback.format_exception_only(type(exc), exc))
    evalue = str(exc)
    if len(evalue) > limits.ERROR_VALUE:  # cut here too, so a huge message never fills the report
        evalue = evalue[:limits.ERROR_VALUE - 100] + f"[message cut by capture: {len(evalue):,} characters]"
    if len(tb_text) > limits.TRACEBACK:
        tb_text = f"[traceback cut by capture: {len(tb_text):,} characters]\n" + tb_text[-(limits.TRACEBACK - 100):]
    return {"type": "error", "ename": type(exc).__name__, "evalue": evalue, "traceback": tb_text,
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
        tree = _parse("\n" * (cell["line"] - 1) + cell["source"], filename=path)
        last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
        _exec(_compile(tree, path, "exec"), namespace)
        if last is not None:
            value = _eval(_compile(ast.Expression(last.value), path, "eval"), namespace)
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
    if spec.get("pycache") and not sys.pycache_prefix:  # read the capture's bytecode (the example writes none)
        sys.pycache_prefix = spec["pycache"]
    apply_limits(spec.get("limits", {}))
    runner = sys.modules.get("__main__")  # keep the runner's module alive once the example replaces it
    files = FdFiles(spec["stdout"], spec["stderr"])
    stack = os.fdopen(spec["stack_fd"], "w", encoding="utf-8")
    faulthandler.enable(file=stack, all_threads=True)  # segmentation fault, abort, bus error, ...
    faulthandler.register(signal.SIGUSR2, file=stack, all_threads=True)
    faulthandler.register(signal.SIGTERM, file=stack, all_threads=True, chain=True)
    scrub = PathScrubber(spec["scratch"], spec.get("tmpdir"), spec["root"])
    path = spec["path"]
    report = Reporter(spec["results_fd"], spec["position_fd"], path)
    report.patch_exit()
    namespace = _main_module(path).__dict__
    sys.argv = [path]
    sys.path[0] = os.path.dirname(path)
    cell_now = [0]
    threading.Thread(target=report.sample, args=(threading.get_ident(), cell_now), daemon=True,
                     name="pytorch-notes-line-sampler").start()
    started = time.perf_counter()
    status = 0
    for cell in spec["cells"]:
        cell_now[0] = cell["index"]
        report.position(cell["index"], cell["line"])
        report.emit({"kind": "start", "index": cell["index"], "offsets": files.offsets()})
        t0 = time.perf_counter()
        outputs, ok = run_cell(cell, path, namespace, files)
        scrub.outputs(outputs)
        report.emit({"kind": "cell", "index": cell["index"], "line": cell["line"], "ok": ok,
                     "duration_s": round(time.perf_counter() - t0, 4), "outputs": outputs})
        if not ok:
            status = 1
            break
    duration = round(time.perf_counter() - started, 4)
    # Kill what the example started and left running (DataLoader workers, daemons), first
    # restoring SIGCHLD: a handler the example installed (torch's DataLoader has one) would
    # raise here about the workers being killed.
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    kill_tree(os.getpid())
    torch = sys.modules.get("torch")
    try:
        cuda = bool(torch.cuda.is_available()) if torch is not None else None
    except Exception:  # noqa: BLE001 - a torch the example broke says nothing
        cuda = None
    report.emit({"kind": "end", "ok": status == 0, "duration_s": duration, "cuda_available": cuda})
    reap_children()
    del runner
    # Skip interpreter teardown (e.g. DataLoader workers): results are already on disk.
    _real_exit(status)


if __name__ == "__main__":
    main(sys.argv)
