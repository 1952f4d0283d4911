"""The folder of one run (``pn-run-*`` in the temporary directory): made, read, removed, and swept
when a killed capture left it behind. Standard library only."""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from pathlib import Path

from pytorch_notes.execute.proctree import is_alive


def new_run_dir() -> Path:
    """A fresh ``pn-run-*`` folder naming its owner (``owner``) in ``owner.pid``."""
    tmp = Path(tempfile.mkdtemp(prefix="pn-run-"))
    (tmp / "owner.pid").write_text(owner())
    return tmp


def owner() -> str:
    """This process as the owner of a run directory: its pid and its pid namespace (Linux), so that
    a machine whose ``/tmp`` is shared by containers never sweeps another container's runs."""
    try:
        namespace = os.readlink("/proc/self/ns/pid")
    except OSError:
        namespace = "-"
    return f"{os.getpid()} {namespace}"


def sweep_stale_run_dirs() -> None:
    """Remove the ``pn-run-*`` directories whose capture was killed (SIGKILL, a power cut): each
    names its owner in ``owner.pid`` (``_owner``); one whose owner is gone is left over."""
    namespace = owner().split(" ", 1)[1]
    for old in Path(tempfile.gettempdir()).glob("pn-run-*"):
        try:
            pid, owner_namespace = (old / "owner.pid").read_text().split(" ", 1)
            pid = int(pid)
        except (OSError, ValueError):
            continue  # not ours, or still being created
        if owner_namespace == namespace and pid != os.getpid() and not is_alive(pid):
            remove(old)


def remove(tmp: Path) -> None:
    for _ in range(3):  # a process killed a moment ago may still drop a file
        shutil.rmtree(tmp, ignore_errors=True)
        if not tmp.exists():
            return
        time.sleep(0.05)


def tail(path: Path, size: int = 65_536) -> str:
    try:
        with open(path, "rb") as f:
            f.seek(max(0, os.fstat(f.fileno()).st_size - size))
            return f.read().decode("utf-8", errors="replace")
    except OSError:
        return ""
