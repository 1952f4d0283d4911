# ruff: noqa: F811
"""The course as a book (``make pdf``, issue 44 item 12): the pages in nav order, the home page's link to the
PDF only when one was printed, and, in headless Chromium, a two-chapter book of the built site: Chinese text
that ``pdftotext`` finds (each chapter's first sentence), one tab per example, the contents' page numbers
matching the outline and the footers, every font embedded, and the size bound.
"""

from __future__ import annotations

import html
import re
import shutil
import subprocess
from pathlib import Path
from types import SimpleNamespace

import pytest
import test_browser
from pypdf import PdfReader
from pytorch_notes.book.assemble import book_chapters
from pytorch_notes.book.printer import MAX_BYTES, print_book
from pytorch_notes.render.strings import STRINGS
from pytorch_notes.render.templating import Templates
from pytorch_notes.site import book

# The browser of the main browser suite, shared (ruff: it is used as an argument, not redefined).
from test_browser import browser  # noqa: F401

TWO = ["autograd.md", "graph.md"]


def test_the_book_follows_the_nav_and_leaves_out_the_about_section():
    zh, en = book_chapters("zh"), book_chapters("en")
    assert [c.src for c in zh] == [c.src for c in en]
    assert zh[0].src == "index.md" and zh[0].url == "" and en[0].url == "en/" and zh[0].part is None
    assert {"about.md", "times.md", "deploy.md"}.isdisjoint(c.src for c in zh)
    assert len(zh) >= 40 and zh[1].src == "quickstart.md" and zh[-1].src == "references.md"
    autograd = next(i for i, c in enumerate(zh) if c.src == "autograd.md")
    assert (zh[autograd].part, en[autograd].part, en[autograd].url) == ("自动求导", "Autograd", "en/autograd/")
    assert [c.src for c in book_chapters("zh", only=TWO)] == TWO


def _home(tmp_path: Path, lang: str):
    return SimpleNamespace(file=SimpleNamespace(src_uri="index.md" if lang == "zh" else f"{lang}/index.md",
                                                url="" if lang == "zh" else f"{lang}/"))


def test_the_home_page_links_the_pdf_only_once_printed(tmp_path):
    markdown = "# Title\n\n[Start](quickstart.md){ .md-button }\n\nText.\n"
    templates = Templates.of(None)
    assert book.home_link(markdown, _home(tmp_path, "zh"), tmp_path, "zh", templates) == markdown
    for lang in ("zh", "en"):
        book.pdf_path(tmp_path, lang).parent.mkdir(parents=True, exist_ok=True)
        book.pdf_path(tmp_path, lang).write_bytes(b"%PDF-1.4\n")
        linked = book.home_link(markdown, _home(tmp_path, lang), tmp_path, lang, templates)
        row = linked.split("\n")[2]
        assert row.startswith("[Start](quickstart.md){ .md-button } <a class=\"md-button pn-book-pdf\"")
        assert f'href="downloads/pytorch-notes-{lang}.pdf"' in row and STRINGS[lang]["book_pdf"] in row
    other = SimpleNamespace(file=SimpleNamespace(src_uri="autograd.md", url="autograd/"))
    assert book.home_link(markdown, other, tmp_path, "zh", templates) == markdown


# ---------------------------------------------------------------------------------------------------------
# The book printed (browser suite)
# ---------------------------------------------------------------------------------------------------------

def _tool(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        test_browser.unavailable(f"{name} is missing (apt-get install poppler-utils)")
    return found


def _first_sentence(page_html: str) -> str:
    """The first sentence (to its 。) of the first plain paragraph of a built page's article."""
    article = page_html[page_html.index("<article"):]
    for paragraph in re.findall(r"<p>(.*?)</p>", article, re.S):
        text = html.unescape(re.sub(r"<[^>]+>", "", paragraph))
        if "。" in text:
            return text[: text.index("。") + 1]
    raise AssertionError("no Chinese sentence in the page")


def _outline(reader: PdfReader, items=None) -> list[tuple[str, int, list]]:
    found = []
    for item in reader.outline if items is None else items:
        if isinstance(item, list):
            found[-1][2].extend(_outline(reader, item))
        else:
            found.append((item.title, reader.get_destination_page_number(item) + 1, []))
    return found


@pytest.mark.browser
@pytest.mark.xdist_group("site")
def test_a_two_chapter_book(browser, site, tmp_path):
    pdftotext = _tool("pdftotext")
    chapters = book_chapters("zh", only=TWO)
    printed = print_book(browser, site, "zh", chapters, tmp_path / "book.pdf", built="test")
    assert printed.bytes < MAX_BYTES and printed.pages > 10
    text = subprocess.run([pdftotext, str(printed.path), "-"], capture_output=True, text=True, check=True).stdout
    flat = re.sub(r"\s+", "", text)
    pages = [(site / c.url / "index.html").read_text(encoding="utf-8") for c in chapters]
    for chapter, page in zip(chapters, pages, strict=True):
        sentence = _first_sentence(page)
        assert re.sub(r"\s+", "", sentence) in flat, f"{chapter.src}: {sentence!r} is not in the PDF's text"
    # one tab per example: as many provenance lines as examples, not one per device
    examples = sum(p.count('class="pn-example"') for p in pages)
    assert text.count(STRINGS["zh"]["captured"]) == examples
    # the outline: the part, its two chapters, each with its page's sections
    reader = PdfReader(printed.path)
    outline = _outline(reader)
    assert outline[0][:2] == (STRINGS["zh"]["book_toc"], 2)
    part = outline[1]
    assert part[0] == "自动求导" and [c[0] for c in part[2]] == ["自动求导", "计算图"]
    for (title, first, sections), page in zip(part[2], pages, strict=True):
        assert len(sections) == len(re.findall(r"<h2 id=", page)) and first > 2
        # its page number in the contents and in that page's footer
        toc = subprocess.run([pdftotext, "-layout", "-f", "2", "-l", "2", str(printed.path), "-"],
                             capture_output=True, text=True, check=True).stdout
        assert re.search(rf"^\s*{re.escape(title)}\s+{first}$", toc, re.M), f"{title} {first} not in:\n{toc}"
        # the footer is the page's lowest line: in reading order pdftotext may put a code line's tail after it
        footer = subprocess.run([pdftotext, "-layout", "-f", str(first), "-l", str(first), str(printed.path), "-"],
                                capture_output=True, text=True, check=True).stdout
        assert [line for line in footer.splitlines() if line.strip()][-1].strip() == str(first)
        assert all(first <= p <= len(reader.pages) for _, p, _ in sections)
    fonts = subprocess.run([_tool("pdffonts"), str(printed.path)], capture_output=True, text=True).stdout
    rows = [ln.split() for ln in fonts.splitlines()[2:] if ln.strip()]
    assert rows and all("yes" == row[-5] for row in rows), fonts  # the emb column
    assert any("WenQuanYi" in row[0] or "CJK" in row[0] or "Hei" in row[0] for row in rows), fonts
