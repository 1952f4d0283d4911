"""The one way tests and tools run a Python script of the course outside ``make capture``: a ``.py`` download,
a script of a chapter's zip, an example for a benchmark (parent side). Standard library only.

``run_script`` runs the whole file as one cell of the capture's runner, in the capture's sandbox
(bubblewrap where it starts, the supervised fallback otherwise, never the fallback under
``PYTORCH_NOTES_REQUIRE_SANDBOX``), with the example's environment, never the caller's. The script runs
on a copy: its folder (or ``cwd``) is copied into a fresh working directory, which is all it may write.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path

from pytorch_notes.execute.paths import REPO_ROOT
from pytorch_notes.execute.sandbox import Limits, Sandbox, example_env
from pytorch_notes.execute.supervise import RunResult, Supervisor
from pytorch_notes.parse import Cell, Example

COPY_BYTES = 64 << 20  # at most this much of the script's folder is copied


@dataclass(frozen=True)
class Outcome:
    """How a script ran.

    Attributes:
        status: ``ok`` (it ran to its end), ``failed`` (an exception left it, or the fallback saw it change
            the repository), ``timeout``, ``crashed`` (a signal, ``os._exit``).
        stdout: what it wrote to standard output (``print``, fd 1, its subprocesses).
        stderr: what it wrote to standard error, then the traceback of an exception that left it.
        message: the capture's account of a run that was not ``ok`` (empty when ok).
        isolation: ``bwrap <version>`` or ``supervised``.
    """

    status: str
    stdout: str
    stderr: str
    message: str
    isolation: str

    @property
    def ok(self) -> bool:
        return self.status == "ok"


_lock = threading.Lock()
_supervisors: dict[str, Supervisor] = {}


def _supervisor(mode: str) -> Supervisor:
    """One ``Supervisor`` of the checkout per mode and process (its device probe imports torch once)."""
    with _lock:
        if mode not in _supervisors:
            _supervisors[mode] = Supervisor(REPO_ROOT, mode=mode)
        return _supervisors[mode]


def run_script(path: Path, cwd: Path | None = None, timeout_s: float = 120, mode: str = "auto") -> Outcome:
    """Run the Python script ``path`` as ``python <name>`` would in ``cwd`` (default: its folder), sandboxed.

    The folder ``cwd`` (at most ``COPY_BYTES``) is copied into a fresh working directory and the script
    runs from the copy: ``sys.path[0]`` and the working directory are the copy's folder, ``__name__`` is
    ``"__main__"``; it sees the example's environment (``sandbox.example_env``). Tracebacks name it by its
    file name. Safe to call from several threads (each run in its own process; the fallback runs one at a
    time).

    Args:
        path: the script, inside ``cwd``.
        cwd: the folder it runs in; default ``path``'s folder.
        timeout_s: seconds before the script, with every process it started, is stopped.
        mode: ``sandbox.Sandbox``'s ``mode`` (``"auto"``, ``"bwrap"``, ``"supervised"``).

    Raises:
        SandboxError: the sandbox is required (``mode="bwrap"`` or ``PYTORCH_NOTES_REQUIRE_SANDBOX``) and
            cannot start here.
        ValueError: ``path`` is not inside ``cwd``, or ``cwd`` holds more than ``COPY_BYTES``.
    """
    path = Path(path).resolve()
    folder = Path(cwd).resolve() if cwd is not None else path.parent
    if not path.is_relative_to(folder):
        raise ValueError(f"{path} is not inside {folder}")
    size = sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())
    if size > COPY_BYTES:
        raise ValueError(f"{folder} holds {size:,} bytes, more than {COPY_BYTES:,} to copy")
    runs = _supervisor(mode)
    work = Path(tempfile.mkdtemp(prefix="pn-script-"))
    work.chmod(0o711)  # the fallback's example user goes through it to its copy
    try:
        shutil.copytree(folder, work / "run", symlinks=True)
        copy = work / "run" / path.relative_to(folder)
        source = copy.read_text(encoding="utf-8")
        example = Example(path=copy, rel=copy.name, cells=(Cell(0, 1, source),), timeout_s=timeout_s,
                          requires=frozenset(), sha256=hashlib.sha256(source.encode("utf-8")).hexdigest())
        return _outcome(runs.run(example, timeout_s, workdir=copy.parent), runs.isolation)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _outcome(result: RunResult, isolation: str) -> Outcome:
    streams = {"stdout": [], "stderr": []}
    for cell in result.cells:
        for out in cell.outputs:
            if out.get("type") == "stream" and out.get("name") in streams:
                streams[out["name"]].append(out.get("text", ""))
            elif out.get("type") == "error":
                streams["stderr"].append(out.get("traceback", ""))
    return Outcome(result.status, "".join(streams["stdout"]), "".join(streams["stderr"]), result.message, isolation)


def tool_command(argv: list[str], cwd: Path, scratch: Path, writable: tuple[Path, ...] = (),
                 extra_env: dict[str, str] | None = None) -> tuple[list[str], dict[str, str]]:
    """(command, environment) that run ``argv``, a tool of ours that executes example code it does not split
    into cells (``make bench``'s executing build: mkdocs-jupyter starts a Jupyter kernel per notebook), in the
    capture's bubblewrap sandbox: ``cwd`` and ``writable`` writable, ``scratch`` (an empty folder) its
    ``HOME`` and ``TMPDIR``, the example's environment (``sandbox.example_env``) plus ``extra_env``. Run the
    command with that environment and ``cwd``.

    Raises:
        SandboxError: bubblewrap cannot start here: there is no fallback for a tool (its examples would run
            as plain processes of the caller's).
    """
    box = Sandbox(REPO_ROOT, mode="bwrap")
    folders = {name: Path(scratch) / name for name in ("home", "tmp", "mpl")}
    for folder in folders.values():
        folder.mkdir(parents=True, exist_ok=True)
    env = example_env(dict(os.environ), folders["home"], folders["tmp"], folders["mpl"], REPO_ROOT / "scripts")
    env.update(extra_env or {})
    cmd = box.command(argv, Path(scratch), [Path(cwd), *writable, *folders.values()], [], limits=Limits())
    return cmd, env
