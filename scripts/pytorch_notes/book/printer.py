"""Printing the book: Playwright drives the headless Chromium the browser tests use (Debian's
``chromium-headless-shell``, found by ``benchmarks.chromium.find_chromium``; Playwright's own browser
download is never used) to print ``assemble.book_html`` to an A4 PDF.

Chromium has no ``target-counter()``, so the table of contents gets its page numbers in two passes: the
first PDF says on which page each linked heading landed (its named destinations, read with pypdf), the
numbers go into the contents, and the book is printed again; the contents keep their layout (the numbers
sit in a column of fixed width), which the second PDF's destinations confirm. The footer carries the page
number. The outline (bookmarks: parts, chapters, sections, as in the contents) is written with pypdf
from the same destinations: Chromium's own (``outline=True``) needs a tagged PDF, whose structure tree made
the book 2.5 times as large (55 pages: 3.75 MB tagged, 1.47 MB not; the Chinese book went over 40 MB).
"""

from __future__ import annotations

import re
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote

from pypdf import PdfReader, PdfWriter
from pypdf.generic import Fit, NameObject, TextStringObject

from pytorch_notes.book.assemble import BookError, Chapter, book_html
from pytorch_notes.render.strings import STRINGS

HERE = Path(__file__).resolve().parent
_OUTSIDE = re.compile(r"^(?!file:)")  # any request for something not in the site's folder
BOOK_JS = (HERE / "book.js").read_text(encoding="utf-8")
FILL_JS = """(pages) => { for (const s of document.querySelectorAll(".pn-book-page")) {
  s.textContent = pages[s.dataset.for] ?? ""; } }"""
FOOTER = ('<div style="width:100%;font-size:8pt;color:#666;text-align:center;font-family:sans-serif">'
          '<span class="pageNumber"></span></div>')
MARGIN = {"top": "16mm", "bottom": "18mm", "left": "16mm", "right": "16mm"}
VIEWPORT = {"width": 673, "height": 950}  # CSS px: A4 less the margins, so that book.js measures the printed width
OVERFLOW_PX = 8  # past the page (an inline code's padding at a line's end reaches 3 px): under 1.2 % shrink
MAX_BYTES = 40_000_000  # a reader's download: 40 MB (issue 44)


@dataclass(frozen=True)
class Printed:
    """What ``print_book`` wrote: ``path``, its ``pages`` and ``bytes``, and ``seconds`` it took."""

    path: Path
    pages: int
    bytes: int
    seconds: float


def destinations(reader: PdfReader) -> dict[str, tuple[int, float | None]]:
    """The named destinations of a PDF (an element id, as Chromium names them) -> (0-based page index, the
    heading's top on it in PDF units, or None)."""
    return {unquote(name.lstrip("/")): (reader.get_destination_page_number(dest), dest.top)
            for name, dest in reader.named_destinations.items()}


def print_book(browser, site: Path, lang: str, chapters: list[Chapter], out: Path, *, built: str,
               site_url: str = "") -> Printed:
    """Print the book of ``chapters`` (``assemble.book_chapters``) of the site built in ``site`` to ``out``.

    ``browser`` is a Playwright Chromium; ``built`` the cover's line on when and from what; ``site_url`` the
    published site's address, where links to what the book leaves out (notebooks, downloads) then point.

    Raises:
        BookError: a page is missing from ``site``, something is wider than the page, a heading the contents
            link to has no page in the PDF, or the second pass moved one.
    """
    start = time.monotonic()
    out.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="pytorch-notes-book-") as tmp:
        source = Path(tmp) / "book.html"
        site_url = site_url.rstrip("/") + "/" if site_url else ""  # the URL the pages' paths resolve against
        source.write_text(book_html(site, lang, chapters, built, site_url), encoding="utf-8")
        page = browser.new_page(viewport=VIEWPORT)
        try:
            page.emulate_media(media="print")
            page.route(_OUTSIDE, lambda route: route.abort())  # the book is the site's files, and nothing else
            page.goto(source.as_uri(), wait_until="load", timeout=600_000)
            made = page.evaluate(BOOK_JS, {"root": site.resolve().as_uri() + "/", "siteUrl": site_url,
                                           "chapters": {c.url: c.anchor for c in chapters}})
            if made["overflow"] > OVERFLOW_PX:
                raise BookError(f"something is {made['overflow']} px wider than the page: Chromium would shrink "
                                f"every page of the book to fit it (book.js makes code and outputs fit)")
            entries = made["entries"]
            first, second = Path(tmp) / "first.pdf", Path(tmp) / "second.pdf"
            _pdf(page, first)
            found = destinations(PdfReader(first))
            missing = [e["id"] for e in entries if e["id"] not in found]
            if missing:
                raise BookError(f"the contents link to {len(missing)} headings without a page: {missing[:5]}")
            page.evaluate(FILL_JS, {e["id"]: str(found[e["id"]][0] + 1) for e in entries})
            _pdf(page, second)
        finally:
            page.close()
        reader = PdfReader(second)
        placed = destinations(reader)
        moved = [e["id"] for e in entries if placed.get(e["id"], (None,))[0] != found[e["id"]][0]]
        if moved:
            raise BookError(f"the second pass moved {len(moved)} headings to other pages: {moved[:5]}")
        pages = len(reader.pages)
        _with_outline(reader, entries, placed, lang, out)
    return Printed(out, pages, out.stat().st_size, time.monotonic() - start)


def _with_outline(reader: PdfReader, entries: list[dict], placed: dict, lang: str, out: Path) -> None:
    """Write ``reader``'s PDF to ``out`` with an outline of ``entries`` (nested by their level), opened on it."""
    writer = PdfWriter(clone_from=reader)
    writer.add_outline_item(title=STRINGS[lang]["book_toc"], page_number=1)  # the contents follow the cover
    parents: dict[int, object] = {}
    for entry in entries:
        index, top = placed[entry["id"]]
        level = entry["level"]
        parents[level] = writer.add_outline_item(title=entry["title"], page_number=index, parent=parents.get(level - 1),
                                                 fit=Fit.xyz(top=top) if top is not None else Fit.fit())
        for deeper in [k for k in parents if k > level]:
            del parents[deeper]
    writer.page_mode = "/UseOutlines"
    writer.root_object[NameObject("/Lang")] = TextStringObject(lang)
    with open(out, "wb") as f:
        writer.write(f)


def _pdf(page, path: Path) -> None:
    page.pdf(path=str(path), format="A4", margin=MARGIN, print_background=True,
             display_header_footer=True, header_template="<span></span>", footer_template=FOOTER)
