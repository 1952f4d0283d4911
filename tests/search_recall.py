"""Search recall@3 against a served site, in a real browser (issue 17).

``recall_at_3(page, base, lang)`` types each query of ``tests/search_queries.json`` into Material's
search box on a page of language ``lang`` and counts the queries whose expected page is among the
first three distinct pages of the results. ``page`` is a Playwright page; ``base`` the site's root URL
ending in ``/``. Used by ``tests/test_reader.py``; ``scripts/bench.py`` can import it to report the
figure (it needs only Playwright and a served site).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

QUERIES = Path(__file__).with_name("search_queries.json")
LANGUAGES = ("zh", "en")


def load_queries(lang: str) -> dict[str, str]:
    """Query -> expected page (relative to the language root, e.g. ``"data/"``) for ``lang``."""
    return json.loads(QUERIES.read_text(encoding="utf-8"))[lang]


def lang_root(base: str, lang: str) -> str:
    return base if lang == LANGUAGES[0] else f"{base}{lang}/"


def search_pages(page, query: str) -> list[str]:
    """Type ``query`` into the open page's search box; return result page paths, best first, distinct.

    ``fill()`` then a keyup (End), as ``test_browser.search`` does. An empty list when nothing matched.
    """
    box = page.locator("input.md-search__input")
    # Clear first and wait for the placeholder, so that the previous query's results are gone.
    box.fill("")
    box.press("End")
    page.wait_for_function(
        """() => { const m = document.querySelector('.md-search-result__meta');
                   return !m || !/\\d|[Nn]o |没有/.test(m.textContent); }""")
    box.fill(query)
    box.press("End")
    page.wait_for_function(
        """(q) => { const m = document.querySelector('.md-search-result__meta');
                   const box = document.querySelector('input.md-search__input');
                   // the box's own text: Material reads it through a getter (docs/overrides/main.html)
                   const typed = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').get.call(box);
                   return m && typed === q && /\\d|[Nn]o |没有/.test(m.textContent); }""", arg=query)
    # Material renders the meta line and the list in one pass; read them together.
    hrefs = page.eval_on_selector_all(".md-search-result__list a.md-search-result__link", "as => as.map(a => a.href)")
    seen: list[str] = []
    for href in hrefs:
        path = urlsplit(href).path
        if path not in seen:
            seen.append(path)
    return seen


@dataclass
class Recall:
    lang: str
    hits: int = 0
    total: int = 0
    misses: list[str] = field(default_factory=list)

    @property
    def value(self) -> float:
        return self.hits / self.total if self.total else 0.0

    def __str__(self) -> str:
        return f"search recall@3 ({self.lang}): {self.value:.3f} ({self.hits}/{self.total})"


def recall_at_3(page, base: str, lang: str, queries: dict[str, str] | None = None) -> Recall:
    """Recall@3 of ``queries`` (default: the language's set in tests/search_queries.json)."""
    queries = load_queries(lang) if queries is None else queries
    root = lang_root(base, lang)
    page.goto(root)
    result = Recall(lang)
    for query, expected in queries.items():
        want = urlsplit(root + expected).path
        top = search_pages(page, query)[:3]
        result.total += 1
        if want in top:
            result.hits += 1
        else:
            result.misses.append(f"{query!r}: want {want}, got {top}")
    return result
