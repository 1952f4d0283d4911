"""``make serve``'s command, run and watched by the benchmark: the server of the ``loop`` section and of the
fresh clone (``benchmarks.fresh``), which both import it from here (neither imports the other for it).

``serve_script`` takes the recipe from ``make -n serve`` in a copy of the repository and only moves its
address to a free port; ``Server`` runs it with the variables the Makefile exports (``make_env``), polls the
home page (``fetch``, ``poll_until``) and stops the whole process group.
"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

from benchmarks.repo import BenchError

POLL_S = 0.02
_ADDR_RE = re.compile(r"\b(?:127\.0\.0\.1|localhost|0\.0\.0\.0):\d+\b")
_BUILD_START = ("Detected file changes",)
_BUILD_END = ("Reloading browsers", "An error happened during the rebuild")


# ---------------------------------------------------------------- pure helpers


def serve_script(dry_run: str, port: int) -> str:
    """The shell script of ``make -n serve`` output, with its address moved to ``127.0.0.1:<port>``.

    Raises:
        BenchError: the recipe names no ``host:port`` address (then the port cannot be chosen).
    """
    lines = [ln for ln in dry_run.splitlines() if ln.strip() and not ln.startswith(("make:", "make["))]
    script = "\n".join(lines)
    if not _ADDR_RE.search(script):
        raise BenchError(f"`make -n serve` names no host:port address to move to a free port:\n{script}")
    return _ADDR_RE.sub(f"127.0.0.1:{port}", script)


def build_pending(log: str) -> bool:
    """Whether the server log shows a rebuild that has started and not finished (``mkdocs serve``'s
    "Detected file changes" without its "Reloading browsers" or error line)."""
    starts = sum(log.count(s) for s in _BUILD_START)
    ends = sum(log.count(s) for s in _BUILD_END)
    return starts > ends


def poll_until(check, timeout: float, interval: float = POLL_S, clock=time.perf_counter,
               sleep=time.sleep) -> float | None:
    """Call ``check()`` every ``interval`` s until it is true; the seconds it took, or None after ``timeout``."""
    t0 = clock()
    while True:
        if check():
            return clock() - t0
        if clock() - t0 > timeout:
            return None
        sleep(interval)


# ---------------------------------------------------------------- the server


def free_port() -> int:
    """A TCP port free on 127.0.0.1 now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def clean_make_env(env: dict) -> dict:
    """``env`` without the variables of an enclosing make: its flags, and the variables given on its command
    line, which make also puts in its recipes' environment (``make bench ARGS="--only loop"`` handed its ARGS
    down to the ``make serve`` of the fresh clones: ``mkdocs serve ... --only loop`` exited 2)."""
    given = set(re.findall(r"(?:^|\s)([A-Za-z_]\w*)=", env.get("MAKEFLAGS", "").partition(" -- ")[2]))
    drop = {"MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES"} | given
    return {k: v for k, v in env.items() if k not in drop}


def make_env(root: Path, env: dict) -> dict:
    """The environment make gives its recipes in ``root``: ``env`` plus the Makefile's exports."""
    out = subprocess.run(["make", "-s", "--no-print-directory", "--eval", "__bench_env: ; @env -0", "__bench_env"],
                         cwd=root, env=clean_make_env(env), capture_output=True, check=True).stdout.decode()
    return clean_make_env(dict(item.split("=", 1) for item in out.split("\0") if "=" in item))


def make_dry_run(root: Path, env: dict, target: str = "serve", set_up: bool = False, port: int | None = None) -> str:
    """``make -n <target>`` in ``root`` (``PORT=port``: make serve checks that port, not 8000, which another
    server may hold); without ``set_up``, the virtualenv is taken as installed."""
    cmd = ["make", "-n", "--no-print-directory"] + ([] if set_up else ["-o", ".venv/.installed-stamp"]) + [target]
    cmd += [f"PORT={port}"] if port else []
    return subprocess.run(cmd, cwd=root, env=clean_make_env(env), capture_output=True, text=True, check=True).stdout


def fetch(url: str) -> tuple[int, str]:
    """(HTTP status, body) of ``url``; (0, "") when nothing answers."""
    try:
        with urllib.request.urlopen(url, timeout=60) as resp:
            return resp.status, resp.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as exc:
        return exc.code, ""
    except (OSError, ValueError):
        return 0, ""


class Server:
    """``make serve``'s command run in ``root`` on a free port, its output in ``log``; a context manager
    that stops the whole process group."""

    def __init__(self, root: Path, env: dict, log: Path, set_up: bool = False):
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}/"
        self.script = serve_script(make_dry_run(root, env, "serve", set_up, self.port), self.port)
        self.log = log
        self._out = open(log, "w", encoding="utf-8")  # noqa: SIM115 - closed in stop()
        self.proc = subprocess.Popen(["sh", "-ec", self.script], cwd=root, env=make_env(root, env),
                                     stdout=self._out, stderr=subprocess.STDOUT, start_new_session=True)

    def __enter__(self) -> Server:
        return self

    def __exit__(self, *exc) -> None:
        self.stop()

    def log_text(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace")

    def answers(self) -> bool:
        """Whether the home page answers 200; BenchError if the server has exited."""
        if self.proc.poll() is not None:
            raise BenchError(f"`{self.script}` exited {self.proc.returncode}:\n{self.log_text()[-3000:]}")
        return fetch(self.base)[0] == 200

    def wait_ready(self, timeout: float) -> float:
        """Seconds until the home page answers 200; BenchError if the server exits or ``timeout`` passes."""
        took = poll_until(self.answers, timeout, interval=0.1)
        if took is None:
            raise BenchError(f"the server did not answer within {timeout:.0f} s:\n{self.log_text()[-3000:]}")
        return took

    def wait_quiet(self, settle: float = 1.0, timeout: float = 120.0) -> None:
        """Wait until no rebuild is pending and the log has not grown for ``settle`` seconds."""
        last, since = -1, time.perf_counter()
        deadline = since + timeout
        while time.perf_counter() < deadline:
            text = self.log_text()
            if len(text) != last:
                last, since = len(text), time.perf_counter()
            elif time.perf_counter() - since >= settle and not build_pending(text):
                return
            time.sleep(0.1)
        raise BenchError(f"the server did not settle within {timeout:.0f} s:\n{self.log_text()[-3000:]}")

    def stop(self) -> None:
        if self.proc.poll() is None:
            for sig, wait in ((signal.SIGINT, 10), (signal.SIGTERM, 5), (signal.SIGKILL, 5)):
                try:
                    os.killpg(self.proc.pid, sig)
                    self.proc.wait(wait)
                    break
                except ProcessLookupError:
                    break
                except subprocess.TimeoutExpired:
                    continue
        self._out.close()
