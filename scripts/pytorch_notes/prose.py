"""Prose that cannot drift from its outputs: ``python -m pytorch_notes.prose [PAGE ...]``.

A chapter page (one that embeds examples) quotes numbers its examples printed. Every re-capture changes
timings and low digits, and the GPU tab is shown first while a sentence may quote the CPU tab; this check
makes such drift fail at once, naming page and line:

1. **Backed.** Every number in the prose (text, lists, tables, headings; not fenced code; inline code only
   when the whole span is a number, such as ```2.4e-07```) equals a number printed by an output of an
   example embedded in its ``##`` section (any example of the page in a section that embeds none, such as
   the introduction: on a long page a 3-digit number elsewhere matches by chance), on any device, once that
   output is rounded to the precision the prose writes (``0.97`` is backed by ``0.9712``, ``5,454`` by
   ``5454``, ``32.5 %`` by ``32.49%`` or ``0.3249``; signs are ignored), or a number literal in those
   examples' code (hyper-parameters), or is listed in the page's front matter under ``stated_numbers`` with
   the reason (a version, a documented fact, a number of an exercise's statement)::

       stated_numbers:
         "2.13": the torch version the project pins

   A stated number that is backed anyway, or not on the page, is an error too: the list stays short and
   true. A version (a number right after the name of what it versions: ``torch 2.9``, ``CUDA 13.0``) is
   always stated, never backed by an output that happens to print the same digits. A unit scales the
   number (``1.34 亿``, ``6.7 万``, ``1.1 trillion``). Not checked: integers below 10 (cells, dims,
   exercises), numbers glued to letters (``H100``, ``float32``, ``3C``), and versions with two or more dots
   (``2.11.0``).
2. **On the tab shown.** A number backed only by outputs of a device tab other than the one the page shows
   first for that example (``store.records.Freshness.preferred``: the fresh CUDA record, else the CPU one)
   is quoted in a sentence that names its tab: "CPU tab", "GPU tab", "CPU 标签页", "GPU 标签页".
3. **Warnings explained.** A warning an example declares (``warns=`` on a cell, ``store/warns.py``) is named
   by its category (``UserWarning``) on every page that embeds the example.

``make test`` runs it on every chapter page (``tests/content/test_prose.py``). Reads the pages and the store; never
runs an example.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path

import yaml

from pytorch_notes.pages import find_embeds, language_pages, prose_lines, split_front_matter
from pytorch_notes.parse import Example, parse_example
from pytorch_notes.prose_text import (
    NUMBER_RE,
    NUMBER_UNITS,
    SMALLEST_CHECKED,
    TAB_KINDS,
    TAB_RE,
    VERSIONED,
    Quoted,
    code_numbers,
    output_numbers,
    quoted,
    sentences,
    units,
)
from pytorch_notes.settings import DOCS_DIR, EXAMPLES_DIR, LANGUAGES, display_path
from pytorch_notes.store.model import Display, Error, Image, Record, Stream
from pytorch_notes.store.records import freshness
from pytorch_notes.store.warns import declared

__all__ = ["Backing", "Problem", "Quoted", "backing", "chapter_pages", "check_page", "main", "quoted", "stated"]


@dataclass
class Backing:
    """What a page's examples can back: numbers per device kind (``printed``), code literals, first tabs."""

    printed: dict[str, list[tuple[str, Decimal]]] = field(default_factory=dict)  # kind -> (rel, value)
    code: list[tuple[str, Decimal]] = field(default_factory=list)  # (rel, value)
    first: dict[str, str] = field(default_factory=dict)  # rel -> kind of the tab shown first
    warnings: dict[str, list[str]] = field(default_factory=dict)  # rel -> categories declared

    def within(self, rels: frozenset[str] | None) -> Backing:
        """What the examples ``rels`` back (all of this page's when None)."""
        if rels is None:
            return self
        return Backing({k: [(r, v) for r, v in vals if r in rels] for k, vals in self.printed.items()},
                       [(r, v) for r, v in self.code if r in rels], self.first, self.warnings)


@dataclass(frozen=True)
class Problem:
    page: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.page}:{self.line}: {self.message}"


def _record_text(record: Record) -> str:
    parts = []
    for cell in record.cells:
        for out in cell.outputs:
            if isinstance(out, Stream):
                parts.append(out.text)
            elif isinstance(out, Error):
                parts += [out.ename, out.evalue]
            elif isinstance(out, Display):
                parts.append(out.data.get("text/plain", ""))
            elif isinstance(out, Image):
                parts.append(out.alt)
    return "\n".join(parts)


def backing(examples: list[Example], examples_dir: Path = EXAMPLES_DIR) -> Backing:
    """What the records and code of ``examples`` back. Raises StoreError for an unreadable record."""
    b = Backing()
    for ex in examples:
        fresh = freshness(ex, examples_dir)
        b.first[ex.rel] = fresh.preferred.kind
        for kind, dev in fresh.devices.items():
            if dev.record is not None:
                b.printed.setdefault(kind, []).extend((ex.rel, v) for v in output_numbers(_record_text(dev.record)))
        b.code += [(ex.rel, v) for cell in ex.cells for v in code_numbers(cell.source)]
        b.warnings[ex.rel] = sorted({c for _, c in declared(ex)})
    return b


def stated(front: str, page: str) -> dict[str, str]:
    """The page's ``stated_numbers`` (number as written -> reason). Raises ValueError naming the page."""
    try:
        meta = yaml.safe_load(front) or {}
    except yaml.YAMLError as exc:
        raise ValueError(f"{page}:1: front matter is not YAML: {exc}") from None
    value = meta.get("stated_numbers", {}) if isinstance(meta, dict) else {}
    if not isinstance(value, dict) or not all(isinstance(v, str) and v.strip() for v in value.values()):
        raise ValueError(f'{page}:1: stated_numbers maps each number to its reason, e.g. "2.13": the torch version')
    return {str(k).replace(",", ""): v for k, v in value.items()}


def check_page(path: Path, examples_dir: Path = EXAMPLES_DIR) -> list[Problem]:
    """The problems of one page (empty for a page that embeds no example).

    Raises:
        PageError: a malformed embed; ExampleError: an embedded example that does not parse; ValueError:
            unreadable front matter.
    """
    name = display_path(path)
    text = Path(path).read_text(encoding="utf-8")
    embeds = find_embeds(text, name)
    if not embeds:
        return []
    examples = [parse_example(examples_dir / rel, examples_dir) for rel in dict.fromkeys(e.rel for e in embeds)]
    b = backing(examples, examples_dir)
    front, body = split_front_matter(text)
    offset = text[: len(text) - len(body)].count("\n")
    declared_numbers = stated(front, name)
    used_stated: dict[str, bool] = {}  # stated number -> whether every use of it is backed anyway
    found: list[Problem] = []
    prose = []
    scope = _section_scopes(text, embeds)
    for unit in units(body, offset):
        is_table = unit[0][1].strip().startswith("|")
        for line, sentence, rows in sentences(unit, is_table):
            prose.append(sentence)
            for at, part in rows or [(line, sentence)]:
                for m in NUMBER_RE.finditer(part):
                    found += _check_number(m, at, sentence, name, b.within(scope(at)), declared_numbers, used_stated)
    for number, why in declared_numbers.items():
        if number not in used_stated:
            found.append(Problem(name, 1, f"stated_numbers lists {number!r} ({why}), which the prose does not quote: "
                                          "remove it"))
        elif used_stated[number]:
            found.append(Problem(name, 1, f"stated_numbers lists {number!r}, but an output or the code of this "
                                          "page's examples shows it: remove it from stated_numbers"))
    all_prose = "\n".join(prose) + "\n" + body
    for rel, categories in b.warnings.items():
        for category in categories:
            if category not in all_prose:
                line = next(e.line for e in embeds if e.rel == rel)
                found.append(Problem(name, line, f"examples/{rel} declares a {category} (warns=), which this page "
                                                 f"does not explain: name `{category}` and say why it is printed"))
    return found


def _section_scopes(text: str, embeds) -> Callable[[int], frozenset[str] | None]:
    """``line -> the examples embedded in that line's ``##`` section``, or None (the whole page) for a section
    that embeds none (the introduction, a summary): a number is backed by the examples it is written about."""
    starts = [n for n, line in prose_lines(text) if line.startswith("## ")]
    bounds = list(zip([0, *starts], [*starts, 10**9], strict=True))
    per = [frozenset(e.rel for e in embeds if lo <= e.line < hi) for lo, hi in bounds]

    def scope(line: int) -> frozenset[str] | None:
        i = next(k for k, (lo, hi) in enumerate(bounds) if lo <= line < hi)
        return per[i] or None

    return scope


def _check_number(m: re.Match, line: int, sentence: str, page: str, b: Backing, declared_numbers: dict[str, str],
                  used_stated: dict[str, bool]) -> list[Problem]:
    raw = m.group("num")
    q = quoted(raw)
    if q is None:
        return []
    if m.group("pct"):
        q = Quoted(q.text, q.value, q.half, percent=True)
    if unit := m.group("unit"):
        q = Quoted(q.text, q.value * NUMBER_UNITS[unit], q.half * NUMBER_UNITS[unit])
    if "." not in raw and "e" not in raw.lower() and q.value < SMALLEST_CHECKED and not unit:
        return []
    key = raw.replace(",", "")
    version = bool(VERSIONED.search(m.string[:m.start()]))
    kinds = set() if version else {kind for kind, values in b.printed.items() if any(q.matches(v) for _, v in values)}
    in_code = not version and any(q.matches(v) for _, v in b.code)
    if key in declared_numbers:
        used_stated[key] = used_stated.get(key, True) and bool(kinds or in_code)  # needed by no use: say so
        return []
    if version:
        return [Problem(page, line, f"{raw!r} is a version ({m.string[max(0, m.start() - 12):m.end()].strip()!r}): "
                                    "list it under stated_numbers in the front matter with what it versions")]
    if in_code:
        return []
    if not kinds:
        return [Problem(page, line, f"{raw!r} is printed by no output of the examples its section embeds (the whole "
                                    "page's, in a section without one) and is not in their code: quote an output "
                                    "(rounded as printed), make an example print it, or list it under stated_numbers "
                                    "in the front matter with the reason")]
    on_first = any(q.matches(v) for kind, values in b.printed.items() for rel, v in values if b.first.get(rel) == kind)
    if on_first:
        return []
    named = {TAB_KINDS[t.group("name")] for t in TAB_RE.finditer(sentence)}
    if named & kinds:
        return []
    where = " and ".join(sorted("GPU" if k == "cuda" else "CPU" for k in kinds))
    return [Problem(page, line, f"{raw!r} is only on the {where} tab, which is not the tab shown first: name the "
                                f"tab in the sentence ('on the {where} tab' / '{where} 标签页上') or quote the tab "
                                "shown first")]


def chapter_pages(docs_dir: Path = DOCS_DIR) -> list[Path]:
    """Every page of every language (pages without embeds pass by themselves)."""
    return [p for lang in LANGUAGES for p in language_pages(lang, docs_dir).values()]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m pytorch_notes.prose", description=__doc__.split("\n\n")[0])
    ap.add_argument("pages", nargs="*", type=Path, help="pages to check (default: every page of docs/)")
    args = ap.parse_args(argv)
    problems: list[Problem] = []
    for page in args.pages or chapter_pages():
        try:
            problems += check_page(page)
        except ValueError as exc:  # PageError, ExampleError, front matter
            problems.append(Problem(display_path(page), 0, str(exc)))
    for p in problems:
        print(p)
    print(f"prose: {len(problems)} problem(s)", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
