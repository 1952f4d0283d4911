"""One progress line while something long runs beside a build or the server (the notebooks' conversions).

On a terminal the line is drawn in place (``notebook views 12/68``) and redrawn after each step; a log line
MkDocs prints meanwhile first clears it (a filter on the handlers of the ``mkdocs`` logger, through the
standard ``logging`` API), so that no line is printed over it, and the next step draws it again below.
Elsewhere (a log file, CI) only the first and the last lines are printed, as log lines. ``mkdocs -v`` shows
the same.
"""

from __future__ import annotations

import logging
import sys
import threading
import time

from pytorch_notes.site.common import log

_CLEAR = "\r\x1b[K"


class _ClearLine(logging.Filter):
    """On a handler of the ``mkdocs`` logger: clear the progress line before a record is written."""

    def __init__(self, progress: Progress) -> None:
        super().__init__()
        self.progress = progress

    def filter(self, record: logging.LogRecord) -> bool:
        self.progress.clear()
        return True


class Progress:
    """``total`` steps of ``label``, counted from any thread (``step``; ``add`` for steps found later);
    ``close`` ends the line with ``message`` (logged). ``stream``: where the line is drawn (stderr, where
    MkDocs logs); drawn only when it is a terminal."""

    def __init__(self, label: str, total: int, start: str = "", stream=None) -> None:
        self.label, self.total, self.done = label, total, 0
        self.stream = sys.stderr if stream is None else stream
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self.started = time.perf_counter()
        self.lock = threading.RLock()
        self.shown = False
        self.closed = False
        self.handlers: list[logging.Handler] = []
        if start:
            log.info(start)
        if self.tty:
            self.filter = _ClearLine(self)
            # MkDocs' handler is on its "mkdocs" logger, ProperDocs' (its fork) on "properdocs"
            self.handlers = [h for name in ("mkdocs", "properdocs") for h in logging.getLogger(name).handlers]
            for handler in self.handlers:
                handler.addFilter(self.filter)
            self._draw()

    def seconds(self) -> float:
        return time.perf_counter() - self.started

    def add(self, steps: int) -> None:
        with self.lock:
            self.total += steps
            self._draw()

    def step(self) -> None:
        with self.lock:
            self.done += 1
            self._draw()

    def clear(self) -> None:
        with self.lock:
            if self.shown:
                self.stream.write(_CLEAR)
                self.stream.flush()
                self.shown = False

    def close(self, message: str = "") -> None:
        with self.lock:
            if self.closed:
                return
            self.closed = True
            self.clear()
            for handler in self.handlers:
                handler.removeFilter(self.filter)
        if message:
            log.info(message)

    def _draw(self) -> None:
        if self.tty and not self.closed:
            self.stream.write(f"{_CLEAR}{self.label} {self.done}/{self.total}")
            self.stream.flush()
            self.shown = True
