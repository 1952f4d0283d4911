"""The ``reader`` section: search recall@3 and axe-core violations, measured in a real browser.

``recall_at_3(page, base, lang)`` types each query of ``tests/search_queries.json`` into Material's
search box on a page of language ``lang`` and counts the queries whose expected page is among the
first three distinct pages of the results. ``axe_count(browser, base)`` runs axe-core (vendored from
npm in ``tests/vendor/axe-core/``) on the home, three chapters, a notebook and the 404 page of both
languages, light and dark, and counts the violations of any impact. ``page`` and ``browser``
are Playwright objects; ``base`` the site's root URL ending in ``/``. ``tests/browser/test_reader.py`` asserts
on the same functions.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import json
import threading
from dataclasses import dataclass, field
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlsplit

from pytorch_notes.settings import LANGUAGES, REPO_ROOT

from benchmarks.chromium import INSTALL, find_chromium
from benchmarks.figures import Figure
from benchmarks.repo import BenchError

QUERIES = REPO_ROOT / "tests" / "search_queries.json"
# Queries kept out of tuning: written blind (chapter titles and one-line scopes only) and measured by
# `make bench` alone, never by a test, so that a change tuned on QUERIES shows whether it generalises.
# Read its recall, not its misses; replace it with a fresh blind set once it has been tuned on.
HELD_OUT = REPO_ROOT / "tests" / "search_queries_heldout.json"
AXE = REPO_ROOT / "tests" / "vendor" / "axe-core" / "axe.min.js"
# Three chapters with device tabs, solutions and copy buttons: axe runs ~4-15 s on a chapter (attention,
# the longest, ~15 s a run on 2 busy cores), so the lighter ones; every chapter has the same markup.
AXE_PAGES = ["", "autograd/", "gpu/", "numpy-bridge/", "notebooks/autograd/", "404.html"]
DESKTOP = {"width": 1280, "height": 800}


def load_queries(lang: str, path: Path = QUERIES) -> dict[str, list[str]]:
    """Query -> the pages that answer it (relative to the language root, e.g. ``["data/"]``) for ``lang``.

    The file maps each query to one page or a list of pages (a question two chapters answer)."""
    found = json.loads(path.read_text(encoding="utf-8"))[lang]
    return {q: [pages] if isinstance(pages, str) else list(pages) for q, pages in found.items()}


def lang_root(base: str, lang: str) -> str:
    return base if lang == LANGUAGES[0] else f"{base}{lang}/"


# Type a query into the open page's search box and read the results: clear the box and wait until the
# last results are gone, type the query, wait for its answer. Material reads the box on ``keyup``.
# (``tests/browser/test_browser.py`` types with Playwright's own ``fill``/``press``.) Typed again, up to ``attempts``
# times a second apart, while it finds nothing: on a loaded machine Material's search worker may still be
# loading the index when the first query is typed, and answers "no results" for it (seen once in a full
# ``make test``). The queries of one call run in the page, one after the other, in one round trip.
SEARCH_IN_PAGE_JS = """async ([queries, timeoutMs, attempts]) => {
  const box = document.querySelector("input.md-search__input");
  const meta = () => document.querySelector(".md-search-result__meta");
  const answered = (m) => /\\d|[Nn]o |没有/.test(m.textContent);
  const typed = () => Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value").get.call(box);
  const type = (text) => {
    box.focus();
    box.value = text;
    box.dispatchEvent(new Event("input", {bubbles: true}));
    box.dispatchEvent(new KeyboardEvent("keyup", {key: "End", bubbles: true}));
  };
  const until = (done, what, query) => new Promise((resolve, reject) => {
    const start = performance.now();
    const poll = () => {
      if (done()) resolve();
      else if (performance.now() - start > timeoutMs) reject(new Error(`search ${JSON.stringify(query)}: ${what}`));
      else setTimeout(poll, 2);
    };
    poll();
  });
  const once = async (query) => {
    type("");
    await until(() => { const m = meta(); return !m || !answered(m); }, "the last results stayed", query);
    type(query);
    await until(() => { const m = meta(); return m && typed() === query && answered(m); }, "no answer", query);
    return [...document.querySelectorAll(".md-search-result__list a.md-search-result__link")].map((a) => a.href);
  };
  const all = [];
  for (const query of queries) {
    let found = [];
    for (let attempt = 0; attempt < attempts; attempt++) {
      if (attempt) await new Promise((r) => setTimeout(r, 1000));
      found = await once(query);
      if (found.length) break;
    }
    all.push(found);
  }
  return all;
}"""


def _distinct_paths(hrefs: list[str]) -> list[str]:
    seen: list[str] = []
    for href in hrefs:
        if (path := urlsplit(href).path) not in seen:
            seen.append(path)
    return seen


def search_many(page, queries: list[str], attempts: int = 3, timeout_ms: int = 30_000) -> list[list[str]]:
    """For each of ``queries``, the result page paths in the open page's search, best first, distinct; empty
    when nothing matched (``SEARCH_IN_PAGE_JS``, one ``page.evaluate`` for all: a Playwright round trip a
    query was a third of the recall's time, 2026-11-27)."""
    return [_distinct_paths(found) for found in page.evaluate(SEARCH_IN_PAGE_JS, [queries, timeout_ms, attempts])]


def search_pages(page, query: str, attempts: int = 3, timeout_ms: int = 30_000) -> list[str]:
    """Result page paths of ``query`` in the open page's search, best first, distinct (``search_many``)."""
    return search_many(page, [query], attempts, timeout_ms)[0]


@dataclass
class Recall:
    lang: str
    hits: int = 0
    total: int = 0
    misses: list[str] = field(default_factory=list)
    empty: list[str] = field(default_factory=list)  # queries that found no page at all

    @property
    def value(self) -> float:
        return self.hits / self.total if self.total else 0.0

    def __str__(self) -> str:
        return f"search recall@3 ({self.lang}): {self.value:.3f} ({self.hits}/{self.total})"


def recall_at_3(page, base: str, lang: str, queries: dict[str, list[str]] | None = None) -> Recall:
    """Recall@3 of ``queries`` (default: the language's set in tests/search_queries.json): the share of
    queries with one of their pages among the first three results."""
    queries = load_queries(lang) if queries is None else queries
    root = lang_root(base, lang)
    page.goto(root)
    result = Recall(lang)
    for (query, expected), found in zip(queries.items(), search_many(page, list(queries)), strict=True):
        want = [urlsplit(root + e).path for e in ([expected] if isinstance(expected, str) else expected)]
        top = found[:3]
        result.total += 1
        if not found:
            result.empty.append(query)
        if any(w in top for w in want):
            result.hits += 1
        else:
            result.misses.append(f"{query!r}: want {want}, got {top}")
    return result


AXE_RUN_JS = """async () => {
  const result = await axe.run(document, {resultTypes: ["violations"]});
  return result.violations.map((v) => ({
    id: v.id, impact: v.impact, count: v.nodes.length,
    nodes: v.nodes.slice(0, 3).map((n) => n.target.join(" ") + (n.any[0] ? ": " + n.any[0].message : "")),
  }));
}"""


_SCHEME = 'document.body.getAttribute("data-md-color-scheme")'
_MATERIAL_SCHEME = {"light": "default", "dark": "slate"}


# The blocks a browser skips off screen (content-visibility: auto, docs/assets/pytorch-notes.css) have no layout
# of their own: after the palette switch axe-core judged a skipped code block's text against a light background
# (2,146 color-contrast violations in dark mode that no screen shows). A reader sees a block only on screen,
# where it is rendered: axe judges the page with every block rendered.
RENDER_ALL_CSS = "* { content-visibility: visible !important; }"


def axe_violations(page) -> list[dict]:
    """The axe-core violations of the open page, of any impact (each: id, impact, count, some nodes), with every
    block rendered (``RENDER_ALL_CSS``)."""
    if not page.evaluate("typeof axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
        page.add_style_tag(content=RENDER_ALL_CSS)
    return page.evaluate(AXE_RUN_JS)


def axe_count(browser, base: str, schemes=("light", "dark")) -> tuple[int, list[str]]:
    """Violations of any impact (elements) on ``AXE_PAGES`` of both languages, in each colour
    scheme; with one line per violated rule and page.

    Each page is loaded once, in the first scheme (the system's preference), and switched to the others
    with Material's palette toggle, as a reader does (Material reads the system preference only at load).
    """
    total, lines = 0, []
    context = browser.new_context(viewport=DESKTOP, color_scheme=schemes[0])
    page = context.new_page()
    page.set_default_timeout(30_000)
    for lang in LANGUAGES:
        for rel in AXE_PAGES:
            url = lang_root(base, lang) + rel
            page.goto(url)
            for scheme in schemes:
                if page.evaluate(_SCHEME) != _MATERIAL_SCHEME[scheme]:
                    page.click('[data-md-component="palette"] label:not([hidden])')
                    if (shown := page.evaluate(_SCHEME)) != _MATERIAL_SCHEME[scheme]:
                        raise BenchError(f"{url}: the palette toggle showed {shown!r}, not the {scheme} scheme")
                for v in axe_violations(page):
                    total += v["count"]
                    lines.append(f"{scheme} {urlsplit(url).path}: {v['impact']} {v['id']} x{v['count']}: {v['nodes']}")
            page.evaluate("localStorage.clear()")  # the next page starts from the system's preference again
    context.close()
    return total, lines


@contextlib.contextmanager
def served_browser(site: Path):
    """``(browser, base)``: headless Chromium (Playwright) and the URL of ``site`` served on 127.0.0.1.

    Raises:
        BenchError: Playwright or a Chromium (``benchmarks.chromium.find_chromium``) is missing.
    """
    try:
        from playwright.sync_api import sync_playwright  # noqa: PLC0415 - a dev dependency
    except ImportError:
        raise BenchError("the reader section needs the playwright package (pip install -e '.[dev]')") from None
    chromium = find_chromium()
    if chromium is None:
        raise BenchError(f"the reader section needs Chromium: {INSTALL}")
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=chromium, args=["--no-sandbox"], headless=True)
            try:
                yield browser, f"http://127.0.0.1:{server.server_port}/"
            finally:
                browser.close()
    finally:
        server.shutdown()
        server.server_close()


def measure_recall(browser, base: str, lang: str, queries: dict[str, list[str]] | None = None) -> Recall:
    """``recall_at_3`` in a fresh desktop-sized tab of ``browser``."""
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        return recall_at_3(page, base, lang, queries)
    finally:
        context.close()


def bench_reader(site: Path) -> list[Figure]:
    """Search recall@3 per language and the axe-core count, on ``site`` served on 127.0.0.1.

    Raises:
        BenchError: Playwright or a Chromium (``benchmarks.chromium.find_chromium``) is missing.
    """
    figures = []
    with served_browser(site) as (browser, base):
        for lang in LANGUAGES:
            recall = measure_recall(browser, base, lang)
            figures.append(Figure(f"search recall@3 ({lang})", "", [round(recall.value, 3)], (">=", 0.9),
                                  f"{recall.hits}/{recall.total} queries of tests/search_queries.json"))
            if HELD_OUT.is_file():
                recall = measure_recall(browser, base, lang, load_queries(lang, HELD_OUT))
                figures.append(Figure(f"search recall@3, held-out set ({lang})", "", [round(recall.value, 3)],
                                      (">=", 0.97), f"{recall.hits}/{recall.total} queries of {HELD_OUT.name}"))
        total, _ = axe_count(browser, base)
        figures.append(Figure("axe-core violations (any impact)", "", [total], ("==", 0),
                              f"{len(AXE_PAGES)} pages x {len(LANGUAGES)} languages, light and dark"))
    return figures


def main(argv: list[str] | None = None) -> int:
    """``python -m benchmarks.reader [SITE] [--queries FILE] [--lang zh]``: recall@3 of a query set on a built
    site (default ``site/``, from ``make build``), with every query that missed and what it found instead.
    The tool for tuning search; ``make bench`` and ``tests/browser/test_reader.py`` hold the targets."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.reader", description=main.__doc__)
    parser.add_argument("site", nargs="?", type=Path, default=REPO_ROOT / "site")
    parser.add_argument("--queries", type=Path, default=QUERIES, help="a JSON file shaped like the default")
    parser.add_argument("--lang", choices=LANGUAGES, action="append", help="default: every language")
    args = parser.parse_args(argv)
    if not (args.site / "index.html").is_file():
        parser.error(f"{args.site} holds no built site (make build)")
    with served_browser(args.site) as (browser, base):
        for lang in args.lang or LANGUAGES:
            recall = measure_recall(browser, base, lang, load_queries(lang, args.queries))
            print(recall)
            for miss in recall.misses:
                print(f"  {miss}")
    return 0


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 - http.server's signature
        pass


if __name__ == "__main__":
    raise SystemExit(main())
