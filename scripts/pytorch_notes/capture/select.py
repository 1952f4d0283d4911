"""Which examples a capture works on: the paths given on the command line, and one shard of them.

Standard library only.
"""

from __future__ import annotations

import os
from pathlib import Path

from pytorch_notes.parse import NAME_RULE, discover_examples
from pytorch_notes.settings import EXAMPLES_DIR, display_path


class SelectionError(ValueError):
    """A command-line path names no example; the message says which and what is expected."""


def select(paths: list[str], examples_dir: Path = EXAMPLES_DIR) -> list[Path]:
    """Example files named by ``paths`` (example files or chapter folders under ``examples_dir``).

    Args:
        paths: as typed on the command line; empty means every example.
        examples_dir: the examples folder; anything outside it is refused.

    Returns:
        The example files, sorted, each once: candidates of ``discover_examples``, so a symbolic link or
        a folder named ``*.py`` among them is refused by ``parse_example`` (an ExampleError naming it).

    Raises:
        SelectionError: a path is outside ``examples_dir``, inside its store, not a ``.py`` file or
            folder, or a folder without examples.
    """
    root = Path(examples_dir).resolve()
    every = discover_examples(root)
    if not paths:
        return every
    chosen: list[Path] = []
    for raw in paths:
        p = _locate(raw, root, Path(os.path.abspath(examples_dir)))
        if p != root and root not in p.parents:
            raise SelectionError(f"capture: {raw}: outside {display_path(root)}/; capture runs only the course's "
                                 f"examples ({NAME_RULE})")
        if p in every:
            chosen.append(p)
        elif p.is_dir():
            found = [q for q in every if p == root or p in q.parents]
            if not found:
                raise SelectionError(f"capture: {raw}: no examples in this folder ({NAME_RULE})")
            chosen.extend(found)
        elif p.is_file():
            raise SelectionError(f"capture: {raw}: not an example: {NAME_RULE}")
        else:
            raise SelectionError(f"capture: {raw}: no such file or folder")
    return sorted(dict.fromkeys(chosen))


def _locate(raw: str, root: Path, folder: Path) -> Path:
    """``raw`` as a path under ``root`` (the examples folder resolved) without following a symbolic link
    below it, as ``discover_examples`` lists them; resolved when it is not below the examples folder."""
    given = Path(os.path.abspath(raw))
    for base in (root, folder):
        if given == base or given.is_relative_to(base):
            return root / given.relative_to(base)
    return given.resolve()


def parse_shard(text: str) -> tuple[int, int]:
    """``"K/N"`` (1-based K) as ``(K, N)``. Raises SelectionError when it is not ``1 <= K <= N``."""
    try:
        k, n = (int(x) for x in text.split("/"))
    except ValueError:
        raise SelectionError(f"capture: --shard {text!r}: expected K/N, e.g. 2/4") from None
    if not 1 <= k <= n:
        raise SelectionError(f"capture: --shard {text!r}: expected 1 <= K <= N")
    return k, n


def shard(items: list[str], durations: dict[str, float], k: int, n: int) -> list[str]:
    """Shard ``k`` of ``n`` (1-based) of ``items``, balanced by recorded duration in seconds.

    Greedy longest-processing-time first (Graham, 1969): items sorted by duration, longest first,
    each given to the shard with the least total so far; ties by name, so every shard computes the
    same split. An item without a recorded duration counts as the median of the known ones (or 1 s).

    Returns:
        The items of shard ``k``, sorted.
    """
    known = sorted(durations[i] for i in items if i in durations)
    default = known[len(known) // 2] if known else 1.0
    cost = {i: durations.get(i, default) for i in items}
    totals = [0.0] * n
    owner: dict[str, int] = {}
    for item in sorted(items, key=lambda i: (-cost[i], i)):
        j = min(range(n), key=lambda s: (totals[s], s))
        owner[item] = j
        totals[j] += cost[item]
    return sorted(i for i in items if owner[i] == k - 1)
