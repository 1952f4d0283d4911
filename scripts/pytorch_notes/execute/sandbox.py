"""Stage 2, execute: the isolation around every example run (parent side). Standard library only.

Examples are code nobody has reviewed yet (a pull request, a contributor's draft), so each runs inside
bubblewrap (``bwrap``, Flatpak's sandbox: https://github.com/containers/bubblewrap) when it can start
here:

* the file system is read-only and shows only what running Python needs: the system folders (``/usr``,
  ``/lib*``, ``/bin``, ``/sys``), an allow-list of ``/etc`` (``ETC_ALLOWED``), the interpreter's
  prefixes (the virtualenv, its bytecode prefix) and ``sys.path`` outside the checkout, the runner's own
  folder and the example's examples folder; nothing else of the checkout (no ``.git``, whose config may
  hold a CI token, no untracked ``.env``, notes, ``site/`` or ``.cache/``); the run's scratch folders
  (working directory, ``HOME``, ``TMPDIR``, matplotlib's cache) are the only writable places; ``/tmp``
  and ``/dev/shm`` are private, empty and of bounded size (``Limits.tmpfs_bytes``), and bubblewrap's own
  root and ``/dev`` are made read-only once set up (they are memory of no bounded size); the kernel's
  settings under ``/proc`` are read-only (``PROC_READ_ONLY``);
* no network (``--unshare-net``: only a loopback), its own PID, IPC and UTS namespaces (host name
  ``sandbox``): every process the example starts dies with it (the kernel ends a PID namespace with
  its first process, and ``--die-with-parent`` ends the sandbox with the capture); its parent is the
  sandbox's first process, which a signal from inside cannot end, so it cannot kill the capture;
* no capabilities (``--cap-drop ALL``), a new session (no terminal to inject keystrokes into);
* an explicit environment (``example_env``: ``ALLOWED`` and the run's own folders); the capturing
  environment's secrets never reach the example.

Where bwrap is missing or cannot start (it needs user namespaces, which some hosts restrict), the run
falls back to a supervised process with the same environment, scratch folders and limits, run as an
unprivileged user where the capture is root, and the capture checks, and undoes, what it changed in the
repository, ``/tmp`` and ``/dev/shm`` (``fallback.py``). ``PYTORCH_NOTES_REQUIRE_SANDBOX=1`` (CI sets
it) turns ``auto`` into ``bwrap``: no run falls back without being asked to. ``Sandbox.isolation``
names which one ran; it goes into the record's provenance.

In both modes the runner applies ``Limits`` to itself before the first cell: memory (``RLIMIT_AS``,
only on the CPU: CUDA reserves far more address space than it uses), file size (``RLIMIT_FSIZE``),
process count (``RLIMIT_NPROC``; the kernel does not apply it to root) and ``oom_score_adj`` 1000, so
that the kernel's out-of-memory killer takes an example before the capture.
"""

from __future__ import annotations

import functools
import glob
import os
import re
import shutil
import subprocess
import sys
from dataclasses import asdict, dataclass
from pathlib import Path

from pytorch_notes.execute.paths import REPO_ROOT
from pytorch_notes.policy import SECRET_NAME

# The capturing environment's variables an example may see (names, and prefixes ending in "_").
# Not PYTHONPYCACHEPREFIX: an example writes no bytecode (FIXED_ENV) and is not told where the capture's is;
# the runner reads it from there (its spec's ``pycache``).
ALLOWED = ("PATH", "LANG", "LANGUAGE", "TZ", "LD_LIBRARY_PATH", "PYTHONPATH", "PYTHONWARNINGS",
           "OMP_NUM_THREADS", "MKL_NUM_THREADS",
           "OPENBLAS_NUM_THREADS", "NUMEXPR_NUM_THREADS", "CUBLAS_WORKSPACE_CONFIG", "LC_", "CUDA_",
           "NVIDIA_", "PYTORCH_", "TORCH_", "TORCHINDUCTOR_")
# Set for every run: reproducible, non-interactive.
FIXED_ENV = {"MPLBACKEND": "Agg", "PYTHONHASHSEED": "0", "PYTHONUNBUFFERED": "1", "PYTHONIOENCODING": "utf-8",
             "TQDM_DISABLE": "1", "PYTHONDONTWRITEBYTECODE": "1"}
REQUIRE = "PYTORCH_NOTES_REQUIRE_SANDBOX"  # set (not "0"): "auto" means "bwrap"
SYSTEM_DIRS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/sys")
# What of /etc an example sees: what the loader, the C library and Python read (an allow-list: /etc holds
# the machine's credentials, from shadow files to a CI runner's or npm's tokens, readable by root).
ETC_ALLOWED = ("ld.so.cache", "ld.so.conf", "ld.so.conf.d", "localtime", "timezone", "passwd", "group",
               "nsswitch.conf", "host.conf", "hosts", "gai.conf", "os-release", "debian_version", "lsb-release",
               "alternatives", "fonts", "mime.types", "magic", "locale.alias", "locale.gen", "matplotlibrc",
               "ssl/certs", "ca-certificates", "python3", "python3.10", "python3.11", "python3.12", "python3.13")
# What of the kernel's /proc an example may not change: the host's settings (/proc/sys: as root without
# capabilities, core_pattern alone runs a program of the example's as root outside the sandbox), IRQs,
# PCI configuration. bubblewrap skips /proc/sys when root cannot access() it for writing; we do not.
PROC_READ_ONLY = ("sys", "irq", "bus", "fs", "sysrq-trigger", "acpi", "scsi", "tty", "driver", "sysvipc")
GPU_DEVICES = ("/dev/nvidia*", "/dev/nvidia-caps", "/dev/dri")


@dataclass(frozen=True)
class Limits:
    """What one example process may use; the runner applies them to itself (``runner.apply_limits``).

    Attributes:
        memory_bytes: address space per process (``RLIMIT_AS``), or None for no bound (CUDA runs).
        file_bytes: largest file it may write (``RLIMIT_FSIZE``).
        processes: processes and threads of its user (``RLIMIT_NPROC``; not applied by the kernel to root).
        oom_score_adj: its ``/proc/self/oom_score_adj`` (1000: the first the out-of-memory killer takes).
        disk_bytes: how much of the disk the run's scratch folders may take (the supervisor watches the
            file system's free space and ends a run that takes more: ``supervise``).
        tmpfs_bytes: the size of the sandbox's own ``/tmp`` and of its ``/dev/shm`` (memory, each).
    """

    memory_bytes: int | None = None
    file_bytes: int = 512 << 20
    processes: int = 4096
    oom_score_adj: int = 1000
    disk_bytes: int = 4 << 30
    tmpfs_bytes: int = 1 << 30

    def as_spec(self) -> dict:
        return asdict(self)


def default_limits(device_kind: str) -> Limits:
    """Limits for a run on ``device_kind``: on the CPU, half the machine's memory per process."""
    if device_kind != "cpu":
        return Limits()
    try:
        memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // 2
    except (ValueError, OSError):
        memory = None
    return Limits(memory_bytes=memory)


def example_env(environ: dict[str, str], home: Path, tmpdir: Path, mplconfig: Path, package_root: Path) -> dict:
    """The environment an example gets: the allow-listed variables of ``environ`` (none whose name looks
    like a secret, ``policy.SECRET_NAME``), ``FIXED_ENV``, its own ``HOME``, ``TMPDIR`` (``TEMP`` and ``TMP``
    too) and ``MPLCONFIGDIR``, ``PYTHONPATH`` without this package (an example must not import the pipeline), and
    ``PYTHONUSERBASE`` where the interpreter has a user site (it moves with ``HOME`` otherwise)."""
    env = {k: v for k, v in environ.items()
           if any(k == a or (a.endswith("_") and k.startswith(a)) for a in ALLOWED) and not SECRET_NAME.search(k)}
    kept = [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p and Path(p).resolve() != package_root]
    env.pop("PYTHONPATH", None)
    if kept:
        env["PYTHONPATH"] = os.pathsep.join(kept)
    env.setdefault("PATH", os.defpath)
    env.update(FIXED_ENV, HOME=str(home), TMPDIR=str(tmpdir), TEMP=str(tmpdir), TMP=str(tmpdir),
               MPLCONFIGDIR=str(mplconfig))
    user_site = _user_site()
    if user_site:
        env["PYTHONUSERBASE"] = user_site[0]
    return env


def _user_site() -> tuple[str, str] | None:
    """(user base, user site folder) of this interpreter when its user site is in use, else None."""
    import site  # noqa: PLC0415 - cheap, already imported by the interpreter

    folder = site.getusersitepackages() if site.ENABLE_USER_SITE else None
    return (site.getuserbase(), folder) if folder and folder in sys.path and os.path.isdir(folder) else None


@functools.cache
def bwrap_status(executable: str = "bwrap") -> tuple[str | None, str]:
    """(path, version) of a bubblewrap that can start a sandbox here, or (None, why not). Tried once per
    process with the namespaces the runs use, so a host that restricts user namespaces falls back."""
    path = shutil.which(executable)
    if path is None:
        return None, "bubblewrap (bwrap) is not installed"
    try:
        probe = subprocess.run([path, "--ro-bind", "/", "/", "--unshare-pid", "--unshare-net", "--unshare-ipc",
                                "--die-with-parent", "--cap-drop", "ALL", "true"],
                               capture_output=True, text=True, timeout=20, stdin=subprocess.DEVNULL)
        version = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=20).stdout.split()
    except (OSError, subprocess.SubprocessError) as exc:
        return None, f"bwrap did not start: {exc}"
    if probe.returncode != 0:
        why = (probe.stderr.strip().splitlines() or [f"exit status {probe.returncode}"])[-1]
        return None, f"bwrap cannot start here: {why}"
    return path, version[-1] if version else "?"


def sandbox_required(environ: dict | None = None) -> bool:
    """Whether ``PYTORCH_NOTES_REQUIRE_SANDBOX`` is set (to anything but ``0`` or nothing)."""
    return (environ if environ is not None else os.environ).get(REQUIRE, "0") not in ("", "0")


class Sandbox:
    """How this capture isolates its example runs.

    Args:
        root: the repository whose examples run (checked, and its changes undone, after each run in the
            fallback; under bubblewrap only its examples folder is visible): the parent of the examples folder.
        mode: ``"auto"`` (bubblewrap when it starts here, else supervised; ``"bwrap"`` when
            ``PYTORCH_NOTES_REQUIRE_SANDBOX`` is set), ``"bwrap"`` (raise SandboxError when it cannot start)
            or ``"supervised"``.

    Raises:
        SandboxError: bubblewrap is required (``mode``, or the variable) and cannot start here.
    """

    def __init__(self, root: Path, mode: str = "auto"):
        self.root = Path(root).resolve()
        self.bwrap, why = bwrap_status() if mode != "supervised" else (None, "supervised mode was asked for")
        if self.bwrap is None and (mode == "bwrap" or (mode == "auto" and sandbox_required())):
            raise SandboxError(why if mode == "bwrap" else f"{REQUIRE} is set, but {why}")
        self.version = why if self.bwrap else ""
        self.fallback_reason = "" if self.bwrap else why
        self.fallback_note = ""  # what the fallback cannot stop (``fallback.Fallback.warning``), set by its user

    @property
    def isolation(self) -> str:
        """``"bwrap <version>"`` or ``"supervised"``: the record's ``provenance.isolation``."""
        return f"bwrap {self.version}" if self.bwrap else "supervised"

    def describe(self) -> str:
        """One line for the capture's report."""
        if self.bwrap:
            return (f"isolation: bubblewrap {self.version} (read-only examples and virtualenv, nothing else of "
                    f"the checkout, no network, cleared environment, own PID namespace)")
        note = f"; warning: {self.fallback_note}" if self.fallback_note else ""
        return (f"isolation: supervised processes, the repository checked after each run ({self.fallback_reason}; "
                f"install bubblewrap for a sandbox){note}")

    def command(self, argv: list[str], run: Path, writable: list[Path], readable: list[Path],
                info_fd: int | None = None, limits: Limits | None = None) -> list[str]:
        """``argv`` wrapped for this sandbox (unchanged in the fallback). ``run`` is the run's folder,
        ``writable`` the folders the example may write (the first is its working directory), ``readable``
        the files and folders it may read besides Python's (its examples folder, the spec); ``info_fd``
        receives bubblewrap's JSON about the sandbox (its first process: ``child-pid``);
        ``limits.tmpfs_bytes`` sizes its ``/tmp`` and ``/dev/shm``."""
        if not self.bwrap:
            return argv
        size = str((limits or Limits()).tmpfs_bytes)
        cmd = [self.bwrap, "--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts",
               "--hostname", "sandbox", "--die-with-parent", "--new-session", "--cap-drop", "ALL",
               "--dev", "/dev", "--proc", "/proc", "--size", size, "--tmpfs", "/tmp",
               "--size", size, "--tmpfs", "/dev/shm"]
        cmd += [x for name in PROC_READ_ONLY if os.path.exists(f"/proc/{name}")
                for x in ("--ro-bind", f"/proc/{name}", f"/proc/{name}")]
        for link in SYSTEM_DIRS:  # merged /usr: /bin, /lib, /lib64 are links (the ELF loader's path among them)
            if os.path.islink(link):
                cmd += ["--symlink", os.readlink(link), link]
        for folder in _readable_roots((self.root, REPO_ROOT)):
            cmd += ["--ro-bind", folder, folder]
        for name in ETC_ALLOWED:
            cmd += ["--ro-bind-try", f"/etc/{name}", f"/etc/{name}"]
        for pattern in GPU_DEVICES:
            for dev in sorted(glob.glob(pattern)):
                cmd += ["--dev-bind", dev, dev]
        for path in readable:
            cmd += ["--ro-bind", str(path), str(path)]
        for folder in writable:
            cmd += ["--bind", str(folder), str(folder)]
        # bubblewrap's root and /dev are tmpfs without a size: read-only once the mounts above are made
        cmd += ["--remount-ro", "/dev", "--remount-ro", "/"]
        if info_fd is not None:
            cmd += ["--info-fd", str(info_fd)]
        # No --clearenv/--setenv: bwrap is started with the example's environment only (``example_env``),
        # which it passes on; values never appear on a command line (/proc/<pid>/cmdline is world-readable).
        return [*cmd, "--chdir", str(writable[0]), "--", *argv]


class SandboxError(RuntimeError):
    """The sandbox that was asked for cannot start here; the message says why."""


def _inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def _readable_roots(hidden: tuple[Path, ...]) -> list[str]:
    """The folders bound read-only: the system's, the interpreter's (the virtualenv, even inside the
    checkout), its bytecode prefix, ``sys.path``'s outside the ``hidden`` folders (the checkout: its
    ``scripts/`` and ``tests/`` are on the capture's path) and this package's ``execute`` folder (the
    runner), each once (a folder inside another bound one is skipped)."""
    found = [d for d in SYSTEM_DIRS if os.path.isdir(d) and not os.path.islink(d)]
    prefixes = {os.path.realpath(p) for p in (sys.prefix, sys.base_prefix, sys.exec_prefix,
                                              os.path.dirname(os.path.realpath(sys.executable)))}
    python = set(prefixes)
    if sys.pycache_prefix and os.path.isdir(sys.pycache_prefix):
        python.add(os.path.realpath(sys.pycache_prefix))
    hide = [os.path.realpath(h) for h in hidden]
    for entry in sys.path:
        if entry and os.path.isabs(entry) and os.path.isdir(entry):
            real = os.path.realpath(entry)
            if any(_inside(real, p) for p in prefixes) or not any(_inside(real, h) for h in hide):
                python.add(real)
    user = _user_site()
    if user:
        python.add(user[1])
    extra = sorted(python | {str(Path(__file__).resolve().parent)})
    for path in extra:
        if not any(_inside(path, f) for f in found):
            found.append(path)
    return [f for f in found if not re.match(r"^/(proc|dev)(/|$)", f) and f != "/tmp"]


def runner_pid(info_path: Path) -> int | None:
    """The runner's pid (as this process sees it) from bubblewrap's ``--info-fd`` file: the only child
    of the sandbox's first process (``child-pid``). None when it is gone or not known."""
    try:
        text = info_path.read_text(encoding="utf-8")
        first = int(re.search(r'"child-pid"\s*:\s*(\d+)', text).group(1))
        with open(f"/proc/{first}/task/{first}/children", encoding="ascii") as f:
            children = f.read().split()
    except (OSError, AttributeError, ValueError):
        return None
    return int(children[0]) if children else None
