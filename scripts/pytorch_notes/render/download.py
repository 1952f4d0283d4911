"""The ``.py`` download of an example: a script a reader runs to its end, numbered as the page numbers it.

The page shows the example's code cell by cell, with the line numbers of the example file in the reader's
language (``comments.localize``), and a cell declared ``raises="…"`` with its error as the output. Run as
it is, the file would stop at the first such error. So the download wraps each of those cells in
``try:`` / ``except Exception:``, printing the traceback (to stderr, as Python would) and going on, and
does it without moving a line: ``try:`` goes on the cell's marker line, the cell's body is indented, and
the ``except`` clause takes the cell's trailing blank line (or the start of the next cell's marker line,
or a new last line at the end of the file). A comment footer names the example, where its outputs were
captured and the chapters that explain it; it comes last, so that line N of the download is line N on
the page. Standard library only.

Errors: none raised; a cell whose body holds a triple-quoted string is left unwrapped (indenting would
change the string), and the download then stops at its error, as the example itself does.
"""

from __future__ import annotations

from pytorch_notes.characters import python_lines
from pytorch_notes.comments import localize
from pytorch_notes.parse import cell_options
from pytorch_notes.render.escape import safe_rel
from pytorch_notes.render.strings import both
from pytorch_notes.store.model import Record

INDENT = "    "
EXCEPT = 'except Exception:  __import__("traceback").print_exc()'
FOOTER = (f"\n# {both('py_added')}\n# {both('py_site')}: examples/{{rel}}\n"
          f"# {both('py_captured')}: {{facts}}\n{{explained}}")


def _cells(lines: list[str]) -> list[tuple[int, int, bool]]:
    """(marker line, end line exclusive, raises?) of each cell, 0-based, in ``lines`` (the cells as
    ``parse.cell_options`` reads them)."""
    markers = cell_options("".join(lines))
    return [(s, markers[k + 1][0] if k + 1 < len(markers) else len(lines), "raises" in options)
            for k, (s, options) in enumerate(markers)]


def run_past_errors(source: str) -> str:
    """``source`` with every ``raises=`` cell wrapped so that the script goes on past its error; the
    same number of lines before the last one, each statement on the line it had (see the module)."""
    lines = python_lines(source, keepends=True)  # where Python ends lines, as parse.py splits them
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += "\n"
    appended: list[str] = []
    cells = _cells(lines)
    raising = {start for start, _, raises in cells if raises}
    for start, end, raises in reversed(cells):
        body = lines[start + 1:end]
        if not raises or any('"""' in ln or "'''" in ln for ln in body):
            continue
        if not any(ln.strip() and not ln.lstrip().startswith("#") for ln in body):
            continue  # no statement to wrap
        last = end - 1
        while last > start and not lines[last].strip():
            last -= 1
        lines[start] = "try:  " + lines[start]
        for i in range(start + 1, last + 1):
            if lines[i].strip():
                lines[i] = INDENT + lines[i]
        if last + 1 < end:  # the cell's trailing blank line
            lines[last + 1] = EXCEPT + "\n"
        elif end < len(lines) and end not in raising and not lines[end].startswith("try:"):
            lines[end] = EXCEPT + "  " + lines[end]
        elif end == len(lines):
            appended.append(EXCEPT + "\n")
        else:  # two raises= cells with no line between them: one more line, from here on
            lines.insert(end, EXCEPT + "\n")
    return "".join(lines + appended)


def py_download(source: str, record: Record | None, chapter_urls: list[str], lang: str | None = None,
                facts: str = "–") -> str:
    """The ``.py`` download of an example (see the module).

    Args:
        source: the example file's text.
        record: the record whose outputs the page shows (its example path names the file); None when
            never captured.
        chapter_urls: the pages that embed it; only absolute ``http(s)://`` URLs are kept (a relative
            link breaks once the file is downloaded).
        lang: the language of the comments (``comments.localize``); None keeps them as written.
        facts: the one-line provenance of ``record`` (``notebook.provenance_text``).
    """
    rel = safe_rel(record.example) if record is not None else "?"
    explained = "".join(f"# {both('py_explained')}: {url}\n" for url in chapter_urls
                        if url.startswith(("http://", "https://")))
    code = run_past_errors(localize(source, lang) if lang else source)
    return code + FOOTER.format(rel=rel, facts=facts, explained=explained)
