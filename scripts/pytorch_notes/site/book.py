"""The course as a PDF on the site: the book ``make pdf`` printed (``pytorch_notes.book``), carried by the
site and linked from the home page of its language, when it exists.

``make pdf`` prints from a built site, so only a later build can link what it printed: it writes
``artifacts/pdf/pytorch-notes-<lang>.pdf`` (git ignores ``artifacts/``) and builds again. A build that finds
no PDF (``make build`` or ``make serve`` before any ``make pdf``) has neither the file nor the link, so no
link dangles; ``make offline`` after ``make pdf`` carries them too.
"""

from __future__ import annotations

from pathlib import Path

from mkdocs.structure.files import File
from mkdocs.utils import get_relative_url

from pytorch_notes.pages import prose_lines
from pytorch_notes.render.strings import STRINGS
from pytorch_notes.site.urls import lang_root, src_language

FOLDER = Path("artifacts") / "pdf"  # in the checkout


def pdf_path(root: Path, lang: str) -> Path:
    """Where ``make pdf`` writes the book of ``lang`` in the checkout ``root``."""
    return root / FOLDER / f"pytorch-notes-{lang}.pdf"


def pdf_url(lang: str) -> str:
    """The book's site path in ``lang``: ``downloads/pytorch-notes-zh.pdf``, ``en/downloads/pytorch-notes-en.pdf``."""
    return lang_root(lang) + f"downloads/pytorch-notes-{lang}.pdf"


def add_pdf(files, config, root: Path, lang: str) -> None:
    """``on_files``: the book of ``lang`` into the site, when ``make pdf`` has printed it."""
    path = pdf_path(root, lang)
    if path.is_file():
        files.append(File.generated(config, pdf_url(lang), abs_src_path=str(path)))


def home_link(markdown: str, page, root: Path, lang: str, templates) -> str:
    """``on_page_markdown``: the home page (``index.md`` of a language) with a button to the book, appended
    to its first row of buttons (a line with ``.md-button``, after the course zip's), or a paragraph under
    its title; any other page, or no book printed, unchanged."""
    if src_language(page.file.src_uri)[1] != "index.md" or not pdf_path(root, lang).is_file():
        return markdown

    def button(paragraph: bool) -> str:
        return templates.render("site/book_pdf.html", paragraph=paragraph, text=STRINGS[lang]["book_pdf"],
                                href=get_relative_url(pdf_url(lang), page.file.url))

    lines = markdown.split("\n")
    for n, line in prose_lines(markdown):  # not a line of a code block or an HTML comment
        if ".md-button" in line and lines[n - 1: n] == [line]:
            lines[n - 1] = line.rstrip() + " " + button(False)
            return "\n".join(lines)
    at = next((i + 1 for i, ln in enumerate(lines) if ln.startswith("# ")), 0)
    return "\n".join(lines[:at] + ["", button(True), ""] + lines[at:])
