"""What a capture shows while it runs: a live display in a terminal (rich, when installed), plain
lines elsewhere (CI, logs, a GPU runner without rich). Every line goes through
``untrusted.terminal_text``, and what an example controls (a failure message, the diff of its outputs)
through ``untrusted.log_text``: in a GitHub Actions log, between stop-commands."""

from __future__ import annotations

import os
import sys

from pytorch_notes.store.untrusted import log_text, terminal_text


class PlainProgress:
    """One line per finished example: ``[3/57] examples/x/y.py: ok 1.2 s (CPU)``."""

    def __init__(self, total: int):
        self.total, self.done = total, 0

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        return None

    def started(self, name: str) -> None:
        """An example started (plain output says nothing until it ends)."""

    def finished(self, name: str, summary: str, extra: str = "") -> None:
        """An example ended; ``summary`` is e.g. ``ok 1.2 s (CPU)`` or ``FAILED (timeout)``."""
        self.done += 1
        print(terminal_text(f"[{self.done}/{self.total}] {name}: {summary}"), flush=True)
        if extra:
            print(log_text(f"  {extra}"), flush=True)


class RichProgress(PlainProgress):
    """A bar with the examples running now, above the lines of those that finished (rich.progress)."""

    def __init__(self, total: int):
        super().__init__(total)
        from rich.console import Console  # noqa: PLC0415 - optional dependency
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        self.console = Console()
        self.bar = Progress(TextColumn("capture"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                            TextColumn("{task.description}"), console=self.console)
        self.task = self.bar.add_task("", total=total)
        self.running: list[str] = []

    def __enter__(self):
        self.bar.__enter__()
        return self

    def __exit__(self, *exc) -> None:
        self.bar.__exit__(*exc)

    def _describe(self) -> None:
        self.bar.update(self.task, description=", ".join(self.running[-2:]))

    def started(self, name: str) -> None:
        self.running.append(name)
        self._describe()

    def finished(self, name: str, summary: str, extra: str = "") -> None:
        self.done += 1
        if name in self.running:
            self.running.remove(name)
        self.bar.console.print(terminal_text(f"[{self.done}/{self.total}] {name}: {summary}"), markup=False,
                               highlight=False)
        if extra:
            self.bar.console.print(log_text(f"  {extra}"), markup=False, highlight=False)
        self.bar.update(self.task, advance=1)
        self._describe()


def make_progress(total: int, stream=None) -> PlainProgress:
    """A live display when ``stream`` (default stdout) is a terminal, ``CI`` is unset and rich imports;
    plain lines otherwise."""
    stream = stream or sys.stdout
    if stream.isatty() and not os.environ.get("CI"):
        try:
            return RichProgress(total)
        except ImportError:
            pass
    return PlainProgress(total)
