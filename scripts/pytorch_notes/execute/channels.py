"""The runner's side of its channels to the parent, and the limits it applies to itself.

Standard library only; loaded by path in the example's process, like its siblings (``runner.py``).
The functions that write the report are bound here at import, before any example code runs: an
example that replaces ``os._exit``, ``os.write`` or ``json.dumps`` does not change what the runner
reports with (it could still reach these objects; see the threat model in CONTRIBUTING).
"""

from __future__ import annotations

import json
import os
import posix
import resource
import sys
import time

if __package__:
    from .streams import valid_text
else:
    from streams import valid_text

_real_exit, _write, _pwrite, _dumps = os._exit, os.write, os.pwrite, json.dumps
SAMPLE_S = 0.05  # seconds between two samples of the running line


def apply_limits(spec_limits: dict) -> None:
    """Apply ``sandbox.Limits`` (as a dict) to this process and so to everything it starts: soft and hard
    limits alike (without ``CAP_SYS_RESOURCE`` a hard limit cannot be raised again), and the out-of-memory
    killer's preference. A limit the kernel refuses (a hard limit already lower) is left as it is."""
    wanted = {resource.RLIMIT_AS: spec_limits.get("memory_bytes"), resource.RLIMIT_FSIZE: spec_limits.get("file_bytes"),
              resource.RLIMIT_NPROC: spec_limits.get("processes")}
    for which, value in wanted.items():
        if value:
            hard = resource.getrlimit(which)[1]
            value = value if hard == resource.RLIM_INFINITY else min(value, hard)
            try:
                resource.setrlimit(which, (value, value))
            except (ValueError, OSError):
                pass
    try:
        with open("/proc/self/oom_score_adj", "w") as f:
            f.write(str(spec_limits.get("oom_score_adj", 1000)))
    except OSError:
        pass


class Reporter:
    """The runner's side of the channels to the parent: JSON lines on ``results_fd``, the running line in
    place on ``position_fd``. Written with the runner's own references to ``os.write``/``json.dumps``."""

    def __init__(self, results_fd: int, position_fd: int, path: str):
        self.results_fd, self.position_fd, self.path, self.pid = results_fd, position_fd, path, os.getpid()

    def emit(self, record: dict) -> None:
        data = (valid_text(_dumps(record, ensure_ascii=False)) + "\n").encode("utf-8")
        while data:
            data = data[_write(self.results_fd, data):]

    def position(self, index: int, line: int) -> None:
        try:
            _pwrite(self.position_fd, f"{index} {line}\n".ljust(40).encode("ascii"), 0)
        except OSError:
            pass

    def line_in_example(self, frame) -> int:
        """The innermost line of the example file on ``frame``'s stack (0 if none)."""
        while frame is not None:
            if frame.f_code.co_filename == self.path:
                return frame.f_lineno
            frame = frame.f_back
        return 0

    def sample(self, main: int, cell: list[int]) -> None:
        """Every ``SAMPLE_S``: the line the main thread runs, into the position channel (a daemon thread)."""
        last = None
        while True:
            time.sleep(SAMPLE_S)
            line = self.line_in_example(sys._current_frames().get(main))
            if line and (cell[0], line) != last:
                last = (cell[0], line)
                self.position(*last)

    def patch_exit(self) -> None:
        """``os._exit``/``posix._exit`` in this process first report the line that called them."""
        def _exit(status=0):
            if os.getpid() == self.pid:
                line = self.line_in_example(sys._getframe(1))
                self.emit({"kind": "exit", "status": status if isinstance(status, int) else 1, "line": line})
            _real_exit(status)
        os._exit = posix._exit = _exit
