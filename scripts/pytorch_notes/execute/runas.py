"""Start an example as a user of its own: the fallback's launcher when the capture is root. Standard library
only; Linux.

A user of its own is a uid, and a gid of the same number, that no account, group or running process of this
machine has (``fresh_id``), picked again for each run: whatever that uid owns in ``/tmp`` or ``/dev/shm``
after the run was made by the run, and by nothing else, so the fallback can remove it (``fallback.py``), and a
file one run left readable only to itself is not readable to the next.

``command`` wraps the runner's command line: this file runs first, as root, in the interpreter's isolated
mode (no environment variables, no site), and before it executes the runner it

* drops from the bounding set every capability but the ones kept (where it may: ``CAP_SETPCAP``),
* sets no supplementary groups, then the gid and the uid (real, effective and saved),
* keeps only the capabilities asked for, as ambient ones (inherited by every program the example starts),
* sets ``no_new_privs`` (a set-user-ID program, ``su`` or ``sudo``, then gains nothing),
* checks that it can no longer become root and holds no other capability (else it stops, exit status
  ``FAILED``, and the runner never starts),
* sets ``USER`` and ``LOGNAME`` to ``NAME`` (no account has the uid: ``getpass.getuser`` would raise).

The one capability ever kept is ``CAP_DAC_READ_SEARCH`` (read any file, enter any folder): where the
interpreter lives in a folder other users cannot enter (a ``/root/.pyenv`` virtualenv), the example needs it to
start at all. It can then read every file, as it could run as root, but cannot write what root owns, signal or
trace the capture, or read the memory or environment of another user's process (``/proc/<pid>/environ``
needs ptrace access, which that capability does not give).
"""

from __future__ import annotations

import os
import random
import subprocess
import sys

NAME = "pn-example"  # USER and LOGNAME of the example
FAILED = 126  # exit status of a launcher that could not drop root
LOW, HIGH = 1 << 28, (1 << 31) - 1  # where fresh ids are picked: above every distribution's and subuid ranges
CAPABILITIES = {"dac_read_search": 2}  # from <linux/capability.h>
PR_SET_KEEPCAPS, PR_CAPBSET_DROP, PR_SET_NO_NEW_PRIVS, PR_CAP_AMBIENT = 8, 24, 38, 47
PR_CAP_AMBIENT_RAISE, PR_CAP_AMBIENT_CLEAR_ALL = 2, 4
CAPABILITY_VERSION_3 = 0x20080522


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
    (names of ``CAPABILITIES``) by this file, run as root (see the module docstring)."""
    return [os.path.realpath(sys.executable), "-I", "-S", os.path.abspath(__file__), str(uid), str(gid),
            ",".join(keep), "--", *argv]


def probe(uid: int, gid: int, keep: tuple[str, ...], paths: list[str]) -> str:
    """"" when this interpreter starts as ``uid``/``gid`` with ``keep`` and reads every path of ``paths``
    (a folder is listed), else why not (one line)."""
    check = "import os, sys\nfor p in sys.argv[1:]:\n    os.listdir(p) if os.path.isdir(p) else open(p, 'rb').close()"
    try:
        done = subprocess.run(command([os.path.abspath(sys.executable), "-c", check, *paths], uid, gid, keep),
                              capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL,
                              env={"PATH": os.environ.get("PATH", os.defpath)}, cwd="/")
    except (OSError, subprocess.SubprocessError) as exc:
        return f"it did not start: {exc}"
    if done.returncode != 0:
        return (done.stderr.strip().splitlines() or [f"exit status {done.returncode}"])[-1]
    return ""


def _drop(uid: int, gid: int, keep: tuple[int, ...]) -> None:
    """Become ``uid``/``gid`` holding only the capabilities ``keep``, ambient; raise OSError when that fails."""
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)

    def prctl(option: int, arg: int = 0, arg3: int = 0, strict: bool = True) -> None:
        if libc.prctl(ctypes.c_int(option), ctypes.c_ulong(arg), ctypes.c_ulong(arg3), ctypes.c_ulong(0),
                      ctypes.c_ulong(0)) != 0 and strict:
            err = ctypes.get_errno()
            raise OSError(err, f"prctl({option}, {arg}, {arg3}): {os.strerror(err)}")

    with open("/proc/sys/kernel/cap_last_cap", encoding="ascii") as f:
        last = int(f.read())
    prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, strict=False)  # kernels before 4.3 have no ambient set
    for cap in range(last + 1):
        if cap not in keep:
            prctl(PR_CAPBSET_DROP, cap, strict=False)  # needs CAP_SETPCAP; no_new_privs covers the rest
    prctl(PR_SET_KEEPCAPS, 1 if keep else 0)
    os.setgroups([])
    os.setresgid(gid, gid, gid)
    os.setresuid(uid, uid, uid)
    if keep:
        class Header(ctypes.Structure):
            _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]

        class Data(ctypes.Structure):
            _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32),
                        ("inheritable", ctypes.c_uint32)]

        bits = sum(1 << cap for cap in keep)
        data = (Data * 2)(Data(bits & 0xFFFFFFFF, bits & 0xFFFFFFFF, bits & 0xFFFFFFFF),
                          Data(bits >> 32, bits >> 32, bits >> 32))
        if libc.capset(ctypes.byref(Header(CAPABILITY_VERSION_3, 0)), data) != 0:
            err = ctypes.get_errno()
            raise OSError(err, f"capset: {os.strerror(err)}")
        for cap in keep:
            prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, cap)
    prctl(PR_SET_NO_NEW_PRIVS, 1)
    _check(uid, gid, sum(1 << cap for cap in keep))


def _check(uid: int, gid: int, bits: int) -> None:
    """Raise OSError unless this process is ``uid``/``gid`` for good, holding no capability but ``bits``."""
    if os.getresuid() != (uid,) * 3 or os.getresgid() != (gid,) * 3 or os.getgroups():
        raise OSError(f"ids are {os.getresuid()} {os.getresgid()} {os.getgroups()}")
    try:
        os.setuid(0)
    except PermissionError:
        pass
    else:
        raise OSError("the example could become root again")
    with open("/proc/self/status", encoding="ascii") as f:
        caps = {k: int(v, 16) for k, v in (line.split(":", 1) for line in f) if k in ("CapEff", "CapPrm", "CapAmb")}
    if any(v & ~bits for v in caps.values()):
        raise OSError(f"capabilities left: {caps}")


def main(args: list[str]) -> None:
    """``UID GID KEEP -- PROGRAM ARGS...``: drop root as described above and execute ``PROGRAM``."""
    try:
        uid, gid, keep, dash, *argv = args
        if dash != "--" or not argv or int(uid) <= 0 or int(gid) <= 0:
            raise ValueError(f"usage: UID GID KEEP -- PROGRAM ARGS..., not {args!r}")
        _drop(int(uid), int(gid), tuple(CAPABILITIES[name] for name in keep.split(",") if name))
        os.environ["USER"] = os.environ["LOGNAME"] = NAME
        os.execv(argv[0], argv)
    except (OSError, ValueError, KeyError) as exc:
        sys.stderr.write(f"the capture could not start the example as a user of its own: {exc}\n")
        sys.stderr.flush()
        os._exit(FAILED)


if __name__ == "__main__":
    main(sys.argv[1:])
