"""What one run of an example produced (parent side): ``RunResult`` and its cells. Standard library only;
``supervise.py`` makes them, and re-exports them."""

from __future__ import annotations

from dataclasses import dataclass, field

from pytorch_notes.parse import Example
from pytorch_notes.settings import display_path


@dataclass
class CellResult:
    """Outputs of one executed cell (see runner.py for the record types)."""

    index: int
    line: int
    ok: bool
    duration_s: float
    outputs: list = field(default_factory=list)


@dataclass
class RunResult:
    """What one run of an example produced.

    Attributes:
        status: ``"ok"``, ``"failed"`` (a cell raised unexpectedly, the report contradicts itself, or the
            fallback saw the repository change), ``"timeout"``, ``"crashed"`` (the process died without
            finishing: a signal, ``os._exit``) or ``"cancelled"`` (``cancel_all``, e.g. on Ctrl-C).
        cells: results of the cells that ran, in order.
        duration_s: seconds from the first cell to the end, as measured by the child (never more than
            ``wall_s``; ``wall_s`` when it did not finish).
        wall_s: wall-clock seconds of the whole process, start-up included.
        captured_at: UTC ISO-8601 timestamp when the run ended (this process's clock).
        provenance: device, driver, versions and isolation, as this process finds them.
        device_kind: ``"cpu"`` or ``"cuda"``, the supervisor's probe: the record this run may write.
        error_line: line in the example where it failed (0 if unknown).
        message: what went wrong, empty when ok; its first line is one line, then the output a dead
            process printed last, indented.
        process_output: the child's raw stdout then stderr (their ends), machine paths rewritten.
    """

    example: Example
    status: str
    cells: list[CellResult]
    duration_s: float
    wall_s: float
    captured_at: str = ""
    provenance: dict = field(default_factory=dict)
    device_kind: str = "cpu"
    error_line: int = 0
    message: str = ""
    process_output: str = ""

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    def location(self) -> str:
        """``examples/x/y.py:LINE`` of the failure (line of the cell when unknown)."""
        return f"{display_path(self.example.path)}:{self.error_line or 1}"
