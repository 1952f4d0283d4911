"""Start an example as a user of its own: the fallback's launcher when the capture is root. Standard library
and util-linux's ``setpriv`` (Debian's and Ubuntu's util-linux); Linux.

A user of its own is a uid, and a gid of the same number, that no account, group or running process of this
machine has (``fresh_id``), picked again for each run: whatever that uid owns in ``/tmp`` or ``/dev/shm``
after the run was made by the run, and by nothing else, so the fallback can remove it (``fallback.py``), and a
file one run left readable only to itself is not readable to the next.

``command`` wraps the runner's command line in ``setpriv``, which, before it executes the runner, drops every
capability but the ones kept from the bounding, inheritable and ambient sets, sets no supplementary groups,
then the gid and the uid (real, effective and saved), keeps the capabilities asked for as ambient ones
(inherited by every program the example starts), and sets ``no_new_privs`` (a set-user-ID program, ``su`` or
``sudo``, then gains nothing); when any of that fails it runs nothing (exit status 127). ``env`` then sets
``USER`` and ``LOGNAME`` to ``NAME`` (no account has the uid: ``getpass.getuser`` would raise). ``probe``, run
once per capture, checks from inside such a process that it cannot become root again and holds no other
capability; ``tests/execute/test_fallback_own_user.py`` checks the same, and that uid 0 is refused.

The one capability ever kept is ``CAP_DAC_READ_SEARCH`` (read any file, enter any folder): where the
interpreter lives in a folder other users cannot enter (a ``/root/.pyenv`` virtualenv), the example needs it to
start at all. It can then read every file, as it could run as root, but cannot write what root owns, signal or
trace the capture, or read the memory or environment of another user's process (``/proc/<pid>/environ``
needs ptrace access, which that capability does not give).
"""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys

NAME = "pn-example"  # USER and LOGNAME of the example
LOW, HIGH = 1 << 28, (1 << 31) - 1  # where fresh ids are picked: above every distribution's and subuid ranges
CAPABILITIES = {"dac_read_search": 1 << 2}  # what a launch may keep: setpriv's name, bit of <linux/capability.h>


def launcher() -> str | None:
    """The path of ``setpriv`` (util-linux) on ``PATH``, or None where it is missing."""
    return shutil.which("setpriv")


def _spans(path: str) -> list[tuple[int, int]]:
    """The ids this user namespace maps (``/proc/self/uid_map`` or ``gid_map``), as [start, end) spans."""
    try:
        with open(path, encoding="ascii") as f:
            rows = [line.split() for line in f]
        return [(int(inside), int(inside) + int(count)) for inside, _, count in rows]
    except (OSError, ValueError):
        return [(0, 1 << 32)]


def _subordinate() -> list[tuple[int, int]]:
    """The ids ``/etc/subuid`` and ``/etc/subgid`` hand to users' containers, as [start, end) spans."""
    spans = []
    for path in ("/etc/subuid", "/etc/subgid"):
        try:
            with open(path, encoding="utf-8") as f:
                for line in f:
                    parts = line.strip().split(":")
                    if len(parts) == 3 and parts[1].isdigit() and parts[2].isdigit():
                        spans.append((int(parts[1]), int(parts[1]) + int(parts[2])))
        except OSError:
            pass
    return spans


def ids_in_use() -> set[int]:
    """Every uid and gid (real, effective, saved, file system) of the processes running now."""
    found: set[int] = set()
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/status", encoding="ascii", errors="replace") as f:
                    for line in f:
                        if line.startswith(("Uid:", "Gid:")):
                            found.update(int(x) for x in line.split()[1:])
            except (OSError, ValueError):
                continue
    return found


def fresh_id() -> int | None:
    """A uid and gid (one number) between ``LOW`` and ``HIGH`` that this user namespace maps and that no
    account, group, subordinate range or running process has; None when 64 tries found none."""
    import grp
    import pwd

    mapped = [(max(a, c, LOW), min(b, d, HIGH)) for a, b in _spans("/proc/self/uid_map")
              for c, d in _spans("/proc/self/gid_map")]
    mapped = [(a, b) for a, b in mapped if a < b]
    if not mapped:
        return None
    taken, subordinate, pick = ids_in_use(), _subordinate(), random.SystemRandom()
    for _ in range(64):
        start, end = pick.choices(mapped, weights=[b - a for a, b in mapped])[0]
        ident = pick.randrange(start, end)
        if ident in taken or any(a <= ident < b for a, b in subordinate):
            continue
        try:
            pwd.getpwuid(ident)
            continue
        except KeyError:
            pass
        try:
            grp.getgrgid(ident)
            continue
        except KeyError:
            return ident
    return None


def command(argv: list[str], uid: int, gid: int, keep: tuple[str, ...] = ()) -> list[str]:
    """``argv`` (an absolute program first) started as ``uid``/``gid`` with only the capabilities ``keep``
    (names of ``CAPABILITIES``), by ``setpriv`` run as root (see the module docstring). Raises ValueError for
    uid or gid 0 or below or a capability not in ``CAPABILITIES``, FileNotFoundError without ``setpriv``."""
    if uid <= 0 or gid <= 0 or any(name not in CAPABILITIES for name in keep):
        raise ValueError(f"not a user of its own: uid {uid}, gid {gid}, capabilities {keep}")
    setpriv = launcher()
    if setpriv is None:
        raise FileNotFoundError("setpriv (util-linux) is not on PATH")
    caps = "-all" + "".join(f",+{name}" for name in keep)
    return [setpriv, f"--reuid={uid}", f"--regid={gid}", "--clear-groups", f"--inh-caps={caps}",
            f"--ambient-caps={caps}", f"--bounding-set={caps}", "--no-new-privs", "--",
            shutil.which("env") or "/usr/bin/env", "--", f"USER={NAME}", f"LOGNAME={NAME}", *argv]


CHECK = """import os, sys
uid, gid, bits = (int(a) for a in sys.argv[1:4])
st = dict(line.split(':', 1) for line in open('/proc/self/status') if ':' in line)
held = {k: int(st[k], 16) for k in ('CapInh', 'CapPrm', 'CapEff', 'CapBnd', 'CapAmb')}
if os.getresuid() != (uid,) * 3 or os.getresgid() != (gid,) * 3 or os.getgroups():
    sys.exit(f'ids are {os.getresuid()} {os.getresgid()} {os.getgroups()}')
if any(v & ~bits for v in held.values()) or int(st['NoNewPrivs']) != 1:
    sys.exit(f'capabilities left: {held}, NoNewPrivs {st["NoNewPrivs"].strip()}')
try:
    os.setuid(0)
except PermissionError:
    pass
else:
    sys.exit('it could become root again')
for p in sys.argv[4:]:
    os.listdir(p) if os.path.isdir(p) else open(p, 'rb').close()
"""


def probe(uid: int, gid: int, keep: tuple[str, ...], paths: list[str]) -> str:
    """"" when this interpreter starts as ``uid``/``gid`` holding no capability but ``keep``,
    with ``no_new_privs``, cannot become root again and reads every path of ``paths`` (a folder is listed),
    else why not (one line)."""
    bits = sum(CAPABILITIES.get(name, 0) for name in keep)
    try:
        done = subprocess.run(command([os.path.abspath(sys.executable), "-c", CHECK, str(uid), str(gid), str(bits),
                                       *paths], uid, gid, keep),
                              capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL,
                              env={"PATH": os.environ.get("PATH", os.defpath)}, cwd="/")
    except (OSError, ValueError, subprocess.SubprocessError) as exc:
        return f"it did not start: {exc}"
    if done.returncode != 0:
        return (done.stderr.strip().splitlines() or [f"exit status {done.returncode}"])[-1]
    return ""
