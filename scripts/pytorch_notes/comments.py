"""Stage 1, parse: bilingual code comments, shown to each reader in the page's language.

Every prose comment of an example is written in both languages, in the one form documented in
CONTRIBUTING.md, "代码注释" / "Code comments" (under "示例的写法" / "Writing an example"): ``# zh:``
lines then ``# en:`` lines, or ``# zh: … | en: …`` after code. What is not prose passes through as
it is: cell markers, the ``# /// example`` header block (``parse.py``), pragmas (``# noqa``,
``# type:``, ``# pragma:``, ``# fmt:``), a shebang or coding line, a bare ``#``.

``localize`` turns an example's source into what a reader of one language sees: only that
language's lines of each group, without the tag. ``problems`` lists what breaks the form, as
``path:line: message``. Comments never reach the key of what executes (``parse.code_key`` is
ast-based), so neither translating nor localizing them makes stored outputs stale.

The comments are found with ``tokenize`` (https://docs.python.org/3/library/tokenize.html), so a
``#`` inside a string is never taken for one. Standard library only.
"""

from __future__ import annotations

import io
import re
import tokenize
from dataclasses import dataclass
from pathlib import Path

from pytorch_notes.characters import python_lines, python_newlines
from pytorch_notes.filememo import value_memo
from pytorch_notes.parse import CELL_MARKER

LANGS = ("zh", "en")

_TAG_RE = re.compile(r"^#\s?(?P<tag>zh|en):(?: ?)(?P<text>.*)$")
# Something that looks like a language tag but is not one of ours: `# fr: …`, `# ZH: …`, `# zh：…`
# (full-width colon), `# zh-cn: …`. Ordinary words followed by a colon (`# note: …`) are not tags.
_UNKNOWN_TAG_RE = re.compile(r"^#\s*(?P<tag>(?:[a-z]{2}|[A-Z]{2}|[A-Z][a-z])(?:[-_][A-Za-z]{2,4})?)\s*[:：]")
_TRAILING_RE = re.compile(r"^#\s?zh:\s?(?P<zh>.*?)\s*\|\s*en:\s?(?P<en>.*)$")
_PRAGMA_RE = re.compile(r"^#\s*(noqa\b|type:|pragma\b|fmt:|pylint:|mypy:|ruff:)")
_HEADER_OPEN, _HEADER_CLOSE = "# /// example", "# ///"
_FORM = "see CONTRIBUTING.md, 'Code comments'"


@dataclass(frozen=True)
class _Comment:
    line: int  # 1-based
    col: int
    text: str  # the comment token, from "#" to the end of the line
    full_line: bool  # nothing but whitespace before it

    @property
    def indent(self) -> int:
        return self.col


def _header_lines(lines: list[str]) -> int:
    """How many lines the ``# /// example`` header occupies (0 without one)."""
    if not lines or lines[0].rstrip() != _HEADER_OPEN:
        return 0
    for i, line in enumerate(lines[1:], start=2):
        if line.rstrip() == _HEADER_CLOSE:
            return i
        if not line.startswith("#"):
            return i - 1  # unclosed: parse.py reports it; stop at the first non-comment line
    return len(lines)


def _comments(source: str) -> list[_Comment]:
    """Every comment token of ``source``, in order. Raises tokenize.TokenError / SyntaxError."""
    lines = python_lines(source)
    found = []
    for tok in tokenize.generate_tokens(io.StringIO(python_newlines(source)).readline):  # rows as python_lines
        if tok.type == tokenize.COMMENT:
            row, col = tok.start
            before = lines[row - 1][:col] if row - 1 < len(lines) else ""
            found.append(_Comment(row, col, tok.string.rstrip(), not before.strip()))
    return found


def _exempt(c: _Comment, header: int) -> bool:
    """Not prose: a cell marker, the header block, a pragma, a shebang or coding line, a bare ``#``."""
    text = c.text
    if c.line <= header or CELL_MARKER.match(text) or _PRAGMA_RE.match(text) or text.strip() == "#":
        return True
    return c.line <= 2 and (text.startswith("#!") or re.match(r"^#.*coding[:=]", text) is not None)


def _tag(text: str) -> tuple[str, str] | None:
    """(language, text) of a tagged full-line comment, or None."""
    m = _TAG_RE.match(text)
    return (m.group("tag"), m.group("text")) if m else None


# a cell option captioning a figure in one language (parse.DESCRIPTIVE_CELL_KEYS), as a marker line writes it
_OTHER_CAPTION = {lang: re.compile(rf'\s+caption_{other}="(?:[^"\\]|\\.)*"')
                  for lang, other in (("zh", "en"), ("en", "zh"))}


@value_memo("localize")  # pages, notebooks and downloads localize the same cells, in every build
def localize(source: str, lang: str) -> str:
    """The source of an example (or of one of its cells) as shown to a reader of ``lang``.

    Of each bilingual full-line group only the ``lang`` lines stay, as ``# text`` at their
    indentation (the ``zh: ``/``en: `` tag removed); the other language's lines are dropped.
    A trailing ``# zh: … | en: …`` keeps only the ``lang`` part. A cell marker loses the other language's
    caption (``caption_zh="…"`` for ``"en"``). Untagged comments, code, strings
    and the line structure of the code are unchanged. Source that does not tokenize is returned as is.

    Args:
        source: Python source.
        lang: ``"zh"`` or ``"en"``.

    Raises:
        ValueError: ``lang`` is not one of ``LANGS``.
    """
    if lang not in LANGS:
        raise ValueError(f"unknown language {lang!r}; expected one of {LANGS}")
    try:
        comments = _comments(source)
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return source
    lines = python_lines(source, keepends=True)
    header = _header_lines(python_lines(source))
    drop: set[int] = set()
    for c in comments:
        if c.full_line and c.line > header and CELL_MARKER.match(c.text):
            # a cell's caption in the other language (caption_zh= on an English page) leaves its marker
            line = lines[c.line - 1]
            other = _OTHER_CAPTION[lang].sub("", c.text)
            lines[c.line - 1] = line[:c.col] + other + line[c.col + len(c.text):]
            continue
        if _exempt(c, header):
            continue
        line = lines[c.line - 1]
        end = line[c.col + len(c.text):]  # the spaces and newline after the comment
        if c.full_line:
            tagged = _tag(c.text)
            if tagged is None:
                continue
            if tagged[0] != lang:
                drop.add(c.line)
            else:
                lines[c.line - 1] = line[:c.col] + ("# " + tagged[1] if tagged[1] else "#") + end
            continue
        m = _TRAILING_RE.match(c.text)
        if m:
            shown = m.group(lang)
        else:
            tagged = _tag(c.text)  # one language only (a problem): show what there is
            if tagged is None:
                continue
            shown = tagged[1]
        lines[c.line - 1] = line[:c.col] + "# " + shown.strip() + end
    return "".join(ln for i, ln in enumerate(lines, start=1) if i not in drop)


def problems(source: str, path: Path | str) -> list[str]:
    """What breaks the bilingual comment form in ``source``, each as ``path:line: message``.

    Flags an untagged prose comment, a group with ``zh`` lines but no ``en`` lines after them
    (or ``en`` lines with no ``zh`` lines before them), ``en`` before ``zh``, the two languages of a
    group at different indentation, a trailing comment that lacks a language, and an unknown tag
    (``# fr: …``, ``# ZH: …``, ``# zh：…``). Cell markers, the header block, pragmas, a shebang or
    coding line and a bare ``#`` are exempt. Source that does not tokenize is one problem.
    """
    where = str(path)
    try:
        comments = _comments(source)
    except (tokenize.TokenError, SyntaxError, IndentationError) as exc:
        return [f"{where}:1: cannot read the comments: {exc}"]
    header = _header_lines(python_lines(source))
    found: list[tuple[int, str]] = []

    def unknown(c: _Comment) -> bool:
        m = _UNKNOWN_TAG_RE.match(c.text)
        if m and _tag(c.text) is None:
            found.append((c.line, f"unknown comment tag {m.group('tag')!r} in {c.text!r}: the tags are "
                                  f"`zh:` and `en:`, lowercase, with an ASCII colon ({_FORM})"))
            return True
        return False

    # full-line comments: runs of consecutive lines, each run a sequence of zh-then-en groups
    runs: list[list[_Comment]] = []
    for c in comments:
        if _exempt(c, header):
            continue
        if not c.full_line:
            if unknown(c) or _TRAILING_RE.match(c.text):
                continue
            tagged = _tag(c.text)
            if tagged is None:
                found.append((c.line, f"untagged trailing comment {c.text!r}: write `# zh: … | en: …` ({_FORM})"))
            else:
                other = "en" if tagged[0] == "zh" else "zh"
                found.append((c.line, f"trailing comment without its {other} part: write `# zh: … | en: …` "
                                      f"({_FORM})"))
            continue
        if runs and runs[-1][-1].line == c.line - 1:
            runs[-1].append(c)
        else:
            runs.append([c])
    for run in runs:
        segment: list[tuple[_Comment, str]] = []  # tagged lines between untagged ones
        for c in [*run, None]:
            tagged = _tag(c.text) if c is not None else None
            if tagged is not None:
                segment.append((c, tagged[0]))
                continue
            _check_segment(segment, found)
            segment = []
            if c is not None and not unknown(c):
                found.append((c.line, f"untagged comment {c.text!r}: write `# zh: …` lines, then `# en: …` "
                                      f"lines ({_FORM})"))
    return [f"{where}:{line}: {message}" for line, message in sorted(found, key=lambda x: x[0])]


def _check_segment(segment: list[tuple[_Comment, str]], found: list[tuple[int, str]]) -> None:
    """Check consecutive tagged lines: blocks of one language, each zh block followed by an en block."""
    blocks: list[list[tuple[_Comment, str]]] = []
    for item in segment:
        if blocks and blocks[-1][-1][1] == item[1]:
            blocks[-1].append(item)
        else:
            blocks.append([item])
    i = 0
    while i < len(blocks):
        block, nxt = blocks[i], blocks[i + 1] if i + 1 < len(blocks) else None
        first, lang = block[0]
        if lang == "zh" and nxt is not None:  # a zh block, then an en block: one group
            if {c.indent for c, _ in block + nxt} != {first.indent}:
                found.append((first.line, "the zh and en lines of a comment group are at different indentations "
                                          f"({_FORM})"))
            i += 2
        elif lang == "zh":
            found.append((first.line, f"`# zh:` comment without `# en:` lines after it ({_FORM})"))
            i += 1
        elif nxt is not None and (i + 2 >= len(blocks)):  # en, then zh with no en after it: swapped
            found.append((first.line, f"`# en:` lines before `# zh:` lines: write the zh lines first ({_FORM})"))
            i += 2
        else:
            found.append((first.line, f"`# en:` comment without `# zh:` lines before it ({_FORM})"))
            i += 1


@dataclass(frozen=True)
class ShownCell:
    """A cell as a reader of one language sees it: its localized source and the line it starts on in the
    localized file (the example as the ``.py`` download of that language holds it)."""

    index: int
    line: int
    source: str


def shown_cells(cells, lang: str) -> dict[int, ShownCell]:
    """Each cell of an example (``parse.Cell``s, in file order) localized, by cell index.

    A cell's line is its line in the file less the lines that ``localize`` dropped from the cells
    before it (the lines between cells, cell markers and blank ones, are never dropped).
    """
    shown, dropped = {}, 0
    for cell in cells:
        text = localize(cell.source, lang)
        shown[cell.index] = ShownCell(cell.index, cell.line - dropped, text)
        dropped += cell.source.count("\n") - text.count("\n")
    return shown


def _code_offsets(source: str) -> list[int]:
    """0-based offsets of the lines of ``source`` that are neither blank nor a full-line comment."""
    return [i for i, ln in enumerate(python_lines(source)) if ln.strip() and not ln.lstrip().startswith("#")]


def map_line(line: int, ran, shown: dict[int, ShownCell], current_keys: dict[int, str]) -> int:
    """The line, in the localized file, of line ``line`` of the file as it ran (a traceback's line).

    Args:
        line: a line number of the file as captured.
        ran: the record's cells (``store.model.CellRecord``: index, line, source, key).
        shown: ``shown_cells`` of the example as it is now.
        current_keys: cell index -> key of the cell as it is now.

    Returns ``line`` itself when the cell it falls in changed since (its key differs) or its code lines
    cannot be paired one to one; comments added, removed or translated since are accounted for.
    """
    for cell in ran:
        n = cell.source.count("\n") + 1
        if not cell.line <= line < cell.line + n:
            continue
        now = shown.get(cell.index)
        if now is None or current_keys.get(cell.index) != cell.key:
            return line
        before, after = _code_offsets(cell.source), _code_offsets(now.source)
        offset = line - cell.line
        if len(before) != len(after) or offset not in before:
            return line
        return now.line + after[before.index(offset)]
    return line


def main(argv: list[str] | None = None) -> int:
    """``python -m pytorch_notes.comments [FILE_OR_FOLDER ...]``: list the comment problems of the given
    examples (default: every example under ``examples/``); exit status 1 when there is one."""
    import argparse
    import sys

    from pytorch_notes.parse import ExampleError, discover_examples, example_file
    from pytorch_notes.settings import EXAMPLES_DIR, display_path

    parser = argparse.ArgumentParser(prog="python -m pytorch_notes.comments", description=main.__doc__)
    parser.add_argument("paths", nargs="*", type=Path, help="example files or folders (default: examples/)")
    args = parser.parse_args(argv)
    files: list[Path] = [] if args.paths else discover_examples(EXAMPLES_DIR)
    for p in args.paths:
        files += sorted(p.rglob("*.py")) if p.is_dir() else [p]
    found = []
    for f in files:
        try:  # a symbolic link, a folder named *.py, a file that is not UTF-8: named, never followed or read
            text = example_file(f, EXAMPLES_DIR)[0].read_text(encoding="utf-8") if not args.paths else f.read_text(
                encoding="utf-8")
        except (ExampleError, OSError, UnicodeDecodeError) as exc:
            found.append(f"{display_path(f)}: {exc}")
            continue
        found += problems(text, display_path(f))
    print("\n".join(found) if found else f"comments: {len(files)} file(s) in the form", file=sys.stdout)
    return 1 if found else 0


if __name__ == "__main__":
    raise SystemExit(main())
