"""The computation-times page: every example's run time per device kind, in tables a reader can sort.

Modelled on sphinx-gallery's ``sg_execution_times``, but for every device: each example's total time
(``provenance.duration_s``) and its slowest cell (the largest ``CellRecord.duration_s``, named by its cell
number, the first cell being 1 as in figure captions) on the CPU and, where a record exists, on CUDA; the
speed-up (CPU total ÷ CUDA total) where both records are fresh; chapter totals; and, for each device
column, the dates its records were captured and the machine (device, torch version, isolation).

Only fresh records (``record.key`` equal to the example's key) count in totals and speed-ups; a stale
one is shown with its numbers marked out of date, never mixed in silently. ``site/times.py`` collects
the examples and records and puts ``times_markdown`` in place of the page's marker line.

A record is untrusted (a pull request may change it): every text of it reaches the page through
``escape.py`` (``page_provenance``, ``field``) and the templates' escaping, numbers are formatted, and the
example's name is the one on disk, never the record's. The tables and the devices' lines come from
``templates/times/`` (``templating.py``), each one raw HTML line, so Markdown leaves it alone. No MkDocs import.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field

from pytorch_notes.parse import Example
from pytorch_notes.render.escape import markdown_text, page_provenance
from pytorch_notes.render.footer import device_label
from pytorch_notes.render.strings import STRINGS
from pytorch_notes.render.templating import PACKAGE, Templates
from pytorch_notes.store.model import Record
from pytorch_notes.store.records import DeviceOutputs, Freshness

KINDS = ("cpu", "cuda")  # the columns, in this order: the speed-up is the first's total over the second's
KIND_NAMES = {"cpu": "CPU", "cuda": "CUDA"}
MARKER = "<!-- computation-times -->"  # the line of a page the build replaces (site/times.py)


def chapter_anchor(chapter: str) -> str:
    """The id of a chapter's section on the times page (the chapter's verification line links to it)."""
    return f"chapter-{chapter}"


def seconds(value: float) -> str:
    """A duration as the page shows it: ``1.23 s``."""
    return f"{value:.2f} s"


def ratio(value: float) -> str:
    """A speed-up as the page shows it: ``12.3×``."""
    return f"{value:.1f}×"


def _duration(value: float) -> float | None:
    """A record's duration, None unless it is one (finite, not negative): the store refuses the others,
    and the page would rather show nothing than a wrong number."""
    return value if isinstance(value, float | int) and math.isfinite(value) and value >= 0 else None


@dataclass(frozen=True)
class Timing:
    """One example on one device kind.

    ``state``: ``fresh``, ``stale``, ``missing`` (no record), or ``n/a`` (the example cannot run there:
    a GPU-only example on the CPU). ``total``: seconds; ``slowest``: (cell number from 1, seconds);
    ``day``: capture date (UTC); ``machine``: device, torch version, isolation, all cleaned text.
    """

    kind: str
    state: str
    total: float | None = None
    slowest: tuple[int, float] | None = None
    day: str = ""
    machine: str = ""

    @property
    def counted(self) -> bool:
        """In totals and speed-ups: a fresh record with a duration."""
        return self.state == "fresh" and self.total is not None


def machine(record: Record, lang: str) -> str:
    """``CPU · torch 2.13.0+cpu · bwrap 0.8.0``: the device (a GPU without its memory size, with its CUDA
    version: ``render.footer.device_label``), the torch version and how the run was isolated."""
    t = STRINGS[lang]
    p = page_provenance(record.provenance)
    iso = t["times_isolation"].format(isolation=p.isolation) if p.isolation else t["times_no_isolation"]
    return " · ".join([device_label(record), f"torch {p.torch or '?'}", iso])


def timing(dev: DeviceOutputs | None, kind: str, lang: str) -> Timing:
    """What the page shows of ``dev`` (None: the example has no such device kind)."""
    if dev is None:
        return Timing(kind, "n/a")
    record = dev.record
    if record is None:
        return Timing(kind, "missing")
    cells = [(int(c.index) + 1, d) for c in record.cells if (d := _duration(c.duration_s)) is not None]
    slowest = max(cells, key=lambda c: (c[1], -c[0])) if cells else None  # the first of equals
    return Timing(kind, dev.state, _duration(record.provenance.duration_s), slowest,
                  page_provenance(record.provenance).captured_at[:10], machine(record, lang))


@dataclass(frozen=True)
class ExampleRow:
    """One example: ``rel`` is its id on disk (``autograd/backward.py``); ``href`` its place on the chapter
    page, relative to the times page ("" for none); ``timings`` one per kind of ``KINDS``."""

    rel: str
    href: str
    timings: dict[str, Timing]

    @property
    def speedup(self) -> float | None:
        cpu, cuda = self.timings["cpu"], self.timings["cuda"]
        if cpu.counted and cuda.counted and cuda.total > 0:
            return cpu.total / cuda.total
        return None


def example_row(example: Example, fresh: Freshness, lang: str, href: str = "") -> ExampleRow:
    """The row of ``example`` from its stored records (``store.records.freshness``)."""
    return ExampleRow(example.rel, href, {k: timing(fresh.devices.get(k), k, lang) for k in KINDS})


@dataclass(frozen=True)
class ChapterTimes:
    """A chapter: ``name`` is its folder under ``examples/``; ``title`` its page's first heading (plain
    text); ``page`` a Markdown link to that page from the times page (``autograd.md``), "" for none."""

    name: str
    title: str
    page: str
    rows: list[ExampleRow] = field(default_factory=list)


@dataclass(frozen=True)
class Total:
    """The counted (fresh) rows of one kind: their summed time, how many, out of how many apply."""

    seconds: float
    counted: int
    of: int


def total(rows: Iterable[ExampleRow], kind: str) -> Total:
    timings = [r.timings[kind] for r in rows if r.timings[kind].state != "n/a"]
    counted = [t.total for t in timings if t.counted]
    return Total(math.fsum(counted), len(counted), len(timings))


def total_speedup(rows: Iterable[ExampleRow]) -> float | None:
    """CPU time over CUDA time of the rows with both records fresh; None without such a row."""
    pairs = [(r.timings["cpu"].total, r.timings["cuda"].total) for r in rows if r.speedup is not None]
    cuda = math.fsum(c for _, c in pairs)
    return math.fsum(c for c, _ in pairs) / cuda if pairs and cuda > 0 else None


def shown_kinds(chapters: list[ChapterTimes]) -> list[str]:
    """The device columns: the CPU, and CUDA when a CUDA record exists or an example runs only there."""
    rows = [r for c in chapters for r in c.rows]
    cuda = any(r.timings["cuda"].state in ("fresh", "stale") or r.timings["cpu"].state == "n/a" for r in rows)
    return ["cpu", "cuda"] if cuda else ["cpu"]


# --- HTML: the cells of templates/times/table.html ---------------------------------------------------------

@dataclass(frozen=True)
class Cell:
    """A column's heading (``number``: sorted as a number) or a number cell (``sort``: its value, ``stale``: its
    record is out of date), with a tooltip (``title``)."""

    text: str
    sort: float | None = None
    title: str = ""
    stale: bool = False
    number: bool = True

    @property
    def key(self) -> str:
        """The ``data-sort`` value (tablesort's number sort): -1 for none, below every time."""
        return "-1" if self.sort is None else f"{self.sort:.6f}"


def _not_there(tm: Timing, t: dict) -> Cell:
    """The cell of a timing without a record."""
    return Cell("—", None, t["times_needs_gpu"] if tm.state == "n/a" else t["times_missing"])


def _total_cell(tm: Timing, t: dict) -> Cell:
    if tm.total is None:
        return _not_there(tm, t)
    stale = tm.state == "stale"
    return Cell(seconds(tm.total), tm.total, t["times_stale_help"] if stale else "", stale)


def _slowest_cell(tm: Timing, t: dict) -> Cell:
    if tm.slowest is None:
        return _not_there(tm, t) if tm.state in ("missing", "n/a") else Cell("—", None)
    n, sec = tm.slowest
    stale = tm.state == "stale"
    return Cell(f"{seconds(sec)} · " + t["times_cell"].format(n=n), sec, t["times_stale_help"] if stale else "", stale)


def _speedup_cell(value: float | None) -> Cell:
    return Cell("—" if value is None else ratio(value), value)


def _total_text(tot: Total, t: dict) -> str:
    text = seconds(tot.seconds) if tot.counted else "—"
    return t["times_counted"].format(total=text, n=tot.counted, m=tot.of) if tot.counted != tot.of else text


def _heads(t: dict, kinds: list[str], first: list[Cell], slowest: bool) -> list[Cell]:
    heads = list(first)
    for k in kinds:
        heads.append(Cell(t["times_total"].format(device=KIND_NAMES[k])))
        if slowest:
            heads.append(Cell(t["times_slowest"].format(device=KIND_NAMES[k]), title=t["times_slowest_help"]))
    return heads + ([Cell(t["times_speedup"], title=t["times_speedup_help"])] if "cuda" in kinds else [])


def chapter_table(chapter: ChapterTimes, kinds: list[str], lang: str, tpl: Templates = PACKAGE) -> str:
    """The table of one chapter's examples, with a footer row of its totals."""
    t = STRINGS[lang]
    rows = []
    for r in chapter.rows:
        cells = [c for k in kinds for c in (_total_cell(r.timings[k], t), _slowest_cell(r.timings[k], t))]
        if "cuda" in kinds:
            cells.append(_speedup_cell(r.speedup))
        name = {"text": r.rel.split("/", 1)[-1], "sort": r.rel, "href": r.href, "code": True}
        rows.append({"kind": "example", "id": r.rel, "name": name, "cells": cells})  # see the template
    foot = [c for k in kinds for c in (_total_text(total(chapter.rows, k), t), None)]
    if "cuda" in kinds:
        foot.append(_speedup_cell(total_speedup(chapter.rows)).text)
    return tpl.render("times/table.html", t=t, heads=_heads(t, kinds, [Cell(t["times_example"], number=False)], True),
                      rows=rows, foot={"label": t["times_chapter_total"], "cells": foot})


def summary_table(chapters: list[ChapterTimes], kinds: list[str], lang: str, tpl: Templates = PACKAGE) -> str:
    """One row per chapter (linking to its section): its examples and totals; a footer row for all."""
    t = STRINGS[lang]
    rows = []
    for n, c in enumerate(chapters):  # sorted by the first column: back to course order
        cells = [Cell(str(len(c.rows)), len(c.rows))]
        for k in kinds:
            tot = total(c.rows, k)
            cells.append(Cell(_total_text(tot, t), tot.seconds if tot.counted else None))
        if "cuda" in kinds:
            cells.append(_speedup_cell(total_speedup(c.rows)))
        name = {"text": c.title, "sort": f"{n:04d}", "href": "#" + chapter_anchor(c.name), "code": False}
        rows.append({"kind": "chapter", "id": c.name, "name": name, "cells": cells})
    every = [r for c in chapters for r in c.rows]
    foot = [str(len(every)), *(_total_text(total(every, k), t) for k in kinds)]
    if "cuda" in kinds:
        foot.append(_speedup_cell(total_speedup(every)).text)
    first = [Cell(t["times_chapter"], number=False), Cell(t["times_examples"])]
    return tpl.render("times/table.html", t=t, heads=_heads(t, kinds, first, False), rows=rows,
                      foot={"label": t["times_all_total"], "cells": foot})


def devices_line(rows: list[ExampleRow], kinds: list[str], lang: str, tpl: Templates = PACKAGE) -> str:
    """For each device column, when its records were captured and on which machines, as a paragraph;
    e.g. ``CPU: 5 records captured 2026-11-25, on CPU · torch 2.13.0+cpu · isolation bwrap 0.8.0``."""
    t = STRINGS[lang]
    parts = []
    for k in kinds:
        timed = [r.timings[k] for r in rows if r.timings[k].state in ("fresh", "stale")]
        if not timed:
            parts.append(t["times_device_none"].format(device=KIND_NAMES[k]))
            continue
        machines = sorted({tm.machine for tm in timed})
        records = t["times_one_record"] if len(timed) == 1 else t["times_records"].format(n=len(timed))
        days = sorted({tm.day for tm in timed})
        dates = days[0] if len(days) == 1 else t["times_range"].format(first=days[0], last=days[-1])
        parts.append(t["times_device"].format(device=KIND_NAMES[k], records=records, dates=dates,
                                              machines=t["sep_list"].join(machines)))
    return tpl.render("times/devices.html", text=t["sep_clause"].join(parts))


def times_markdown(chapters: list[ChapterTimes], lang: str, tpl: Templates = PACKAGE) -> str:
    """The Markdown the page's marker line becomes: the devices, a table of chapter totals, then one
    section per chapter (a heading with the id ``chapter_anchor``, a link to the chapter's page, its
    devices and the table of its examples). Headings and tables are left out of the search index
    (``data-search-exclude``): the chapters' own pages answer a search for their titles. ``tpl``: the site's
    templates (``templating.Templates``)."""
    t = STRINGS[lang]
    kinds = shown_kinds(chapters)
    every = [r for c in chapters for r in c.rows]
    out = [f'## {markdown_text(t["times_summary"])} {{#times-summary data-search-exclude}}',
           devices_line(every, kinds, lang, tpl), summary_table(chapters, kinds, lang, tpl)]
    for c in chapters:
        out.append(f"## {markdown_text(c.title)} {{#{chapter_anchor(c.name)} data-search-exclude}}")
        if c.page:
            out.append(f'[{markdown_text(t["times_open_chapter"])}]({c.page})')
        out += [devices_line(c.rows, kinds, lang, tpl), chapter_table(c, kinds, lang, tpl)]
    return "\n\n".join(out) + "\n"


__all__ = ["MARKER", "ChapterTimes", "ExampleRow", "Timing", "chapter_anchor", "example_row", "ratio", "seconds",
           "times_markdown", "timing"]
