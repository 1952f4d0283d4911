"""What a page's prose says, for the prose check (``prose.py``): its sentences, line by line, and the numbers
they quote, read with the precision they are written to; and the numbers an output or a piece of code holds.

Markdown is read as text (``pages.prose_lines``: no fenced code, no HTML comments): a paragraph, a list item,
a heading or a table is one unit; a unit is cut into sentences at 。！？； and at ". " before a capital; a table
is one sentence, since its header names a tab for every row. Link targets, tags, attributes and code spans
that are not a bare number are not prose. Standard library only.
"""

from __future__ import annotations

import io
import re
import tokenize
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from pytorch_notes.pages import prose_lines

SMALLEST_CHECKED = 10  # integers below it are structure (cell 3, dim 1, exercise 2), not quotes
# A number as prose writes it: thousands separators, decimals, an exponent, a percent sign. Not part of a
# name (letters, digits, "_" around it), of a version with two dots, of a path, an anchor or a hex digest.
_NUM = (r"(?<![A-Za-z0-9_.#/\\-])(?P<sign>[-−])?"
        r"(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?(?:[eE][-+−]?\d+)?)"
        r"(?![A-Za-z0-9_]|\.\d|,\d{3}(?!\d))(?P<pct>\s?%)?(?:\s?(?P<unit>万亿|[万亿]|thousand|million|billion|trillion)(?![A-Za-z]))?")
NUMBER_RE = re.compile(_NUM)
# "1.34 亿" is 134,000,000 to the nearest 1,000,000; "1.1 trillion" is 1.1e12
NUMBER_UNITS = {"万": 10**4, "亿": 10**8, "万亿": 10**12, "thousand": 10**3, "million": 10**6, "billion": 10**9,
                "trillion": 10**12}
# A version: a number right after the name of what it versions ("torch 2.9", "Python 3.11", "CUDA 13.0").
# It is never backed by an output (a timing of 2.91 would back "2.9" by accident): list it under stated_numbers.
VERSIONED = re.compile(r"(?:\b(?:torch|PyTorch|Python|CUDA|cuDNN|NumPy|torchao|peft|transformers|torchvision|ONNX|"
                       r"opset|onnxruntime|MkDocs|Material|jieba|scikit-learn|matplotlib)|(?<![A-Za-z])v)\s?$")
# Numbers in outputs: the same, but letters may touch them ("1.8e-07," "tensor(15.)" "(2," "loss=0.25").
OUTPUT_NUMBER_RE = re.compile(r"(?<![0-9.])(?P<num>\d{1,3}(?:,\d{3})+(?!\d)(?:\.\d+)?|\d+(?:\.\d*)?(?:[eE][-+]?\d+)?)")
_CODE_SPAN_RE = re.compile(r"(`+)(.+?)\1")
_LINK_TARGET_RE = re.compile(r"\]\([^)]*\)|\]\[[^\]]*\]|<https?://[^>]*>|https?://\S+")
_TAG_RE = re.compile(r"<[^>]+>")
_ATTR_RE = re.compile(r"\{[:#.][^}]*\}")
_FOOTNOTE_RE = re.compile(r"\[\^[^\]]*\]")
_EMBED_RE = re.compile(r"^\s*::: example ")
_ADMONITION_RE = re.compile(r'^\s*(?:!!!|\?\?\?\+?)\s+\w[\w-]*(?:\s+inline(?:\s+end)?)?')
# A device tab named in a sentence; the kind it names.
TAB_RE = re.compile(r"(?P<name>CPU|GPU|CUDA|H100|H200)(?:[^.。;；!?！？]{0,14}?)(?:tabs?\b|标签页)")
TAB_KINDS = {"CPU": "cpu", "GPU": "cuda", "CUDA": "cuda", "H100": "cuda", "H200": "cuda"}
_SENTENCE_END_RE = re.compile(r"(?<=[。！？；])|(?<=[.!?;])\s+(?=[A-Z(“\"`*\[])")


@dataclass(frozen=True)
class Quoted:
    """A number as the prose writes it: ``text`` (as written), its ``value`` and half a unit in its last
    written place (``half``: the rounding the prose implies), ``percent`` when followed by ``%``."""

    text: str
    value: Decimal
    half: Decimal
    percent: bool = False

    def matches(self, v: Decimal) -> bool:
        """Whether ``v`` (a printed or coded number, sign ignored) rounds to this quote."""
        if self.percent and abs(abs(v) * 100 - self.value) <= self.half:
            return True
        return abs(abs(v) - self.value) <= self.half


def quoted(text: str) -> Quoted | None:
    """``text`` as a prose number (``"5,454"``, ``"2.4e-07"``, ``"0.969"``), or None if it is not one."""
    plain = text.replace(",", "").replace("−", "-")
    try:
        value = Decimal(plain)
    except InvalidOperation:
        return None
    exponent = value.as_tuple().exponent
    if not isinstance(exponent, int):
        return None
    return Quoted(text, abs(value), Decimal(5) * Decimal(10) ** (exponent - 1))


def _decimal(text: str) -> Decimal | None:
    try:
        return abs(Decimal(text.replace(",", "")))
    except InvalidOperation:
        return None


def output_numbers(text: str) -> list[Decimal]:
    """Every number printed in ``text`` (an output), sign dropped."""
    return [d for m in OUTPUT_NUMBER_RE.finditer(text) if (d := _decimal(m.group("num"))) is not None]


def code_numbers(source: str) -> list[Decimal]:
    """The number literals of an example's code (comments and strings aside)."""
    found = []
    try:
        for tok in tokenize.generate_tokens(io.StringIO(source).readline):
            if tok.type == tokenize.NUMBER and (d := _decimal(tok.string.replace("_", "").rstrip("jJ"))) is not None:
                found.append(d)
    except (tokenize.TokenError, SyntaxError):
        pass
    return found


def _clean(line: str) -> str:
    """A prose line with what is not prose removed: link targets, tags, attributes, non-number code spans."""
    if _EMBED_RE.match(line):
        return ""
    line = _ADMONITION_RE.sub(" ", line)
    line = _LINK_TARGET_RE.sub("] ", line)
    line = _FOOTNOTE_RE.sub(" ", line)
    line = _ATTR_RE.sub(" ", line)
    line = _CODE_SPAN_RE.sub(lambda m: m.group(2) if NUMBER_RE.fullmatch(m.group(2).strip()) else " ", line)
    return _TAG_RE.sub(" ", line)


def units(body: str, offset: int):
    """Yield ``(first line, lines)`` of each paragraph, list item, table or heading of ``body``."""
    unit: list[tuple[int, str]] = []
    table = False
    for lineno, line in prose_lines(body):
        stripped = line.strip()
        starts_item = bool(re.match(r"^\s*(?:[-*+]|\d+\.)\s", line)) or stripped.startswith("#")
        is_table = stripped.startswith("|")
        if not stripped or (starts_item and unit) or (is_table != table and unit):
            if unit:
                yield unit
            unit = []
        table = is_table
        if stripped:
            unit.append((lineno + offset, line))
            if stripped.startswith("#"):
                yield unit
                unit = []
    if unit:
        yield unit


def sentences(unit: list[tuple[int, str]], is_table: bool):
    """Yield ``(line, sentence)``; a table is one sentence (its header names a tab for every row)."""
    if is_table:
        yield unit[0][0], " ".join(_clean(t) for _, t in unit), [(n, _clean(t)) for n, t in unit]
        return
    pieces = [(n, _clean(t)) for n, t in unit]
    text = " ".join(t for _, t in pieces)
    starts, pos = [], 0
    for n, t in pieces:
        starts.append((pos, n))
        pos += len(t) + 1
    for sentence, at in _split(text):
        line = max(n for p, n in starts if p <= at) if starts else 0
        yield line, sentence, None


def _split(text: str):
    pos = 0
    for m in _SENTENCE_END_RE.finditer(text):
        if m.start() > pos:
            yield text[pos:m.start()], pos
            pos = m.end()
    if pos < len(text):
        yield text[pos:], pos
