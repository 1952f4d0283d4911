"""Stage 3, store: every warning in a stored output is meant.

A warning that Python's ``warnings`` module prints reads ``<file>:<line>: <Category>: <message>``; a
category is a class whose name ends in ``Warning`` (``UserWarning``, ``DeprecationWarning``,
``torch.jit.TracerWarning``...). A cell whose stored output, on any device, prints one must declare it on
its ``# %%`` line::

    # %% warns="UserWarning"
    # %% warns=["UserWarning", "FutureWarning"]

and the pages that embed the example explain it (``pytorch_notes.prose`` checks that they name the
category). A declared category that no record of the cell prints is an outdated declaration. The
declaration is descriptive (``parse.DESCRIPTIVE_CELL_KEYS``): adding one keeps the records fresh.

This is what PyTorch's own tutorials ask of theirs (no deprecation warnings left in outputs), made
automatic: ``make capture`` reports the problems of what it stored and exits 1, and ``make test`` checks
every record (``tests/store/test_warns.py``). Standard library only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from pytorch_notes.parse import Example
from pytorch_notes.settings import EXAMPLES_DIR
from pytorch_notes.store.model import Record, Stream
from pytorch_notes.store.records import device_kinds, device_outputs

# A category: a capitalised identifier ending in "Warning" followed by ": ", not preceded by a letter, digit,
# "_" or "." (a module prefix is not part of the name Python prints). "Warning: ..." alone inside a message
# is not a category (it has no prefix before "Warning").
CATEGORY_RE = re.compile(r"(?<![\w.])(?P<category>[A-Z]\w*Warning): ")
EXCERPT = 100  # characters of a warning's line quoted in a problem


@dataclass(frozen=True)
class Printed:
    """One warning line found in a stored output: its ``category``, the cell's ``index`` and the line."""

    category: str
    index: int
    excerpt: str


@dataclass(frozen=True)
class Problem:
    """What is wrong with an example's warnings, as ``file:line: message`` (``str()``)."""

    path: Path
    line: int
    message: str

    def __str__(self) -> str:
        return f"examples/{self.path}:{self.line}: {self.message}"


def printed_warnings(record: Record) -> list[Printed]:
    """Every warning category the streams of ``record`` print, per cell, in order (one per line)."""
    found = []
    for cell in record.cells:
        for out in cell.outputs:
            if not isinstance(out, Stream):
                continue
            for line in out.text.splitlines():
                for m in CATEGORY_RE.finditer(line):
                    found.append(Printed(m.group("category"), cell.index, line.strip()[:EXCERPT]))
    return found


def problems(example: Example, examples_dir: Path = EXAMPLES_DIR) -> list[Problem]:
    """Undeclared and outdated warnings of ``example``, judged on the records a page shows (fresh or stale).

    A warning printed by cell ``i`` of a record must be declared by cell ``i`` of the example; a declared
    category must be printed by that cell in at least one fresh record (checked only when the example has
    one). Raises StoreError for an unreadable record.
    """
    rel = Path(example.rel)
    found: list[Problem] = []
    fresh_printed: set[tuple[int, str]] = set()
    any_fresh = False
    for kind in device_kinds(example):
        dev = device_outputs(example, kind, examples_dir)
        if dev.record is None:
            continue
        any_fresh |= dev.state == "fresh"
        reported: set[tuple[int, str]] = set()
        for p in printed_warnings(dev.record):
            if dev.state == "fresh":
                fresh_printed.add((p.index, p.category))
            cell = example.cells[p.index] if p.index < len(example.cells) else None
            if cell is not None and p.category in cell.warns or (p.index, p.category) in reported:
                continue
            reported.add((p.index, p.category))
            line = cell.line if cell is not None else 1
            found.append(Problem(rel, line, f"cell {p.index} prints a {p.category} on the {kind} tab that the cell "
                                            f"does not declare ({p.excerpt!r}): fix its cause, or declare it with "
                                            f'`# %% warns="{p.category}"` and explain it on the page'))
    if any_fresh:
        for cell in example.cells:
            for category in cell.warns:
                if (cell.index, category) not in fresh_printed:
                    found.append(Problem(rel, cell.line, f"cell {cell.index} declares warns={category!r} but no "
                                                         "fresh record prints it: remove the declaration"))
    return found


def declared(example: Example) -> list[tuple[int, str]]:
    """``(cell index, category)`` of every warning ``example`` declares, in file order."""
    return [(cell.index, category) for cell in example.cells for category in cell.warns]
