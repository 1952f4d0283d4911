"""Find example embeds in Markdown pages.

The embed syntax is one line on its own::

    ::: example <chapter>/<name>.py

where the path is relative to ``examples/``. The line may be indented to sit inside a content tab,
an admonition, a collapsible block or a list item; the example is rendered at that depth. Lines in
fenced code blocks and HTML comments are ignored, so a page can show the syntax itself. A line that
starts with ``:::`` but does not match the syntax (a misspelled keyword, a bad path) is an error
(``PageError``) rather than silently left as text. Also the pages' titles and outlines, the checks that
keep the two languages in step, and ``html_in_headings`` (a heading holding an HTML tag). Standard library
only; used by the MkDocs glue and by the tests.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from pytorch_notes.filememo import file_memo
from pytorch_notes.parse import EXAMPLE_ID_PATTERN, NAME_RULE
from pytorch_notes.settings import DOCS_DIR, LANGUAGES

EMBED_RE = re.compile(rf"^(?P<indent>[ \t]*)::: example (?P<rel>{EXAMPLE_ID_PATTERN})\s*$")
_EMBED_PREFIX = re.compile(r"^\s*:::\s*(?P<keyword>\S*)")
_FENCE_RE = re.compile(r"^\s*(`{3,}|~{3,})")


class PageError(ValueError):
    """A page uses the embed syntax wrongly; ``str()`` starts with ``page:line:``."""


@dataclass(frozen=True)
class Embed:
    """One embed line: ``page`` (a path), 1-based ``line``, example id ``rel``, the line's ``indent``,
    and ``occurrence``: 1 for the first embed of ``rel`` on the page, 2 for the second, ..."""

    page: str
    line: int
    rel: str
    indent: str = ""
    occurrence: int = 1

    @property
    def anchor(self) -> str:
        """The HTML id of the embedded block, unique on its page: ``example-<chapter>-<name>[-<n>]``."""
        base = "example-" + self.rel[:-3].replace("/", "-")
        return base if self.occurrence == 1 else f"{base}-{self.occurrence}"


def prose_lines(markdown: str):
    """Yield ``(line number, line)`` for each line outside fenced code blocks and HTML comments
    (1-based numbers). A comment is recognised from a line that starts with ``<!--`` to the line
    that holds its ``-->``."""
    fence, comment = None, False
    for lineno, line in enumerate(markdown.splitlines(), start=1):
        if comment:
            comment = "-->" not in line
            continue
        if fence is None and line.lstrip().startswith("<!--"):
            comment = "-->" not in line.split("<!--", 1)[1]
            continue
        m = _FENCE_RE.match(line)
        if m:
            mark = m.group(1)
            if fence is None:
                fence = mark
            elif mark[0] == fence[0] and len(mark) >= len(fence) and not line.strip()[len(mark):].strip():
                fence = None
            continue
        if fence is None:
            yield lineno, line


def find_embeds(markdown: str, page: str) -> list[Embed]:
    """All embeds of ``markdown`` in order.

    Args:
        markdown: the page's source.
        page: the page's name for messages, e.g. ``docs/zh/autograd.md``.

    Raises:
        PageError: a line looks like an embed but is malformed.
    """
    embeds: list[Embed] = []
    seen: dict[str, int] = {}
    for lineno, line in prose_lines(markdown):
        hit = EMBED_RE.match(line)
        if hit:
            rel = hit.group("rel")
            seen[rel] = seen.get(rel, 0) + 1
            embeds.append(Embed(page, lineno, rel, hit.group("indent"), seen[rel]))
        elif bad := _EMBED_PREFIX.match(line):
            keyword = bad.group("keyword")
            what = (f"unknown keyword {keyword!r} (did you mean `::: example`?)" if keyword != "example"
                    else f"malformed example embed {line.strip()!r}")
            raise PageError(f"{page}:{lineno}: {what}; write `::: example <chapter>/<name>.py` alone on the line, "
                            f"with the path relative to examples/; {NAME_RULE}")
    return embeds


def first_heading(markdown: str) -> str | None:
    """The text of the page's first level-1 heading (a line starting ``# ``), or None."""
    return next((ln[2:].strip() for ln in markdown.splitlines() if ln.startswith("# ")), None)


_HEADING_LINE = re.compile(r"^ {0,3}#{1,6}[ \t]")
_CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")
_TAG = re.compile(r"</?[A-Za-z][\w-]*(?:\s[^<>]*)?/?>")  # what Python-Markdown passes on as raw HTML


def html_in_headings(markdown: str, page: str) -> list[str]:
    """``page:line: ...`` for each heading of ``markdown`` (outside code fences and comments) that holds an HTML
    tag outside a code span, such as ``<lambda>`` in a quoted message. Markdown passes the tag on: the reader
    sees it vanish, and Material's search, which parses the HTML, takes the rest of the page into that
    heading's title, weighed 8 times as much as text (issue 44: the three sections of data-loading/ after
    "Can't pickle <function <lambda>>" made it the first result for "make model smaller for deployment")."""
    found = []
    for lineno, line in prose_lines(markdown):
        if _HEADING_LINE.match(line) and (tag := _TAG.search(_CODE_SPAN.sub("", line))):
            found.append(f"{page}:{lineno}: the heading holds {tag.group(0)}, which Markdown keeps as an HTML tag; "
                         "write the text in backticks")
    return found


_FRONT_MATTER = re.compile(r"\A---\n(.*?)\n---\n", re.S)
_FRONT_TITLE = re.compile(r"""^title:[ \t]*(?P<q>["']?)(?P<title>.*?)(?P=q)[ \t]*$""", re.M)


def split_front_matter(markdown: str) -> tuple[str, str]:
    """(the front matter's text between its ``---`` lines, or ``""``; the page's Markdown after it)."""
    front = _FRONT_MATTER.match(markdown)
    return (front.group(1), markdown[front.end():]) if front else ("", markdown)


def page_title(markdown: str) -> str | None:
    """The page's title as MkDocs names it in the nav and the window title: ``title:`` in the front
    matter when there is one (a short name beside a longer first heading: "快速上手" for "快速上手：训练
    第一个模型的完整示例"), else the first level-1 heading; None without either. (MkDocs reads the
    front matter as YAML; a title here is one plain or quoted line.)"""
    front, body = split_front_matter(markdown)
    if (m := _FRONT_TITLE.search(front)) and m.group("title").strip():
        return m.group("title").strip()
    return first_heading(body)


@file_memo
def page_outline(path: Path, name: str) -> tuple[str | None, tuple[Embed, ...]]:
    """The title of the page at ``path`` (``page_title``: its nav name) and its embeds (``find_embeds``, with
    ``name`` in messages), read again only when the file changes: a build asks for every page's several
    times (notebooks, navigation, the rebuild plan of ``make serve``).

    Raises:
        PageError: a malformed embed (not remembered: the next call reads the file again).
        OSError: the file cannot be read.
    """
    text = Path(path).read_text(encoding="utf-8")
    return page_title(text), tuple(find_embeds(text, name))


def language_pages(lang: str, docs_dir: Path = DOCS_DIR) -> dict[str, Path]:
    """Hand-written Markdown pages of one language, keyed by path relative to ``docs/<lang>/``."""
    root = Path(docs_dir) / lang
    pages = {}
    for p in sorted(root.rglob("*.md")):
        pages[p.relative_to(root).as_posix()] = p
    return pages


def all_embeds(docs_dir: Path = DOCS_DIR) -> list[Embed]:
    """Every embed of every page in every language (page paths relative to the repository)."""
    found = []
    for lang in LANGUAGES:
        for path in language_pages(lang, docs_dir).values():
            name = path.relative_to(Path(docs_dir).parent).as_posix()
            found.extend(page_outline(path, name)[1])
    return found


# --- consistency of the two languages (used by tests/content/test_content.py) -------------------------

def missing_twins(docs_dir: Path = DOCS_DIR) -> list[str]:
    """One message per page that exists in one language only, naming both files."""
    pages = {lang: set(language_pages(lang, docs_dir)) for lang in LANGUAGES}
    root = Path(docs_dir).name
    return [f"{root}/{other}/{p} is missing ({root}/{lang}/{p} exists)"
            for lang in LANGUAGES for other in LANGUAGES if other != lang
            for p in sorted(pages[lang] - pages[other])]


def embed_mismatches(docs_dir: Path = DOCS_DIR) -> list[str]:
    """One message per page whose twins embed different examples (or in another order).

    Raises:
        PageError: a page has a malformed embed.
    """
    per_lang = {lang: language_pages(lang, docs_dir) for lang in LANGUAGES}
    root = Path(docs_dir).name
    problems = []
    for page in sorted(set.intersection(*(set(p) for p in per_lang.values()))):
        found = {lang: [e.rel for e in find_embeds(per_lang[lang][page].read_text(encoding="utf-8"),
                                                   f"{root}/{lang}/{page}")]
                 for lang in LANGUAGES}
        first, *others = LANGUAGES
        for other in others:
            if found[first] != found[other]:
                problems.append(f"{root}/{first}/{page} and {root}/{other}/{page} embed different examples: "
                                f"{found[first]} vs {found[other]}")
    return problems


def orphan_examples(examples: list[Path], examples_dir: Path, docs_dir: Path = DOCS_DIR) -> list[str]:
    """Example files (``examples``, under ``examples_dir``) that no page embeds."""
    embedded = {e.rel for e in all_embeds(docs_dir)}
    return [f"examples/{p.relative_to(examples_dir).as_posix()}" for p in examples
            if p.relative_to(examples_dir).as_posix() not in embedded]
