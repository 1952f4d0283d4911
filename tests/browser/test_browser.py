"""The reader's experience: headless Chromium, driven by Playwright, against the built site.

The site (the session fixture ``site``) is served by ``http.server`` on 127.0.0.1. One module-scoped
crawl visits the pages once (each chapter in one language, by turns: ``crawled_pages``), in one browser,
one context and one tab, and records what the later
tests check: console errors, requests to other hosts, failed responses, links, anchors, figures and
notebook cells. The other tests drive the reader's actions: switching language, searching, toggling
dark mode, reading on a 375 px wide phone.

Chromium is Debian's (``benchmarks.chromium.find_chromium``: env ``CHROMIUM``, else
``chromium-headless-shell``, ``chromium`` or ``chromium-browser`` on PATH), launched through Playwright's
``executable_path``; Playwright's own browser download is never used. Without
Chromium or Playwright these tests skip, except when env ``CI`` is set: there that is a failure
(``.ci/run`` installs ``chromium-headless-shell`` and the CJK font ``fonts-wqy-zenhei``). Screenshots for review go
to ``artifacts/screenshots/``.
"""

from __future__ import annotations

import functools
import json
import os
import threading
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from benchmarks.chromium import INSTALL, find_chromium
from pytorch_notes.comments import localize
from pytorch_notes.render.download import run_past_errors

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "artifacts" / "screenshots"
HOST = "127.0.0.1"
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 375, "height": 812}

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("site")]


# ---------------------------------------------------------------------------------------------
# Finding the browser
# ---------------------------------------------------------------------------------------------

def in_ci() -> bool:
    """True when env ``CI`` is set to anything but an empty, ``0``, ``false`` or ``no`` value."""
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def unavailable(reason: str) -> None:
    """Skip the browser tests for ``reason``, or fail under CI, where they must run.

    Raises:
        pytest.fail.Exception: when ``in_ci()``.
        pytest.skip.Exception: otherwise.
    """
    if in_ci():
        pytest.fail(f"{reason}; CI is set, so the browser tests must run (.ci/run installs chromium "
                    f"and fonts-wqy-zenhei with apt-get)", pytrace=False)
    pytest.skip(reason)


# ---------------------------------------------------------------------------------------------
# Fixtures: server, browser, pages
# ---------------------------------------------------------------------------------------------

class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 - the signature is http.server's
        pass


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        pass  # a tab navigating away mid-download resets the connection; that is not a site error


@pytest.fixture(scope="module")
def base(site: Path):
    """The built site served on 127.0.0.1, a free port; yields its root URL, ending in ``/``."""
    server = _Server((HOST, 0), functools.partial(_QuietHandler, directory=str(site)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://{HOST}:{server.server_port}/"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def browser():
    """Headless Chromium through Playwright (skips or, under CI, fails where either is missing)."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        unavailable("the Python package playwright is not installed (pip install -e '.[dev]')")
    path = find_chromium()
    if path is None:
        named = os.environ.get("CHROMIUM", "").strip()
        unavailable(f"CHROMIUM={named!r} is not an executable" if named else
                    f"no Chromium found (set CHROMIUM, or install it: {INSTALL})")
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=path, args=["--no-sandbox"], headless=True)
        yield b
        b.close()


@dataclass
class Watched:
    """A tab and what it reported: console errors, uncaught exceptions, requests to other hosts."""

    page: object
    errors: list[str] = field(default_factory=list)
    foreign: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)


def watch(page) -> Watched:
    """Record console errors, page errors, requests off 127.0.0.1 and responses >= 400 of ``page``."""
    w = Watched(page)

    def on_console(msg):
        if msg.type == "error":
            loc = msg.location or {}
            w.errors.append(f"{page.url}: console error: {msg.text} ({loc.get('url', '')}:{loc.get('lineNumber', '')})")

    def on_request(req):
        parts = urlsplit(req.url)
        if parts.scheme in ("http", "https", "ws", "wss") and parts.hostname != HOST:
            w.foreign.append(f"{page.url}: requested {req.url}")

    def on_response(resp):
        if resp.status >= 400:
            w.failed.append(f"{page.url}: {resp.status} for {resp.url}")

    page.on("console", on_console)
    page.on("pageerror", lambda exc: w.errors.append(f"{page.url}: uncaught {exc}"))
    page.on("request", on_request)
    page.on("response", on_response)
    return w


@pytest.fixture
def tab(browser):
    """A watched tab in a fresh context (fresh storage), light colour scheme, desktop viewport."""
    context = browser.new_context(viewport=DESKTOP, color_scheme="light")
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield watch(page)
    context.close()


def html_lang(page) -> str:
    return page.evaluate("document.documentElement.lang")


def path_of(url: str) -> str:
    return urlsplit(url).path


# ---------------------------------------------------------------------------------------------
# The crawl: every page once
# ---------------------------------------------------------------------------------------------

VISIT_JS = """async () => {
  // Lazy images below the fold would never load in a headless tab: ask for each one now.
  const images = await Promise.all([...document.images].map(async (img) => {
    img.loading = "eager";
    await Promise.race([img.decode().catch(() => null), new Promise((r) => setTimeout(r, 10000))]);
    return {src: (img.currentSrc || img.src).slice(0, 120), width: img.naturalWidth,
            output: !!img.closest(".pn-figure, .jp-OutputArea-output")};
  }));
  return {
    lang: document.documentElement.lang,
    title: document.title,
    hrefs: [...new Set([...document.querySelectorAll("a[href]")].map((a) => a.href))],
    ids: [...document.querySelectorAll("[id]")].map((e) => e.id)
      .concat([...document.querySelectorAll("a[name]")].map((a) => a.name)),
    images,
    cells: document.querySelectorAll(".jp-Cell").length,
    rawJson: document.body.textContent.includes('"cell_type":'),
  };
}"""

# Elements sticking out past the right edge, outside any element that scrolls or clips them:
# what makes a page scroll sideways. Empty when the page fits.
OVERFLOW_JS = """() => {
  const doc = document.scrollingElement, width = doc.clientWidth;
  if (doc.scrollWidth <= width) return [];
  const clipped = (el) => {
    for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
      if (getComputedStyle(p).overflowX !== "visible") return true;
    }
    return false;
  };
  const name = (el) => el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") +
    [...el.classList].map((c) => "." + c).join("");
  const out = [];
  for (const el of document.body.querySelectorAll("*")) {
    const r = el.getBoundingClientRect();
    if (r.width && r.right > width + 1 && !clipped(el)) {
      const chain = [];
      for (let p = el; p && p !== document.body && chain.length < 4; p = p.parentElement) chain.unshift(name(p));
      out.push(`${chain.join(" > ")} (right edge ${Math.round(r.right)} px)`);
      if (out.length >= 5) break;
    }
  }
  return [`scrollWidth ${doc.scrollWidth} > clientWidth ${width}`, ...out];
}"""


@dataclass
class Visit:
    """What one page showed the crawl."""

    url: str
    status: int
    lang: str
    title: str
    hrefs: list[str]
    ids: set[str]
    images: list[dict]
    cells: int
    raw_json: bool
    overflow: list[str]


@dataclass
class Crawl:
    """Every page of the site, visited once; plus what the tab reported meanwhile."""

    visits: dict[str, Visit]
    watched: Watched
    seconds: float


def site_pages(site: Path) -> list[str]:
    """Site-relative URLs (``""``, ``"en/"``, ``"autograd/"``...) of every built page."""
    urls = []
    for index in sorted(site.rglob("index.html")):
        rel = index.parent.relative_to(site).as_posix()
        urls.append("" if rel == "." else rel + "/")
    return urls


def is_markdown_page(rel: str) -> bool:
    return "notebooks/" not in rel


NOTEBOOK_SAMPLE = 4  # the notebook page of every 4th chapter


def crawled_pages(site: Path) -> list[str]:
    """The pages the crawl loads: both home pages; every other Markdown page in one language, Chinese and
    English by turns (in sorted order: ``a/`` in zh, ``b/`` in en, ``c/`` in zh...); and the notebook page
    of every ``NOTEBOOK_SAMPLE``-th chapter, in one language by turns.

    A page pair shares its template, its code and its outputs; what differs is prose, which wraps. Loading
    a page costs Chromium ~0.8 s of CPU on this 2-core machine (half of it Material's own script), and
    the crawl of every page in both languages was a third of ``make test``'s CPU (2026-11-27). Every
    page of both languages still passes the strict build's link and anchor validation, and the static
    checks of tests/site/test_site.py."""
    markdown = sorted(rel for rel in site_pages(site) if is_markdown_page(rel))
    homes = {"", "en/"}
    chapters = sorted({rel.removeprefix("en/") for rel in markdown} - homes)
    kept = sorted(homes & set(markdown))
    for i, rel in enumerate(chapters):
        kept += [c for c in ((rel, "en/" + rel) if i % 2 == 0 else ("en/" + rel, rel)) if c in markdown][:1]
    notebook_pages = [rel for rel in site_pages(site) if not is_markdown_page(rel)]
    by_chapter = sorted({rel.removeprefix("en/") for rel in notebook_pages})
    for i, rel in enumerate(by_chapter[::NOTEBOOK_SAMPLE]):
        kept += [c for c in ((rel, "en/" + rel) if i % 2 == 0 else ("en/" + rel, rel)) if c in notebook_pages][:1]
    return sorted(kept)


@pytest.fixture(scope="module")
def crawl(browser, base, site) -> Crawl:
    """Visit the pages of ``crawled_pages`` (every chapter in one of its languages, both home pages, a sample
    of the notebook pages) with ``wait_until="load"``, nothing blocked, in one context and one tab.

    Notebook pages are all made by one template from one kind of file, so a sample shows a template or
    build fault (68 pages of up to 300 KB); the links of the pages visited, to any notebook page too, are
    requested by ``test_every_internal_link_answers_200``. Chapter (Markdown) pages are loaded at phone
    width (375 px), where nothing may make the page scroll sideways; notebook pages at desktop width. The
    other checks do not depend on the width.
    """
    context = browser.new_context(viewport=PHONE, color_scheme="light")
    page = context.new_page()
    page.set_default_timeout(30_000)
    w = watch(page)
    visits = {}
    start = time.perf_counter()
    pages = sorted(crawled_pages(site), key=lambda rel: not is_markdown_page(rel))
    for rel in pages:
        url = base + rel
        if not is_markdown_page(rel) and page.viewport_size != DESKTOP:
            page.set_viewport_size(DESKTOP)
        resp = page.goto(url, wait_until="load")
        data = page.evaluate(VISIT_JS)
        overflow = page.evaluate(OVERFLOW_JS) if is_markdown_page(rel) else []
        visits[url] = Visit(url, resp.status if resp else 0, data["lang"], data["title"], data["hrefs"],
                            set(data["ids"]), data["images"], data["cells"], data["rawJson"], overflow)
    seconds = time.perf_counter() - start
    context.close()
    print(f"\ncrawl: {len(visits)} pages in {seconds:.1f} s ({seconds / len(visits):.2f} s a page)")
    return Crawl(visits, w, seconds)


def test_crawl_reached_every_page(crawl, site):
    pages = site_pages(site)
    assert len(pages) > 40 and any("notebooks/" in p for p in pages), pages
    bad = [f"{v.url}: HTTP {v.status}" for v in crawl.visits.values() if v.status != 200]
    assert not bad, bad


def test_pages_are_in_their_language(crawl, base):
    wrong = [f"{v.url}: lang={v.lang!r}" for v in crawl.visits.values()
             if v.lang != ("en" if v.url.startswith(base + "en/") else "zh-CN")]
    assert not wrong, wrong[:20]


def title_repeats(title: str) -> bool:
    """True when a part of ``title`` (Material joins page, section and site names with " - ") repeats."""
    parts = [p.strip() for p in title.split(" - ")]
    return len(parts) != len(set(parts))


def test_page_titles_do_not_repeat_themselves(crawl):
    repeated = [f"{v.url}: {v.title!r}" for v in crawl.visits.values() if title_repeats(v.title)]
    assert not repeated, repeated[:20]


def test_no_request_leaves_127_0_0_1(crawl):
    assert not crawl.watched.foreign, sorted(set(crawl.watched.foreign))[:20]


def test_no_console_errors(crawl):
    problems = crawl.watched.errors + crawl.watched.failed
    assert not problems, sorted(set(problems))[:20]


def test_quiet_pages_after_the_network_settles(tab, base):
    """Load event first, late requests after: wait for the network on a few pages of each kind."""
    for rel in ["", "en/autograd/", "notebooks/autograd/", "en/notebooks/graph/"]:
        tab.page.goto(base + rel, wait_until="networkidle")
    problems = tab.foreign + tab.errors + tab.failed
    assert not problems, problems[:20]


def test_notebook_pages_render_cells(crawl, base):
    notebooks = [v for v in crawl.visits.values() if "/notebooks/" in v.url]
    assert any(v.url.startswith(base + "en/") for v in notebooks) and \
        any(not v.url.startswith(base + "en/") for v in notebooks)
    bad = [f"{v.url}: {v.cells} cells{', raw notebook JSON' if v.raw_json else ''}"
           for v in notebooks if v.cells == 0 or v.raw_json]
    assert not bad, bad[:20]


def test_every_figure_loads(crawl):
    figures = [(v.url, img) for v in crawl.visits.values() for img in v.images if img["output"]]
    assert figures, "no figure in any output: the check would be empty"
    broken = [f"{url}: {img['src']}" for url, img in figures if img["width"] <= 0]
    broken += [f"{v.url}: {img['src']}" for v in crawl.visits.values() for img in v.images
               if not img["output"] and img["width"] <= 0]
    assert not broken, broken[:20]


def _status(url: str) -> int:
    try:
        with urllib.request.urlopen(urllib.request.Request(url, method="HEAD"), timeout=10) as resp:
            return resp.status
    except urllib.error.HTTPError as exc:
        return exc.code


def test_every_internal_link_answers_200(crawl, base):
    origin = base.rstrip("/")
    sources: dict[str, str] = {}
    for v in crawl.visits.values():
        for href in v.hrefs:
            if href.startswith(origin + "/"):
                sources.setdefault(href.split("#", 1)[0].split("?", 1)[0], v.url)
    assert len(sources) > len(crawl.visits)  # pages, downloads, notebooks: not only the pages
    with ThreadPoolExecutor(8) as pool:
        statuses = dict(zip(sources, pool.map(_status, sources), strict=True))
    broken = [f"{src}: link to {url} answers {statuses[url]}" for url, src in sources.items() if statuses[url] != 200]
    assert not broken, broken[:20]


def test_every_internal_anchor_exists(crawl):
    checked, missing = 0, set()
    for v in crawl.visits.values():
        for href in v.hrefs:
            target, _, fragment = href.partition("#")
            page = crawl.visits.get(target.split("?", 1)[0])
            if fragment and page is not None:
                checked += 1
                if unquote(fragment) not in page.ids:
                    missing.add(f"{v.url}: link to {href} (no id {unquote(fragment)!r} there)")
    assert checked > len(crawl.visits), "hardly any #anchor link: the check would be empty"
    assert not missing, sorted(missing)[:20]


def test_no_sideways_scroll_on_a_phone(crawl):
    chapters = [v for v in crawl.visits.values() if is_markdown_page(v.url)]
    assert len(chapters) >= 2
    bad = [f"{v.url} at {PHONE['width']} px: " + "; ".join(v.overflow) for v in chapters if v.overflow]
    assert not bad, bad[:10]


# ---------------------------------------------------------------------------------------------
# What a reader does
# ---------------------------------------------------------------------------------------------

def test_home_pages_and_screenshots(tab, base):
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page = tab.page
    page.goto(base)
    assert html_lang(page).startswith("zh")
    page.screenshot(path=str(SCREENSHOTS / "home-zh.png"))
    page.goto(base + "en/")
    assert html_lang(page).startswith("en")
    page.screenshot(path=str(SCREENSHOTS / "home-en.png"))
    page.goto(base + "autograd/")
    page.locator(".pn-provenance:visible").nth(1).scroll_into_view_if_needed()  # an example: code, output, provenance
    page.wait_for_timeout(400)  # the header's title fades to the page title once scrolled
    page.screenshot(path=str(SCREENSHOTS / "chapter-zh-autograd.png"))
    page.set_viewport_size(PHONE)
    page.goto(base + "tensors/")
    page.screenshot(path=str(SCREENSHOTS / "chapter-zh-tensors-375px.png"))


# Draw two different characters in the page's font; without a CJK font both come out as the same
# empty box ("tofu"), or as nothing at all.
GLYPHS_JS = """() => {
  const c = document.createElement("canvas"); c.width = 48; c.height = 48;
  const ctx = c.getContext("2d");
  ctx.font = "32px " + getComputedStyle(document.body).fontFamily;
  const draw = (ch) => { ctx.clearRect(0, 0, 48, 48); ctx.fillText(ch, 4, 36);
                         return ctx.getImageData(0, 0, 48, 48).data.join(","); };
  const blank = draw(" ");
  return {zhang: draw("张"), liang: draw("量"), blank};
}"""


def test_chinese_glyphs_render(tab, base):
    tab.page.goto(base)
    g = tab.page.evaluate(GLYPHS_JS)
    assert g["zhang"] != g["blank"] and g["zhang"] != g["liang"], \
        "Chinese renders as empty boxes: install a CJK font (apt-get install fonts-wqy-zenhei)"


MENU_SETTLED_JS = """(link) => link.checkVisibility({opacityProperty: true})
  && link.closest('.md-select__inner').getAnimations().length === 0"""


def switch_language(page, hreflang: str) -> None:
    """Open the language menu and pick ``hreflang``, as a reader does: hover, then a mouse click on the link.

    Not ``locator.click``: on a throttled CPU its retries scroll the link "into view", and for a link in
    the sticky header that moves the document itself (scrollY 5463 -> 5129 measured with Chromium's CPU
    throttled 8x), so the page forgets the section the reader was in. The mouse clicks where the link
    is once the menu's opening transition has ended, which never scrolls.
    """
    page.hover(".md-select")
    link = page.locator(f'.md-select__link[hreflang="{hreflang}"]')
    page.wait_for_function(MENU_SETTLED_JS, arg=link.element_handle())
    box = link.bounding_box()
    with page.expect_navigation(wait_until="load"):
        page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


@pytest.mark.parametrize("rel", ["tensors/", "notebooks/autograd/"])
def test_language_switcher_keeps_the_page(tab, base, rel):
    page = tab.page
    page.goto(base + rel)
    switch_language(page, "en")
    assert page.url == base + "en/" + rel and html_lang(page).startswith("en")
    switch_language(page, "zh")
    assert page.url == base + rel and html_lang(page).startswith("zh")


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_an_examples_notebook_link_lands_on_its_section(tab, base, lang):
    """The "notebook" link of an example on its chapter page opens the chapter's notebook page scrolled
    to the example's section, whose heading names the example."""
    page = tab.page
    root = "en/" if lang == "en" else ""
    page.goto(base + root + "autograd/")
    links = page.locator('.md-content a[href*="notebooks/autograd/#"]:visible')
    assert links.count() >= 5, links.count()
    target = links.nth(2).evaluate("(a) => a.href")
    with page.expect_navigation(wait_until="load"):
        links.nth(2).click()
    assert page.url == target and path_of(page.url) == f"/{root}notebooks/autograd/", page.url
    anchor = page.url.split("#", 1)[1]
    heading = page.locator(f"h2#{anchor}")
    top = heading.evaluate("(h) => h.getBoundingClientRect().top")
    assert 0 <= top < 200, f"#{anchor} is at {top} px, not at the top of the window"
    assert heading.inner_text().strip().rstrip("¶").endswith(".py")


def search(page, query: str) -> list[str]:
    """Type ``query`` in the search box; return the URLs of the results, best first."""
    box = page.locator("input.md-search__input")
    box.fill(query)  # keyboard.type of Chinese does not trigger the search
    # Material reads the query on focus or keyup; fill() focuses before it inserts the text, so the
    # focus may read an empty box (a 15 s timeout in one of three `make bench` runs): send a keyup.
    box.press("End")
    page.wait_for_selector(".md-search-result__item")
    page.wait_for_function(
        "document.querySelector('.md-search-result__meta').textContent.match(/\\d/) !== null")
    return page.eval_on_selector_all(".md-search-result__list a.md-search-result__link", "as => as.map(a => a.href)")


@pytest.mark.parametrize(("query", "expected"), [("张量", "tensors/"), ("自动求导", "autograd/")])
def test_chinese_search_finds_the_chapter_first(tab, base, query, expected):
    page = tab.page
    page.goto(base + "intro/")
    results = search(page, query)
    assert results, f"no result for {query}"
    assert path_of(results[0]) == path_of(base + expected), f"{query}: {results[:5]}"
    others = [u for u in results if path_of(u).startswith("/en/")]
    assert not others, f"English pages in Chinese results: {others[:5]}"
    if query == "张量":
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / "search-zh.png"))


def test_english_search_finds_english_pages_only(tab, base):
    page = tab.page
    page.goto(base + "en/intro/")
    results = search(page, "autograd")
    assert results
    others = [u for u in results if not path_of(u).startswith("/en/")]
    assert not others, f"non-English pages in English results: {others[:5]}"
    assert path_of(base + "en/autograd/") in {path_of(u) for u in results}, results[:10]


# What follows an example's marker up to its provenance line: its code, outputs and provenance. With records of two
# devices they sit in the first block of a tab set, each device's outputs and provenance in sections of their own
# (render/html.py): those of the first device, the tab shown, are taken.
EXAMPLE_PARTS_JS = """(marker) => {
  const parts = [];
  for (let el = marker.nextElementSibling; el && !el.classList.contains("pn-example"); el = el.nextElementSibling) {
    if (el.matches(".tabbed-set")) return [...el.querySelector(".tabbed-content > .tabbed-block").children].flatMap(
      (c) => !c.matches("section.pn-device") ? [c] : c.dataset.pnDevice === "1" ? [...c.children] : []);
    parts.push(el);
    if (el.matches(".pn-provenance")) break;
  }
  return parts;
}"""

EXAMPLES_JS = """() => [...document.querySelectorAll(".pn-example")].map((marker) => {
  const parts = {code: "", outputs: [], provenance: null, links: {}, copy: false};
  for (const el of (""" + EXAMPLE_PARTS_JS + """)(marker)) {
    if (el.matches(".highlight, .language-python")) {
      parts.code += el.querySelector("code").textContent;
      parts.copy = parts.copy || !!el.querySelector('button[data-md-type="copy"]');
    }
    if (el.matches(".pn-output")) parts.outputs.push(el.textContent);
    if (el.matches(".pn-provenance")) {
      parts.provenance = el.textContent;
      for (const a of el.querySelectorAll("a")) parts.links[a.href.split(".").pop()] = a.href;
      break;
    }
  }
  return parts;
})"""


def _get(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=10) as resp:
        assert resp.status == 200, f"{url}: HTTP {resp.status}"
        return resp.read()


# Material mounts a code block (its copy button) when it first comes into view (content.lazy, mkdocs.yml): open the
# collapsed blocks (solutions) and bring each code block into view once.
MOUNT_CODE_JS = """async () => {
  for (const d of document.querySelectorAll(".md-typeset details:not(.pn-output details)")) d.open = true;
  for (const code of document.querySelectorAll(".md-typeset pre > code")) {
    code.scrollIntoView({block: "center"});
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  }
  window.scrollTo(0, 0);
}"""


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_embedded_example_shows_code_output_provenance_and_downloads(tab, base, lang):
    page = tab.page
    page.goto(base + ("en/" if lang == "en" else "") + "autograd/")
    page.evaluate(MOUNT_CODE_JS)
    examples = page.evaluate(EXAMPLES_JS)
    assert examples, "no embedded example on the autograd page"
    for ex in examples:
        assert "import torch" in ex["code"] or "torch." in ex["code"], ex["code"][:200]
        assert ex["outputs"] and any(o.strip() for o in ex["outputs"]), ex
        assert ex["provenance"] and "torch" in ex["provenance"] and "Python" in ex["provenance"], ex["provenance"]
        assert ex["copy"], "no copy button on the example's code"
        py, ipynb = ex["links"].get("py"), ex["links"].get("ipynb")
        assert py and ipynb, ex["links"]
        assert path_of(py).startswith("/en/examples/" if lang == "en" else "/examples/"), py
        rel = path_of(py).split("/examples/", 1)[1]
        source = localize((ROOT / "examples" / rel).read_text(encoding="utf-8"), lang).encode("utf-8")
        served = _get(py)
        # The site stamps a comment header (where the outputs were captured) above the source, whose
        # comments are in the page's language.
        # The site wraps the cells that raise (render/download.py) and adds a comment footer: where the
        # outputs were captured; line N is still line N of the page.
        assert served.startswith(run_past_errors(source.decode()).encode()), f"{py} is not examples/{rel}"
        assert b"# PyTorch " in served.split(b"\n# \xe4\xbb\xa5\xe4\xb8\x8b", 1)[-1], f"{py}: no footer"
        nb = json.loads(_get(ipynb))
        assert nb["nbformat"] == 4 and any(c["cell_type"] == "code" for c in nb["cells"]), ipynb
    code = page.locator(".pn-example + .highlight, "  # one device; with several, the tab shown first
                        ".pn-example + .tabbed-set .tabbed-block:first-child > .highlight").first
    code.hover()  # Material shows the copy button on hover
    for shown in (code.locator('button[data-md-type="copy"]'), page.locator(".pn-output:visible").first,
                  page.locator(".pn-provenance:visible").first):
        assert shown.is_visible(), shown


def test_dark_mode_persists_across_navigation(tab, base):
    page = tab.page
    scheme = 'document.body.getAttribute("data-md-color-scheme")'
    page.goto(base + "tensors/")
    assert page.evaluate(scheme) == "default"
    page.click('[data-md-component="palette"] label:not([hidden])')
    assert page.evaluate(scheme) == "slate"
    with page.expect_navigation(wait_until="load"):
        page.click("a.md-footer__link--next")
    assert page.url != base + "tensors/" and page.evaluate(scheme) == "slate"
    switch_language(page, "en")
    assert path_of(page.url).startswith("/en/") and page.evaluate(scheme) == "slate"
    page.goto(base)
    assert page.evaluate(scheme) == "slate"
