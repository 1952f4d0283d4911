"""Stage 2b, execute (parent side): run an example in a fresh, isolated process with a timeout.

Standard library only. A ``Supervisor`` owns one capture's runs: its isolation (``sandbox.Sandbox``:
bubblewrap, or a supervised process with a repository check), its device kind, found by its own probe
(``host_device``), and the runs in progress (``cancel_all``). The child is ``runner.py``, run by path
with the example's cells in a spec file. Everything of one run lives in a temporary ``pn-run-*``
directory, removed afterwards: the spec, the channels the runner reports on (results, stack dumps,
the running line), the two files the child's file descriptors 1 and 2 write to (no pipe: a descendant
that outlives the example cannot hold up the capture), and the scratch folders the example may write:
its working directory ``work/``, ``TMPDIR`` ``tmp/``, ``HOME`` ``home/`` and matplotlib's ``mpl/``.

The parent owns the facts: the device, versions and isolation of a record come from this process
(``provenance``), and what the run was comes from ``outcome.py``, which checks the runner's report
against the example and the kernel's exit status. The timeout bounds the example with all its
descendants (the sandbox's PID namespace, and ``proctree`` in the fallback); every wait is bounded.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from pytorch_notes.execute import outcome
from pytorch_notes.execute.fallback import Fallback
from pytorch_notes.execute.mplcache import mpl_config
from pytorch_notes.execute.paths import REPO_ROOT, PathScrubber
from pytorch_notes.execute.proctree import become_subreaper, kill_tree, now_ticks
from pytorch_notes.execute.provenance import host_device, imported_modules, provenance, this_device_kind
from pytorch_notes.execute.result import CellResult, RunResult
from pytorch_notes.execute.rundir import new_run_dir, prepare, remove, sweep_stale_run_dirs, tail
from pytorch_notes.execute.sandbox import Limits, Sandbox, default_limits, example_env, runner_pid
from pytorch_notes.parse import Example

RUNNER = Path(__file__).resolve().parent / "runner.py"
GRACE_S = 2.0  # after the timeout's SIGINT, seconds the runner gets to record the line it was on
DISK_CHECK_S = 0.5  # how often a run's disk use is looked at
MIN_FREE = 256 << 20  # bytes a run may never leave free on its file system
WAIT_S = 5.0  # bound on every other wait for a killed process


class _Run:
    """A child in progress, as ``cancel_all`` sees it."""

    def __init__(self, proc: subprocess.Popen):
        self.proc, self.cancelled = proc, False

    def kill(self) -> None:
        """Kill the child's whole tree while it is unreaped (so its pid is still its own)."""
        if self.proc.returncode is None:
            kill_tree(self.proc.pid, session=self.proc.pid, include_root=True)


class Supervisor:
    """The runs of one capture.

    Args:
        root: the repository of the examples (``examples/``'s parent): read-only to them, and checked
            after each run in the fallback.
        kind: the device kind the records are for; default ``this_device_kind()``.
        mode: the sandbox to use (``sandbox.Sandbox``): ``"auto"``, ``"bwrap"`` or ``"supervised"``.
        extra_env: variables added to every example's environment (tests and tools only).
        shared: folders every example may also write (tests and tools only).
        limits: what each example process may use; default ``sandbox.default_limits(kind)``.
        own_user: in the fallback run by root, run each example as a user of its own (``fallback.py``);
            False runs it as the capture's user, as where the capture is not root (tests of the undo).

    Raises:
        SandboxError: ``mode="bwrap"`` and bubblewrap cannot start here.
    """

    def __init__(self, root: Path = REPO_ROOT, kind: str | None = None, mode: str = "auto",
                 extra_env: dict[str, str] | None = None, shared: tuple[Path, ...] = (),
                 limits: Limits | None = None, own_user: bool = True):
        self.sandbox = Sandbox(root, mode)
        self.kind = kind or this_device_kind()
        self.limits = limits or default_limits(self.kind)
        self.extra_env, self.shared = dict(extra_env or {}), tuple(Path(p) for p in shared)
        self._lock = threading.Lock()
        self._serial = threading.Lock()  # the fallback's repository check needs one run at a time
        self._active: set[_Run] = set()
        self._generation = 0  # bumped by cancel_all: a run started before and registered after it is cancelled
        self.fallback = None if self.sandbox.bwrap else Fallback(self.sandbox.root, own_user)
        if self.fallback is not None:
            self.sandbox.fallback_note = self.fallback.warning()
            # Without a PID namespace, a daemon that leaves the run's session outlives the run unless it
            # is re-parented to this process: it is then found, and killed, after the run (kill_started_since).
            become_subreaper(die_with_parent=False)
        sweep_stale_run_dirs()

    @property
    def isolation(self) -> str:
        return self.sandbox.isolation

    def cancel_all(self) -> None:
        """Kill every run in progress, with all its descendants (e.g. on Ctrl-C).

        Safe to call from any thread; returns at once after the kills. Each ``run`` that was running
        returns promptly with status ``"cancelled"`` and removes its temporary files. Runs that start
        afterwards run normally.
        """
        with self._lock:
            self._generation += 1
            runs = list(self._active)
            for run in runs:
                run.cancelled = True
        for run in runs:
            run.kill()

    def run(self, example: Example, timeout_s: float | None = None, workdir: Path | None = None) -> RunResult:
        """Run ``example`` in a fresh interpreter and collect per-cell outputs.

        Args:
            example: the parsed example.
            timeout_s: override of ``example.timeout_s``, seconds; bounds the example with every
                process it starts.
            workdir: a folder to run in instead of a fresh scratch one (tools: ``script.run_script``); it
                is made writable to the example (bound into the sandbox; in the fallback, given to the
                example's user with everything in it).

        Returns:
            A :class:`RunResult`; this method does not raise for anything the example does.
        """
        limit = example.timeout_s if timeout_s is None else timeout_s
        with self._lock:
            generation = self._generation
        tmp = new_run_dir()
        try:
            if self.fallback is None:
                return self._run(example, limit, tmp, generation, workdir)
            with self._serial:
                own = (tempfile.gettempdir(),)  # where this capture's run folders are, maybe in the repository
                with self.fallback.watch(own, now_ticks()) as seen:
                    result = self._run(example, limit, tmp, generation, workdir)
            if seen.repository and result.status != "cancelled":
                shown = "; ".join(seen.repository[:20])
                shown += f"; and {len(seen.repository) - 20} more" if len(seen.repository) > 20 else ""
                result.status = "failed"
                result.message = f"the example changed the repository ({self.isolation}, no sandbox): {shown}"
            return result
        finally:
            remove(tmp)

    def _spawn(self, example: Example, tmp: Path, workdir: Path | None) -> tuple[subprocess.Popen, dict]:
        folders, files, fds = prepare(tmp)
        if workdir is not None:
            folders["work"] = Path(workdir)
        if "matplotlib" in imported_modules([c.source for c in example.cells]):
            mpl_config(folders["mpl"])
        spec = {"path": str(example.path), "root": str(REPO_ROOT), "scratch": str(folders["work"]),
                "pycache": sys.pycache_prefix,
                "tmpdir": str(folders["tmp"]), "stdout": str(files["stdout"]), "stderr": str(files["stderr"]),
                "results_fd": fds["results"], "stack_fd": fds["stack"], "position_fd": fds["position"],
                "limits": self.limits.as_spec(),
                "cells": [{"index": c.index, "line": c.line, "source": c.source, "metadata": c.metadata}
                          for c in example.cells]}
        (tmp / "spec.json").write_text(json.dumps(spec, ensure_ascii=False), encoding="utf-8")
        env = example_env({**os.environ, **self.extra_env}, folders["home"], folders["tmp"], folders["mpl"],
                          RUNNER.parents[2])
        env.update(self.extra_env)
        argv = [os.path.abspath(sys.executable), str(RUNNER), str(tmp / "spec.json")]
        scratch = [folders["work"], folders["tmp"], folders["home"], folders["mpl"]]
        examples = Path(str(example.path)[: -len(example.rel)]) if str(example.path).endswith(example.rel) \
            else example.path.parent  # the example's examples folder, all the sandbox shows of the checkout
        cmd = self.sandbox.command(argv, tmp, [*scratch, *self.shared],
                                   [examples, tmp / "spec.json", files["stdout"], files["stderr"]], info_fd=fds["info"],
                                   limits=self.limits)
        if self.fallback is not None:
            self.fallback.hand_over(tmp, [*scratch, *self.shared, tmp / "spec.json", files["stdout"], files["stderr"]])
            cmd = self.fallback.command(cmd)  # as the example's own user, when the capture is root
        try:
            # A new session: a straggler of the example is found by its session id (the fallback).
            proc = subprocess.Popen(cmd, cwd=folders["work"], env=env, start_new_session=True,
                                    stdin=subprocess.DEVNULL, stdout=fds["stdout"], stderr=fds["stderr"],
                                    pass_fds=[fds[k] for k in ("results", "stack", "position", "info")])
        finally:
            for fd in fds.values():
                os.close(fd)
        return proc, {**files, **folders}

    def _interrupt(self, proc: subprocess.Popen, paths: dict) -> None:
        """On a timeout: dump the stacks (SIGUSR2), then interrupt the cell (SIGINT) and give the runner
        ``GRACE_S`` to record the traceback of the line it was on. Signals go to the runner itself, inside
        the sandbox when there is one (bubblewrap does not forward signals)."""
        pid = runner_pid(paths["info"]) if self.sandbox.bwrap else proc.pid
        if pid is None:
            return
        for sig, wait in ((signal.SIGUSR2, 0.5), (signal.SIGINT, GRACE_S)):
            try:
                os.kill(pid, sig)
            except ProcessLookupError:
                return
            if sig == signal.SIGUSR2:
                end = time.monotonic() + wait
                while time.monotonic() < end and paths["stack"].stat().st_size == 0:
                    time.sleep(0.01)
                continue
            try:
                proc.wait(timeout=wait)
            except subprocess.TimeoutExpired:
                pass

    def _run(self, example: Example, limit: float, tmp: Path, generation: int, workdir: Path | None) -> RunResult:
        t0 = time.perf_counter()
        proc, paths = self._spawn(example, tmp, workdir)
        run = _Run(proc)
        with self._lock:
            self._active.add(run)
            run.cancelled = self._generation != generation
        timed_out = disk = False
        try:
            if run.cancelled:
                run.kill()
            disk = self._wait(proc, limit, tmp)
        except subprocess.TimeoutExpired:
            timed_out = not run.cancelled
            if timed_out:
                self._interrupt(proc, paths)
        finally:
            run.kill()
            try:
                proc.wait(timeout=WAIT_S)
            except subprocess.TimeoutExpired:
                pass  # stuck in the kernel (uninterruptible sleep): give up on it rather than hang
            kill_tree(-1, session=proc.pid, deadline_s=1.0)  # stragglers that left the tree before the runner died
            with self._lock:
                self._active.discard(run)
        wall = round(time.perf_counter() - t0, 4)
        scrub = PathScrubber(str(paths["work"]), str(paths["tmp"]), REPO_ROOT, home=str(paths["home"]))
        result = RunResult(example, "ok", [], wall, wall, device_kind=self.kind,
                           captured_at=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                           process_output=scrub.text(tail(paths["stdout"]) + tail(paths["stderr"])),
                           provenance=provenance([c.source for c in example.cells], host_device(), self.isolation))
        report = outcome.read_report(paths["results"])
        result.cells = [CellResult(c["index"], c["line"], c["ok"], c["duration_s"], c["outputs"]) for c in report.cells]
        if report.end is not None:
            result.duration_s = min(max(float(report.end["duration_s"]), 0.0), wall)
        evidence = outcome.Evidence(report, proc.returncode, bool(self.sandbox.bwrap), self.kind,
                                    outcome.read_position(paths["position"]),
                                    tail(paths["stack"]) if not run.cancelled else "",
                                    (paths["stdout"], paths["stderr"]), scrub.text)
        try:
            verdict = outcome.judge(example, evidence, run.cancelled, timed_out, limit)
        except (ValueError, TypeError, KeyError, IndexError, OverflowError, RecursionError) as exc:
            # read_report checks every record it keeps; this is the net for what it did not foresee
            verdict = outcome.Verdict("failed", example.cells[0].line, f"the run's report cannot be trusted: {exc!r}")
        if disk and not run.cancelled:
            verdict = outcome.Verdict("failed", verdict.line or example.cells[0].line,
                                      f"the example wrote more than {self.limits.disk_bytes / 2**30:g} GiB to the "
                                      f"disk (its scratch folders); stopped")
        result.status, result.error_line, result.message = verdict.status, verdict.line, verdict.message
        return result

    def _wait(self, proc: subprocess.Popen, limit: float, tmp: Path) -> bool:
        """Wait for ``proc`` up to ``limit`` seconds (raises TimeoutExpired) while watching the disk: True,
        at once, when the file system of the run's folder lost more than ``limits.disk_bytes`` since the
        start, or has less than ``MIN_FREE`` left (the per-file limit does not bound how many files)."""
        end = time.monotonic() + limit
        free = shutil.disk_usage(tmp).free
        while True:
            try:
                proc.wait(timeout=min(DISK_CHECK_S, max(0.0, end - time.monotonic())))
                return False
            except subprocess.TimeoutExpired:
                if time.monotonic() >= end:
                    raise
            now = shutil.disk_usage(tmp).free
            if free - now > self.limits.disk_bytes or (now < MIN_FREE < free):
                return True


def run_example(example: Example, timeout_s: float | None = None, **supervisor) -> RunResult:
    """Run one example with a ``Supervisor`` of its own (``supervisor``: its keyword arguments; the root
    defaults to the parent of the example's examples folder). See ``Supervisor.run``."""
    supervisor.setdefault("root", example.path.parent.parent.parent)
    return Supervisor(**supervisor).run(example, timeout_s)


__all__ = ["CellResult", "RunResult", "Supervisor", "host_device", "run_example", "this_device_kind"]
