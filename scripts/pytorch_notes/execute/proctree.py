"""The processes an example started, found and killed. Standard library only; Linux ``/proc``.

An example may start processes that leave its process group (``start_new_session=True``)
or detach from their parent (a double-fork daemon). The runner makes itself a *child
subreaper* (``prctl(PR_SET_CHILD_SUBREAPER)``), so an orphaned descendant is re-parented to
the runner instead of to init: while the runner lives, every process the example started is
in its subtree, found by following the parent links of ``/proc/<pid>/stat``. Both sides use
``kill_tree``: the runner before it exits, the parent on a timeout, a crash or Ctrl-C.
Elsewhere than Linux these functions find nothing and the process group is the only bound.
"""

from __future__ import annotations

import os
import signal
import sys
import time

PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>
PR_SET_CHILD_SUBREAPER = 36


def _stat(pid: int) -> tuple[int, str, int] | None:
    """(parent pid, state letter, session id) of ``pid``, or None if it is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            raw = f.read().decode("ascii", "replace")
    except OSError:
        return None
    fields = raw[raw.rfind(")") + 2:].split()  # the command name may contain spaces and ")"
    return int(fields[1]), fields[0], int(fields[3])


def _processes() -> dict[int, tuple[int, str, int]]:
    table = {}
    try:
        names = os.listdir("/proc")
    except OSError:
        return table
    for name in names:
        if name.isdigit():
            info = _stat(int(name))
            if info:
                table[int(name)] = info
    return table


def is_alive(pid: int) -> bool:
    """True if ``pid`` exists and is not a zombie (exited, waiting to be reaped)."""
    info = _stat(pid)
    if info is None:
        try:
            os.kill(pid, 0)
        except (ProcessLookupError, PermissionError):
            return False
        return not sys.platform.startswith("linux")
    return info[1] not in "ZX"


def descendants(root: int, session: int | None = None) -> list[int]:
    """Live (non-zombie) descendants of ``root``, and, if ``session`` is given, every live
    process of that session (which finds a runner's orphans after the runner died)."""
    table = _processes()
    children: dict[int, list[int]] = {}
    for pid, (ppid, _state, _sid) in table.items():
        children.setdefault(ppid, []).append(pid)
    found, todo = set(), [root]
    while todo:
        for child in children.get(todo.pop(), []):
            if child not in found:
                found.add(child)
                todo.append(child)
    if session is not None:
        found |= {pid for pid, (_p, _s, sid) in table.items() if sid == session and pid != root}
    found.discard(os.getpid())
    return sorted(pid for pid in found if table[pid][1] not in "ZX")


def kill_tree(root: int, session: int | None = None, include_root: bool = False, deadline_s: float = 5.0) -> None:
    """SIGKILL every descendant of ``root`` (see ``descendants``), again until none is left.

    Args:
        root: the process whose subtree goes.
        session: also kill the live processes of this session id.
        include_root: kill ``root`` too: it is stopped (SIGSTOP) first, so it starts no more,
            and killed after its subtree, so that its orphans still find it.
        deadline_s: give up after this many seconds (a process in uninterruptible sleep).
    """
    if include_root and root != os.getpid():
        _signal(root, signal.SIGSTOP)
    end = time.monotonic() + deadline_s
    while time.monotonic() < end:
        pids = descendants(root, session)
        if not pids:
            break
        for pid in pids:
            _signal(pid, signal.SIGKILL)
        time.sleep(0.005)
    if include_root:
        _signal(root, signal.SIGKILL)


def _signal(pid: int, sig: int) -> None:
    try:
        os.kill(pid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def _start_ticks(pid: int) -> int | None:
    """When ``pid`` started, in clock ticks since boot (``/proc/<pid>/stat`` field 22), or None if gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            raw = f.read().decode("ascii", "replace")
        return int(raw[raw.rfind(")") + 2:].split()[19])
    except (OSError, ValueError, IndexError):
        return None


def now_ticks() -> int:
    """Clock ticks since boot now (``/proc/uptime``), comparable with ``_start_ticks``; 0 elsewhere than Linux."""
    try:
        with open("/proc/uptime", encoding="ascii") as f:
            return int(float(f.read().split()[0]) * os.sysconf("SC_CLK_TCK"))
    except (OSError, ValueError):
        return 0


def kill_started_since(since: int, deadline_s: float = 2.0) -> list[int]:
    """SIGKILL every descendant of this process that started at ``since`` (``now_ticks``) or later, and
    reap those that are its own children. With this process a subreaper (``become_subreaper``), that is
    everything a run started, a daemon that left the run's session by ``setsid`` included: the fallback
    without a sandbox, one run at a time, calls it after each run. Returns the pids killed."""
    killed: list[int] = []
    end = time.monotonic() + deadline_s
    while time.monotonic() < end:
        pids = [p for p in descendants(os.getpid()) if (t := _start_ticks(p)) is not None and t >= since]
        if not pids:
            break
        for pid in pids:
            _signal(pid, signal.SIGKILL)
        killed += [p for p in pids if p not in killed]
        time.sleep(0.005)
    for pid in killed:
        try:
            os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            pass
    return killed


def reap_children() -> None:
    """Collect the exit status of this process's finished children (orphans re-parented to it)."""
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def become_subreaper(die_with_parent: bool = True) -> None:
    """Linux: adopt orphaned descendants (``PR_SET_CHILD_SUBREAPER``) and, if asked, get SIGKILL
    when the parent dies (``PR_SET_PDEATHSIG``), so that killing a capture, even with SIGKILL,
    leaves no example running. Does nothing elsewhere."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes  # noqa: PLC0415 - only on Linux

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
        if die_with_parent:
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):
        pass
