"""Figures of the benchmark (``Figure``, ``ratio``), the plain-text table and the JSON report."""

from __future__ import annotations

import json
import os
import platform
import shlex
import statistics
from dataclasses import asdict, dataclass
from datetime import datetime
from pathlib import Path

from pytorch_notes.settings import REPO_ROOT

OUT_DIR = REPO_ROOT / "artifacts" / "bench"
OPS = {"<": float.__lt__, "<=": float.__le__, ">": float.__gt__, ">=": float.__ge__, "==": float.__eq__}


# ---------------------------------------------------------------- figures and the table


@dataclass
class Figure:
    """One measured figure: several samples, summarised by median, min and max.

    Attributes:
        name: what was measured, e.g. ``"build, stored outputs (warm)"``.
        unit: ``"s"``, ``"ms"``, ``"x"`` (a ratio), ``"KB"`` (1000 bytes) or ``""`` (a count).
        samples: one value per run.
        target: ``(op, value)`` with op in ``<``, ``<=``, ``>``, ``>=``, ``==``, checked on the median;
            None when the figure has no target.
        note: shown in the table (fewer runs, estimates, subsets).
    """

    name: str
    unit: str
    samples: list[float]
    target: tuple[str, float] | None = None
    note: str = ""
    low: float | None = None  # min/max override for ratios of two figures
    high: float | None = None

    @property
    def median(self) -> float:
        return statistics.median(self.samples)

    @property
    def min(self) -> float:
        return self.low if self.low is not None else min(self.samples)

    @property
    def max(self) -> float:
        return self.high if self.high is not None else max(self.samples)

    @property
    def met(self) -> bool | None:
        """Whether the median meets the target (None without a target)."""
        if self.target is None:
            return None
        op, value = self.target
        return OPS[op](float(self.median), float(value))

    def as_dict(self) -> dict:
        d = asdict(self)
        d.update(median=self.median, min=self.min, max=self.max, met=self.met)
        return d


def ratio(name: str, top: Figure, bottom: Figure, target=None, note: str = "") -> Figure:
    """``top / bottom`` of the medians; min and max are the extreme ratios of their samples."""
    return Figure(name, "x", [top.median / bottom.median], target, note or f"ratio of medians ({top.name})",
                  low=top.min / bottom.max, high=top.max / bottom.min)


def fmt(value: float, unit: str) -> str:
    """A value with its unit, e.g. ``fmt(9.81, "s") == "9.81 s"``, ``fmt(25.04, "x") == "25.0x"``."""
    if unit == "x":
        return f"{value:.2f}x" if value < 10 else f"{value:.1f}x"
    if unit == "":
        return f"{value:g}"
    if unit == "s":
        return f"{value:.2f} s" if value < 100 else f"{value:.0f} s"
    return f"{value:.1f} {unit}" if value < 100 else f"{value:.0f} {unit}"


def format_table(figures: list[Figure]) -> str:
    """The figures as a plain-text table: figure, median, min, max, target, met/missed, runs, note."""
    head = ("figure", "median", "min", "max", "target", "result", "runs", "note")
    rows = [head]
    for f in figures:
        target = f"{f.target[0]} {fmt(f.target[1], f.unit)}" if f.target else "-"
        result = {None: "-", True: "met", False: "MISSED"}[f.met]
        rows.append((f.name, fmt(f.median, f.unit), fmt(f.min, f.unit), fmt(f.max, f.unit), target, result,
                     str(len(f.samples)), f.note))
    widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
    left = (0, 4, 5, 7)  # text columns; numbers align right
    lines = ["  ".join(c.ljust(w) if i in left else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths, strict=True)))
             .rstrip() for r in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


# ---------------------------------------------------------------- the JSON report


def write_report(figures: list[Figure], table: str, *, started: datetime, argv: list[str], repeat: int, quick: bool,
                 load_start: list[float], load: tuple[float, float, float], errors: list[str]) -> Path:
    """Write the run to ``artifacts/bench/bench-<date>.json`` and ``latest.json``; returns the dated file."""
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    command = "make bench" + (f" ARGS={shlex.quote(shlex.join(argv))}" if argv else "")
    report = {"date": started.isoformat(timespec="seconds"), "command": command, "repeat": repeat, "quick": quick,
              "machine": {"platform": platform.platform(terse=True), "python": platform.python_version(),
                          "cpus": os.cpu_count(), "load_avg_at_start": load_start, "load_avg_at_end": list(load)},
              "figures": [f.as_dict() for f in figures], "table": table, "errors": errors}
    text = json.dumps(report, ensure_ascii=False, indent=1) + "\n"
    dated = OUT_DIR / f"bench-{started.strftime('%Y-%m-%d-%H%M%S')}.json"
    dated.write_text(text, encoding="utf-8")
    (OUT_DIR / "latest.json").write_text(text, encoding="utf-8")
    return dated
