"""Notebook pages and the downloads (issue 14, point 7; issue 28, item 4: one notebook per chapter).

* The notebook (``render/notebook.py``): its first cell is titled by chapter and example, says where
  the outputs were captured, and links the chapter only by an absolute URL; the ``.py`` download gets
  a comment header saying the same and is otherwise the example.
* The chapter notebook: a header cell, then one section per example in page order, headed by its name.
* The built site (the session fixture ``site``): one notebook page per chapter and language, titled
  "chapter · notebook", its sections in page order, each example's link landing on its section, prev/next
  links, download buttons whose files exist and work outside the site, under 300 KB without inline
  stylesheets, nothing written into ``docs/``; each example keeps its ``.ipynb`` and ``.py``.
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
from pytorch_notes.parse import parse_example, resolve_example
from pytorch_notes.render.download import run_past_errors
from pytorch_notes.render.notebook import (
    build_notebook,
    chapter_notebook_title,
    dumps,
    provenance_text,
    py_download,
)
from pytorch_notes.settings import EXAMPLES_DIR, LANGUAGES
from pytorch_notes.store.records import freshness

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "artifacts" / "screenshots"
EXAMPLE = "autograd/inplace_error.py"  # has a cell whose exception is expected (a "raises-exception" tag)
MD_LINK = re.compile(r"\]\(([^)\s]+)")
HREF = re.compile(r'href="([^"]*)"')


def record_of(rel: str):
    return freshness(parse_example(resolve_example(rel))).record


def page_dir(lang: str) -> str:
    return "" if lang == LANGUAGES[0] else f"{lang}/"


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


# --- the chapter notebook, as a file ----------------------------------------------------------------

def test_a_chapter_notebook_has_a_section_per_example_in_page_order():
    import nbformat
    from pytorch_notes.render.notebook import build_chapter_notebook
    from pytorch_notes.site.urls import section_headings

    rels = ["autograd/leaf_and_grad_fn.py", EXAMPLE, "graph/leaf_and_grad_fn.py"]
    rels = [r for r in rels if (EXAMPLES_DIR / r).is_file()]
    headings = section_headings(rels)
    sections = [(record_of(r), parse_example(resolve_example(r)), headings[r][0]) for r in rels]
    nb = nbformat.reads(dumps(build_chapter_notebook("en", "Autograd", "https://notes.example.org/autograd/",
                                                     sections)), as_version=4)
    nbformat.validate(nb)
    assert nb.cells[0].source.splitlines()[0] == "# Autograd · notebook"
    assert MD_LINK.findall(nb.cells[0].source) == ["https://notes.example.org/autograd/"]
    heads = [c.source.splitlines()[0] for c in nb.cells if c.cell_type == "markdown" and c.source.startswith("## ")]
    assert heads == [f"## {headings[r][0]}" for r in rels], "one section per example, in page order"
    counts = [c.execution_count for c in nb.cells if c.cell_type == "code"]
    assert counts == list(range(1, len(counts) + 1)), "cells numbered on through the notebook"
    assert len({c.id for c in nb.cells}) == len(nb.cells)
    for rel in rels:
        section = next(c for c in nb.cells if c.cell_type == "markdown" and f"`examples/{rel}`" in c.source)
        assert provenance_text(record_of(rel)) in section.source


def test_section_headings_name_the_example_and_stay_unique():
    from pytorch_notes.site.urls import section_headings

    assert section_headings(["a/leaf.py", "a/inplace_error.py"]) == {
        "a/leaf.py": ("leaf.py", "leafpy"), "a/inplace_error.py": ("inplace_error.py", "inplace_errorpy")}
    twice = section_headings(["a/x.py", "b/x.py"])
    assert twice == {"a/x.py": ("a/x.py", "axpy"), "b/x.py": ("b/x.py", "bxpy")}


# --- the built site -----------------------------------------------------------------------------

def notebook_pages(site: Path, lang: str) -> list[Path]:
    return sorted((site / page_dir(lang) / "notebooks").glob("*/index.html"))


def chapters_with_notebooks(lang: str):
    """The chapters of ``lang`` that embed a captured example, with those examples in page order."""
    from pytorch_notes.site.course import make_course

    out = []
    for chapter in make_course(lang, ROOT / "docs", ROOT / "examples", None, {}).chapters:
        captured = [r for r in chapter.examples if record_of(r) is not None]
        if captured:
            out.append((chapter, captured))
    return out


@pytest.mark.xdist_group("site")
def test_one_notebook_page_per_chapter_and_language(site):
    for lang in LANGUAGES:
        expected = {c.slug for c, _ in chapters_with_notebooks(lang)}
        found = {p.parent.name for p in notebook_pages(site, lang)}
        assert found == expected, f"{lang}: notebook pages {sorted(found ^ expected)} differ from the chapters"
        assert len(found) >= 30
        per_example = [p for p in (site / page_dir(lang) / "notebooks").glob("*/*/index.html")]
        assert not per_example, f"per-example notebook pages are back: {per_example[:3]}"


@pytest.mark.xdist_group("site")
def test_notebook_pages_are_titled_by_chapter(site):
    for lang in LANGUAGES:
        for chapter, _ in chapters_with_notebooks(lang):
            page = site / page_dir(lang) / "notebooks" / chapter.slug / "index.html"
            html = page.read_text(encoding="utf-8")
            expected = chapter_notebook_title(chapter.title, lang)
            (title,) = re.findall(r"<title>([^<]*)</title>", html)
            assert title.startswith(expected + " - "), f"{page}: title {title!r}, expected {expected!r}"
            h1 = re.search(r"<h1[^>]*>(.*?)<", html).group(1)
            assert h1.strip() == expected, f"{page}: heading {h1!r}"
            skip = re.search(r'<a href="#([^"]+)" class="md-skip">', html).group(1)  # "skip to content"
            assert f'<h1 id="{skip}">' in html, f"{page}: the skip link's #{skip} is not the title"
            # the sidebar lists it by its chapter's title, in the section's notebooks
            active = re.search(r'md-nav__link--active[^>]*>\s*<span class="md-ellipsis">\s*(.*?)\s*</span>',
                               html, re.S)
            assert active and active.group(1) == chapter.title, f"{page}: sidebar {active and active.group(1)!r}"


@pytest.mark.xdist_group("site")
def test_sections_follow_the_page_and_each_example_link_lands_on_its_section(site):
    """A chapter page's "notebook" link of each example opens the chapter notebook at the example's
    section, whose heading names it; the sections come in the order the page embeds the examples."""
    from pytorch_notes.site.urls import section_headings

    for lang in LANGUAGES:
        for chapter, captured in chapters_with_notebooks(lang):
            page = site / page_dir(lang) / chapter.page[: -len(".md")] / "index.html"
            notebook = site / page_dir(lang) / "notebooks" / chapter.slug / "index.html"
            nb_html = notebook.read_text(encoding="utf-8")
            ids = re.findall(r'<h2 id="([^"]+)"', nb_html)
            headings = section_headings(chapter.examples)
            assert ids == [headings[r][1] for r in captured], f"{notebook}: sections {ids}"
            links = re.findall(r'href="([^"]*notebooks/[^"]*#[^"]+)"', page.read_text(encoding="utf-8"))
            assert len(links) >= len(captured), f"{page}: {len(links)} notebook links"
            for link in links:
                path, anchor = link.split("#", 1)
                target = (page.parent / path).resolve()
                assert target == notebook.parent.resolve(), f"{page}: {link} is not its chapter's notebook"
                assert anchor in ids, f"{page}: {link} lands on no section"


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
                    assert target.parent.name == "notebooks", f"{page}: {kind} leaves the notebooks"
        assert linked == 2 * len(pages) - 2, f"{lang}: notebook pages without prev/next ({linked} links)"


@pytest.mark.xdist_group("site")
def test_notebook_page_downloads_work_outside_the_site(site):
    for lang in LANGUAGES:
        page = site / page_dir(lang) / "notebooks" / "autograd" / "index.html"
        html = page.read_text(encoding="utf-8")
        bar = re.search(r'<nav class="pn-nb-actions".*?</nav>', html, re.S)
        assert bar, f"{page}: no download buttons"
        links = {Path(h).suffix or "page": h for h in HREF.findall(bar.group(0))}
        assert set(links) >= {".ipynb", ".zip", "page"}, links
        assert bar.group(0).count(" download>") == 2, "the .ipynb and the .zip are downloads"

        ipynb = (page.parent / links[".ipynb"]).resolve()
        assert ipynb == (site / page_dir(lang) / "notebooks" / "autograd.ipynb").resolve()
        nb = json.loads(ipynb.read_text(encoding="utf-8"))
        assert any(c["cell_type"] == "markdown" and "".join(c["source"]).startswith(f"## {EXAMPLE.split('/')[1]}")
                   for c in nb["cells"]), "the chapter notebook has the example's section"
        for cell in nb["cells"]:
            if cell["cell_type"] == "markdown":
                for url in MD_LINK.findall("".join(cell["source"])):
                    assert url.startswith(("http://", "https://")), f"{ipynb}: relative link {url!r}"
        assert (page.parent / links[".zip"]).resolve().is_file(), f"{page}: {links['.zip']} missing"
        chapter = (page.parent / links["page"]).resolve()
        assert (chapter / "index.html").is_file(), f"{page}: chapter link {links['page']} is broken"
        # on the page, the header cell's chapter link is relative (works under make serve, from file://)
        assert 'href="http' not in html.split('<div class="jp-Cell', 2)[1], "absolute link on the page"


@pytest.mark.xdist_group("site")
def test_each_example_keeps_its_ipynb_and_py_downloads(site):
    """The chapter page links each example's own .ipynb (the example's notebook, header cell first) and
    its .py (the example with a footer); the file under examples/ is unchanged."""
    record = record_of(EXAMPLE)
    for lang in LANGUAGES:
        page = site / page_dir(lang) / "autograd" / "index.html"
        hrefs = HREF.findall(page.read_text(encoding="utf-8"))
        ipynb = next(h for h in hrefs if h.endswith(EXAMPLE[:-3] + ".ipynb"))
        nb = json.loads((page.parent / ipynb).resolve().read_text(encoding="utf-8"))
        assert provenance_text(record) in "".join(nb["cells"][0]["source"])
        py = next(h for h in hrefs if h.endswith(EXAMPLE))
        served = (page.parent / py).resolve().read_text(encoding="utf-8")
        original = (EXAMPLES_DIR / EXAMPLE).read_text(encoding="utf-8")
        code = run_past_errors(localize(original, lang))
        assert served.startswith(code) and served != code, f"{py} is not the example with a footer"
        assert provenance_text(record) in served[len(code):]
        assert not original.startswith("# PyTorch 笔记"), "the file under examples/ is unchanged"


@pytest.mark.xdist_group("site")
def test_notebook_pages_weigh_under_300_kb(site):
    """nbconvert's ~595 KB of inline CSS is out of the page (the rules it needs are assets/jupyter.css,
    linked once), figures are files, and no notebook page reaches 300 KB of HTML."""
    for lang in LANGUAGES:
        pages = notebook_pages(site, lang)
        assert pages
        for page in pages:
            html = page.read_text(encoding="utf-8")
            assert "<style" not in html.split('class="md-content"', 1)[1], f"{page}: inline stylesheet left"
            assert "data:image/png" not in html, f"{page}: a figure inlined"
            css = [h for h in HREF.findall(html) if h.endswith("assets/jupyter.css")]
            assert len(css) == 1 and (page.parent / css[0]).resolve().is_file(), f"{page}: jupyter.css not linked"
            size = len(html.encode("utf-8"))
            assert size < 300_000, f"{page.relative_to(site)} is {size // 1000} KB"
    for src in re.findall(r'<img[^>]+src="([^"]+)"', (site / "notebooks/images/index.html").read_text("utf-8")):
        assert (site / "notebooks/images" / src).resolve().is_file(), src


@pytest.mark.xdist_group("site")
def test_the_notebook_stylesheet_is_what_the_pages_need(site):
    """docs/assets/jupyter.css is generated from nbconvert's CSS and the pages' classes; regenerate it with
    `python -m pytorch_notes.notebook_css site` when this fails (an nbconvert upgrade, new markup)."""
    from pytorch_notes import notebook_css
    from pytorch_notes.site import notebook_styles

    stylesheet = ROOT / "docs" / notebook_styles.STYLESHEET
    assert notebook_css.generate(site) == stylesheet.read_text(encoding="utf-8")
    assert len(stylesheet.read_bytes()) < 60_000


@pytest.mark.xdist_group("site")
def test_nothing_is_written_into_docs(site):
    """The notebooks are generated files of the build, not files under docs/."""
    from pytorch_notes.settings import DOCS_DIR

    assert not list(DOCS_DIR.glob("*/notebooks")), "the build wrote notebooks into docs/"
    assert not list(DOCS_DIR.rglob("*.ipynb")), "an .ipynb under docs/"


@pytest.mark.xdist_group("site")
def test_no_notebook_is_converted_twice(site):
    """The session's build (``conftest.pytest_configure``) converts each notebook once: the ones its cold
    cache lacks, on every core (``prewarm``), and none again when a language's build renders its pages
    (mkdocs-jupyter's cache entries are kept for every language, ``notebook_view.RenderCache``)."""
    log = site.with_name(site.name + ".log")
    if not log.is_file():
        pytest.skip("the site was not built by this session's controller: no build log")
    text = log.read_text(encoding="utf-8")
    # mkdocs-jupyter's own lines are filtered (site/quiet.py), which counts and reports the conversions
    # the build's process did after prewarm's workers
    again = re.search(r"mkdocs-jupyter converted (\d+) notebooks during the build", text)
    assert not again, f"{again.group(1)} notebooks converted again after prewarm converted them"
    assert "Converting notebook" not in text and "Cache hit" not in text, "mkdocs-jupyter's lines were not filtered"
    # a quiet build (issue 27): MkDocs' progress lines, the project's summaries, warnings and errors
    assert len(text.splitlines()) <= 12, text[-3000:]


@pytest.mark.xdist_group("site")
def test_cell_tags_are_hidden_on_the_page(site):
    page = site / "notebooks" / "autograd" / "index.html"
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
            tab.goto(f"http://127.0.0.1:{server.server_port}/notebooks/autograd/", wait_until="load")
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
