"""Notebook pages and the downloads (issue 14, point 7).

* The notebook (``render/notebook.py``): its first cell is titled by chapter and example, says where
  the outputs were captured, and links the chapter only by an absolute URL; the ``.py`` download gets
  a comment header saying the same and is otherwise the example.
* The built site (the session fixture ``site``): notebook pages are titled "chapter · example", have
  prev/next links and download buttons whose files exist and work outside the site, and the file
  under ``examples/`` is unchanged.
* In Chromium (marked ``browser``): no raw cell-tag chip, the title not cut off in the sidebar, and
  code readable at 375 px (wide code blocks, no sideways scrolling of the page). A screenshot goes to
  ``artifacts/screenshots/notebook-375.png``.
"""

from __future__ import annotations

import functools
import json
import os
import re
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from benchmarks.chromium import find_chromium
from pytorch_notes.comments import localize
from pytorch_notes.pages import find_embeds, language_pages
from pytorch_notes.parse import parse_example, resolve_example
from pytorch_notes.render.download import run_past_errors
from pytorch_notes.render.notebook import build_notebook, dumps, provenance_text, py_download
from pytorch_notes.settings import EXAMPLES_DIR, LANGUAGES
from pytorch_notes.store.records import freshness

ROOT = Path(__file__).resolve().parent.parent
SCREENSHOTS = ROOT / "artifacts" / "screenshots"
EXAMPLE = "autograd/inplace_error.py"  # has a cell whose exception is expected (a "raises-exception" tag)
MD_LINK = re.compile(r"\]\(([^)\s]+)")
HREF = re.compile(r'href="([^"]*)"')


def record_of(rel: str):
    return freshness(parse_example(resolve_example(rel))).record


def page_dir(lang: str) -> str:
    return "" if lang == LANGUAGES[0] else f"{lang}/"


def chapter_titles(lang: str) -> dict[str, str]:
    """example -> title (first heading) of the first page of ``lang`` that embeds it."""
    found: dict[str, str] = {}
    for rel_page, path in language_pages(lang).items():
        text = path.read_text(encoding="utf-8")
        title = next((ln[2:].strip() for ln in text.splitlines() if ln.startswith("# ")), rel_page)
        for e in find_embeds(text, rel_page):
            found.setdefault(e.rel, title)
    return found


# --- the notebook and the .py download, as files ------------------------------------------------

@pytest.mark.parametrize("lang, chapter", [("zh", "自动求导"), ("en", "Autograd")])
def test_first_cell_titles_and_says_where_the_outputs_were_captured(lang, chapter):
    import nbformat
    record = record_of(EXAMPLE)
    nb = nbformat.reads(dumps(build_notebook(record, lang, chapter, "https://notes.example.org/autograd/")),
                        as_version=4)
    nbformat.validate(nb)
    first = nb.cells[0]
    assert first.cell_type == "markdown"
    assert first.source.splitlines()[0] == f"# {chapter} · inplace_error.py"
    p = record.provenance
    for fact in (p.device, f"torch {p.torch}", p.captured_at[:10]):
        assert fact in first.source, f"the first cell does not say {fact!r}"
    assert MD_LINK.findall(first.source) == ["https://notes.example.org/autograd/"]
    raising = [c for c in nb.cells if c.cell_type == "code" and "raises-exception" in c.metadata.get("tags", [])]
    assert raising, "the tag Jupyter needs to run on past an expected error is kept in the .ipynb"


def test_a_relative_chapter_url_gives_no_link():
    nb = build_notebook(record_of(EXAMPLE), "zh", "自动求导", "../../../autograd/")
    text = "".join(c["source"] if isinstance(c["source"], str) else "".join(c["source"])
                   for c in nb["cells"] if c["cell_type"] == "markdown")
    assert "../" not in text and not MD_LINK.findall(text), text


def test_py_download_is_the_example_then_a_comment_footer():
    record = record_of(EXAMPLE)
    source = (EXAMPLES_DIR / EXAMPLE).read_text(encoding="utf-8")
    text = py_download(source, record, ["https://notes.example.org/autograd/", "../relative/"])
    code = run_past_errors(source)
    assert text.startswith(code), "first the example (its raises= cells wrapped), line for line"
    footer = text[len(code):]
    assert all(ln.startswith("# ") for ln in footer.strip().splitlines()), footer
    assert provenance_text(record) in footer and f"examples/{EXAMPLE}" in footer
    assert "https://notes.example.org/autograd/" in footer and "../relative/" not in footer
    compile(text, EXAMPLE, "exec")
    shebang = py_download("#!/usr/bin/env python3\n# %%\nprint(1)\n", record, [])
    assert shebang.startswith("#!/usr/bin/env python3\n# %%\n"), "a shebang stays the first line"


# --- the built site -----------------------------------------------------------------------------

def notebook_pages(site: Path, lang: str) -> list[Path]:
    return sorted((site / page_dir(lang) / "notebooks").glob("*/*/index.html"))


@pytest.mark.xdist_group("site")
def test_notebook_pages_are_titled_by_chapter_and_example(site):
    for lang in LANGUAGES:
        titles = chapter_titles(lang)
        pages = notebook_pages(site, lang)
        assert len(pages) >= 10
        for page in pages:
            rel = "/".join(page.parent.relative_to(site / page_dir(lang) / "notebooks").parts) + ".py"
            expected = f"{titles[rel]} · {rel.rsplit('/', 1)[1]}"
            html = page.read_text(encoding="utf-8")
            (title,) = re.findall(r"<title>([^<]*)</title>", html)
            assert title.startswith(expected + " - "), f"{page}: title {title!r}, expected {expected!r}"
            h1 = re.search(r"<h1[^>]*>(.*?)<", html).group(1)
            assert h1.strip() == expected, f"{page}: heading {h1!r}"
            # the sidebar lists it under its chapter's group, by the file name alone (issue 27)
            active = re.search(r'md-nav__link--active[^>]*>\s*<span class="md-ellipsis">\s*(.*?)\s*</span>',
                               html, re.S)
            name = rel.rsplit("/", 1)[1]
            assert active and active.group(1) == name, f"{page}: sidebar entry {active and active.group(1)!r}"


@pytest.mark.xdist_group("site")
def test_notebook_pages_have_prev_and_next(site):
    for lang in LANGUAGES:
        pages = notebook_pages(site, lang)
        linked = 0
        for page in pages:
            html = page.read_text(encoding="utf-8")
            for kind in ("prev", "next"):
                m = re.search(rf'<a href="([^"]+)" class="md-footer__link md-footer__link--{kind}"', html)
                if m:
                    linked += 1
                    target = (page.parent / m.group(1)).resolve()
                    assert (target / "index.html").is_file(), f"{page}: {kind} link {m.group(1)} is broken"
                    assert "/notebooks/" in target.as_posix(), f"{page}: {kind} leaves the notebooks"
        assert linked >= 2 * len(pages) - 2, f"{lang}: notebook pages without prev/next ({linked} links)"


@pytest.mark.xdist_group("site")
def test_notebook_page_downloads_work_outside_the_site(site):
    for lang in LANGUAGES:
        page = site / page_dir(lang) / "notebooks" / EXAMPLE[:-3] / "index.html"
        html = page.read_text(encoding="utf-8")
        bar = re.search(r'<nav class="pn-nb-actions".*?</nav>', html, re.S)
        assert bar, f"{page}: no download buttons"
        links = {Path(h).suffix or "page": h for h in HREF.findall(bar.group(0))}
        assert set(links) >= {".ipynb", ".py", "page"}, links
        assert bar.group(0).count(" download>") == 2, "the .ipynb and the .py are downloads"

        ipynb = (page.parent / links[".ipynb"]).resolve()
        nb = json.loads(ipynb.read_text(encoding="utf-8"))
        record = record_of(EXAMPLE)
        first = "".join(nb["cells"][0]["source"])
        assert provenance_text(record) in first, first
        for cell in nb["cells"]:
            if cell["cell_type"] == "markdown":
                for url in MD_LINK.findall("".join(cell["source"])):
                    assert url.startswith(("http://", "https://")), f"{ipynb}: relative link {url!r}"

        py = (page.parent / links[".py"]).resolve()
        assert py == (site / page_dir(lang) / "examples" / EXAMPLE).resolve(), f"{py}: not the {lang} download"
        served = py.read_text(encoding="utf-8")
        original = (EXAMPLES_DIR / EXAMPLE).read_text(encoding="utf-8")
        shown = localize(original, lang)  # the comments in the page's language
        code = run_past_errors(shown)
        assert served.startswith(code) and served != code, f"{py} is not the example with a footer"
        footer = served[len(code):]
        assert provenance_text(record) in footer and all(ln.startswith("#") for ln in footer.splitlines() if ln)
        assert not original.startswith("# PyTorch 笔记"), "the file under examples/ is unchanged"

        chapter = (page.parent / links["page"]).resolve()
        assert (chapter / "index.html").is_file(), f"{page}: chapter link {links['page']} is broken"
        # on the page, the header cell's chapter link is relative (works under make serve, from file://)
        assert 'href="http' not in html.split('<div class="jp-Cell', 2)[1], "absolute link on the page"


@pytest.mark.xdist_group("site")
def test_cell_tags_are_hidden_on_the_page(site):
    page = site / "notebooks" / EXAMPLE[:-3] / "index.html"
    html = page.read_text(encoding="utf-8")
    assert "raises-exception" in html  # nbconvert still writes the chip; the stylesheet hides it
    css = [(page.parent / h).resolve() for h in HREF.findall(html) if h.endswith("notebook.css")]
    assert css and css[0].is_file(), "notebook.css is not linked"
    rules = re.sub(r"/\*.*?\*/", "", css[0].read_text(encoding="utf-8"), flags=re.S)
    assert re.search(r"\.celltoolbar\s*\{[^}]*display:\s*none", rules), "the cell-tag chips are not hidden"


# --- in a browser -------------------------------------------------------------------------------

class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 - http.server's signature
        pass


@pytest.fixture(scope="module")
def phone_page(site):
    """The notebook page of ``EXAMPLE`` in a 375 px wide Chromium tab (served from the built site)."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("playwright is not installed")
    chromium = find_chromium()
    if chromium is None:
        if os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no"):
            pytest.fail("no Chromium; CI is set, so the browser tests must run")
        pytest.skip("no Chromium found")
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(site)))
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=chromium, args=["--no-sandbox"], headless=True)
            context = browser.new_context(viewport={"width": 375, "height": 812}, color_scheme="light")
            tab = context.new_page()
            tab.goto(f"http://127.0.0.1:{server.server_port}/notebooks/{EXAMPLE[:-3]}/", wait_until="load")
            SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            tab.screenshot(path=str(SCREENSHOTS / "notebook-375.png"))
            yield tab
            browser.close()
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.browser
@pytest.mark.xdist_group("site")
def test_no_tag_chip_is_shown(phone_page):
    shown = phone_page.evaluate("""() => [...document.querySelectorAll('.cell-tag, .celltoolbar')]
        .filter((e) => e.getClientRects().length > 0).map((e) => e.textContent.trim())""")
    assert shown == [], f"tag chips on the page: {shown}"


@pytest.mark.browser
@pytest.mark.xdist_group("site")
def test_code_is_readable_on_a_phone(phone_page):
    facts = phone_page.evaluate("""() => {
      const doc = document.scrollingElement;
      const pres = [...document.querySelectorAll('.jp-CodeCell .jp-InputArea pre')];
      const ch = (() => { const s = document.createElement('span'); s.textContent = 'x'.repeat(10);
        pres[0].appendChild(s); const w = s.getBoundingClientRect().width / 10; s.remove(); return w; })();
      const actions = [...document.querySelectorAll('.pn-nb-actions a')].filter((a) => a.getClientRects().length);
      return {sideways: doc.scrollWidth - doc.clientWidth, widths: pres.map((p) => p.clientWidth), ch,
              actions: actions.length};
    }""")
    assert facts["sideways"] <= 1, f"the page scrolls sideways by {facts['sideways']} px at 375 px"
    chars = [round(w / facts["ch"]) for w in facts["widths"]]
    assert chars and min(chars) >= 36, f"characters of code per line at 375 px: {chars}"
    assert facts["actions"] == 3, "the download buttons are not all visible on a phone"


@pytest.mark.browser
@pytest.mark.xdist_group("site")
def test_title_is_not_cut_off_in_the_sidebar(site, phone_page):
    phone_page.set_viewport_size({"width": 1280, "height": 800})
    cut = phone_page.evaluate("""() => [...document.querySelectorAll('.md-sidebar--primary .md-nav__link .md-ellipsis')]
        .filter((e) => e.getClientRects().length && e.scrollWidth > e.clientWidth + 1)
        .map((e) => e.textContent.trim())""")
    phone_page.set_viewport_size({"width": 375, "height": 812})
    assert cut == [], f"sidebar entries cut off: {cut}"
