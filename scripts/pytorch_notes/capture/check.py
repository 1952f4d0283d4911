"""``--check``: compare a new run with the stored record of the same code, cell by cell.

Standard library only.
"""

from __future__ import annotations

import difflib

from pytorch_notes.execute.supervise import RunResult
from pytorch_notes.render.kinds import kind_of
from pytorch_notes.settings import display_path
from pytorch_notes.store.model import Output, Record, load_outputs
from pytorch_notes.store.untrusted import clean_outputs


def comparable(outputs: tuple[Output, ...]) -> list[str]:
    """Outputs as lines of text, for comparing two runs (each kind's rule is in ``render/kinds.py``)."""
    return [line for out in outputs for line in kind_of(out).compare(out)]


def changed_cells(record: Record, result: RunResult) -> list[str]:
    """One message per non-volatile cell whose output differs between ``record`` and ``result``:
    ``examples/x.py:LINE: cell N output changed ...`` with the first differing line of each side."""
    messages = []
    stored = {c.index: c for c in record.cells}
    for cell, res in zip(result.example.cells, result.cells, strict=False):
        if cell.volatile or cell.index not in stored:
            continue
        # the new run as the store would keep it (control characters removed, bounded), as the old one is
        old, new = comparable(stored[cell.index].outputs), comparable(clean_outputs(load_outputs(res.outputs)))
        if old != new:
            diff = [ln for ln in difflib.unified_diff(old, new, lineterm="", n=0)
                    if ln[:1] in "+-" and not ln.startswith(("+++", "---"))]
            first_old = next((ln for ln in diff if ln.startswith("-")), "-")
            first_new = next((ln for ln in diff if ln.startswith("+")), "+")
            messages.append(f"{display_path(result.example.path)}:{cell.line}: cell {cell.index + 1} output changed "
                            f"between runs (mark it `# %% volatile=true` if that is expected)\n"
                            f"    stored {first_old}\n    now    {first_new}")
    return messages
