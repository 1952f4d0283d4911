"""What a re-capture changed: per cell, a readable diff of the outputs between the stored record and the
new one, so that a reviewer reads the change instead of JSON.

Used by ``make capture`` (each re-captured example prints its changed cells; ``--report FILE`` writes
them all as Markdown) and by ``scripts/output_changes.py``, which compares two stores (the GPU
workflow's committed CUDA records with the new ones, for the body of its pull request). Each output
kind is compared as ``render/kinds.py`` says (``comparable``); a figure is compared by its bytes and
described by its size in pixels and bytes. Cells declared ``volatile=true`` (timings) are listed apart.
Standard library only.
"""

from __future__ import annotations

import argparse
import base64
import difflib
import sys
from dataclasses import dataclass, field
from pathlib import Path

from pytorch_notes.capture.check import comparable
from pytorch_notes.parse import ExampleError, discover_examples, parse_example
from pytorch_notes.settings import EXAMPLES_DIR, display_path
from pytorch_notes.store.model import DEVICE_KINDS, CellRecord, Image, Output, Record
from pytorch_notes.store.records import StoreError, load_record
from pytorch_notes.store.untrusted import png_size, terminal_text

DIFF_LINES = 40  # lines of one cell's diff in the Markdown report; the terminal shows TERMINAL_LINES
TERMINAL_LINES = 6
BODY_LIMIT = 60_000  # characters of a report that goes into a pull request's body (GitHub's limit is 65,536)


@dataclass(frozen=True)
class CellChange:
    """One cell whose outputs differ: its number (1-based), line, whether it is volatile, whether its code
    changed too (``code``), and the diff as lines (``-`` before, ``+`` after, figures described)."""

    number: int
    line: int
    volatile: bool
    code: bool
    diff: tuple[str, ...]


@dataclass
class ExampleChanges:
    """The changes of one example on one device kind; ``new`` when there was no record before."""

    example: str
    kind: str
    new: bool = False
    cells: list[CellChange] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return self.new or bool(self.cells)


def _figures(outputs: tuple[Output, ...]) -> tuple[list[str], list[str]]:
    """(descriptions, data) of each figure, in order: ``figure 648x373 px, 45,210 bytes`` and its base64."""
    found = []
    for out in outputs:
        if isinstance(out, Image):
            data = base64.b64decode(out.data, validate=False)
            size = png_size(data) or (0, 0)
            found.append((f"{size[0]}x{size[1]} px, {len(data):,} bytes", out.data))
    return [f"figure {desc}" for desc, _ in found], [data for _, data in found]


def _cell_diff(old: CellRecord, new: CellRecord) -> list[str]:
    """Diff lines between two versions of a cell's outputs (text by ``comparable``, figures by bytes)."""
    before = [ln for ln in comparable(old.outputs) if not ln.startswith("[figure]")]
    after = [ln for ln in comparable(new.outputs) if not ln.startswith("[figure]")]
    lines = [ln for ln in difflib.unified_diff(before, after, lineterm="", n=1)
             if not ln.startswith(("---", "+++"))]
    (old_desc, old_data), (new_desc, new_data) = _figures(old.outputs), _figures(new.outputs)
    if old_data != new_data:
        if len(old_desc) == len(new_desc):
            lines += [f"~ figure {i + 1} changed: {a.removeprefix('figure ')} -> {b.removeprefix('figure ')}"
                      for i, (a, b, x, y) in enumerate(zip(old_desc, new_desc, old_data, new_data, strict=True))
                      if x != y]
        else:
            lines += [f"- {d}" for d in old_desc] + [f"+ {d}" for d in new_desc]
    return lines


def compare(old: Record | None, new: Record) -> ExampleChanges:
    """The per-cell changes from ``old`` (the record stored before, None if none) to ``new``."""
    result = ExampleChanges(new.example, new.device_kind, new=old is None)
    if old is None:
        return result
    before = {c.index: c for c in old.cells}
    for cell in new.cells:
        prev = before.get(cell.index)
        if prev is None:
            diff = [f"+ {ln}" for ln in comparable(cell.outputs)]
        else:
            diff = _cell_diff(prev, cell)
        if diff:
            result.cells.append(CellChange(cell.index + 1, cell.line, bool(cell.metadata.get("volatile")),
                                           prev is not None and prev.key != cell.key, tuple(diff)))
    return result


def terminal_lines(changes: ExampleChanges) -> list[str]:
    """A few lines for the capture's progress display: each changed cell and the start of its diff."""
    lines = []
    for c in changes.cells:
        what = "volatile, " if c.volatile else ""
        what += "code and outputs changed" if c.code else "outputs changed"
        lines.append(f"cell {c.number} (line {c.line}): {what}")
        if not c.volatile:
            lines += [f"    {ln}" for ln in c.diff[:TERMINAL_LINES]]
            if len(c.diff) > TERMINAL_LINES:
                lines.append(f"    ... {len(c.diff) - TERMINAL_LINES} more line(s) in the report (--report FILE)")
    return [terminal_text(ln) for ln in lines]


def _fence(lines: tuple[str, ...]) -> list[str]:
    """A diff code block of at most ``DIFF_LINES`` lines; a run of backticks in a line is broken by a zero
    width space, so that nothing an example printed can end the block."""
    shown = [terminal_text(ln, "") for ln in lines[:DIFF_LINES]]
    if len(lines) > DIFF_LINES:
        shown.append(f"... {len(lines) - DIFF_LINES} more line(s)")
    return ["```diff", *[ln.replace("``", "`\u200b`") for ln in shown], "```"]


def markdown(all_changes: list[ExampleChanges], title: str = "Output changes", skipped: list[str] = ()) -> str:
    """The report as Markdown: examples whose outputs changed (a diff block per cell), new examples, the
    volatile cells apart, and the examples ``skipped`` (one line each, why: a torch older than the
    example's ``min_torch``); every text an example produced stays inside a code block."""
    changed = [c for c in all_changes if c.cells and any(not x.volatile for x in c.cells)]
    new = [c for c in all_changes if c.new]
    same = [c for c in all_changes if not c.changed]
    volatile = [(c, x) for c in all_changes for x in c.cells if x.volatile]
    lines = [f"## {title}", "",
             f"{len(all_changes)} example(s) re-captured: {len(changed)} with changed outputs, {len(new)} new, "
             f"{len(same)} unchanged." + (f" Volatile cells that changed, as expected: {len(volatile)}."
                                           if volatile else "")]
    for c in changed:
        lines += ["", f"### `examples/{c.example}` ({c.kind})"]
        for x in c.cells:
            if not x.volatile:
                lines += ["", f"Cell {x.number}, line {x.line}" + (" (its code changed too):" if x.code else ":"),
                          "", *_fence(x.diff)]
    if new:
        lines += ["", "### New records", "", *[f"- `examples/{c.example}` ({c.kind})" for c in new]]
    if volatile:
        lines += ["", "### Volatile cells (timings; changes expected)", "",
                  *[f"- `examples/{c.example}` cell {x.number}, line {x.line}" for c, x in volatile]]
    if skipped:
        lines += ["", f"### Skipped ({len(skipped)})", "", *[f"- {terminal_text(why, '')}" for why in skipped]]
    text = "\n".join(lines) + "\n"
    if len(text) > BODY_LIMIT:
        text = text[:BODY_LIMIT].rsplit("\n", 1)[0] + "\n\n... the report is cut here (too long for one page).\n"
    return text


def compare_stores(old_store: Path, new_store: Path, kind: str,
                   examples_dir: Path = EXAMPLES_DIR) -> list[ExampleChanges]:
    """The changes of every example that has a ``kind`` record in ``new_store`` (both folders named
    ``_outputs``), against ``old_store``. A record either store cannot read counts as missing there."""
    found = []
    for path in discover_examples(examples_dir):
        try:
            rel = parse_example(path, examples_dir).rel
        except ExampleError:
            continue
        try:
            new = load_record(rel, kind, new_store.parent)
        except StoreError:
            new = None
        if new is None:
            continue
        try:
            old = load_record(rel, kind, old_store.parent)
        except StoreError:
            old = None
        found.append(compare(old, new))
    return found


def main(argv: list[str] | None = None) -> int:
    """``scripts/output_changes.py --old DIR --new DIR [--kind cuda] [--title T]``: print the Markdown report."""
    ap = argparse.ArgumentParser(prog="output_changes.py", description=main.__doc__)
    ap.add_argument("--old", type=Path, required=True, help="the store before (a folder named _outputs)")
    ap.add_argument("--new", type=Path, required=True, help="the store after (a folder named _outputs)")
    ap.add_argument("--kind", default="cuda", choices=DEVICE_KINDS)
    ap.add_argument("--examples", type=Path, default=EXAMPLES_DIR, help="the examples folder (default: examples/)")
    ap.add_argument("--title", default="Output changes")
    args = ap.parse_args(argv)
    for store in (args.old, args.new):
        if store.name != "_outputs":
            print(f"output_changes: {display_path(store)}: a store folder is named _outputs", file=sys.stderr)
            return 2
    sys.stdout.write(markdown(compare_stores(args.old, args.new, args.kind, args.examples), args.title))
    return 0
