"""The folder of one run (``pn-run-*`` in the temporary directory): made, read, removed, and swept
when a killed capture left it behind. Standard library only."""

from __future__ import annotations

import os
import shutil
import subprocess
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


CHANNELS = ("results", "stdout", "stderr", "stack")  # written by the child, appended to
FOLDERS = ("work", "tmp", "home", "mpl")  # the example's scratch: working directory, TMPDIR, HOME, MPLCONFIGDIR


def prepare(tmp: Path) -> tuple[dict[str, Path], dict[str, Path], dict[str, int]]:
    """(folders, files, fds) of a run in ``tmp``: the scratch ``FOLDERS``, made; the channel files and their
    descriptors, open for the child (``CHANNELS`` for appending; ``position``, rewritten in place; ``info``,
    bubblewrap's), all close-on-exec but those passed on. The caller closes the fds once the child started."""
    folders = {k: tmp / k for k in FOLDERS}
    for folder in folders.values():
        folder.mkdir()
    files = {k: tmp / k for k in (*CHANNELS, "position", "info")}
    fds = {k: os.open(files[k], os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_CLOEXEC, 0o600) for k in CHANNELS}
    fds["position"] = os.open(files["position"], os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    fds["info"] = os.open(files["info"], os.O_WRONLY | os.O_CREAT | os.O_CLOEXEC, 0o600)
    return folders, files, fds


def remove(tmp: Path) -> None:
    """Delete a run folder, whatever the example left in it. Never raises: ``shutil.rmtree`` recurses once
    per level (Python 3.11), so a tree thousands of folders deep, which an example can make, raises
    RecursionError; ``rm -rf`` takes over then."""
    for _ in range(3):  # a process killed a moment ago may still drop a file
        try:
            shutil.rmtree(tmp, ignore_errors=True)
        except RecursionError:
            subprocess.run(["rm", "-rf", "--", str(tmp)], check=False, timeout=300, stdin=subprocess.DEVNULL,
                           capture_output=True)
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
