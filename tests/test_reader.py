"""The reader's experience, part two (issue 17): search recall, the course map, localisation, axe, phones.

Runs in the browser suite's group against the same built site; the server, browser and tab fixtures
come from ``tests/test_browser.py``.
"""

from __future__ import annotations

import pytest
import test_browser
from search_recall import LANGUAGES, lang_root, recall_at_3, search_pages
from test_browser import SCREENSHOTS, path_of

base, browser, tab = test_browser.base, test_browser.browser, test_browser.tab  # fixtures

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("site")]


# ---------------------------------------------------------------------------------------------
# 1. Search
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("lang", LANGUAGES)
def test_search_recall_at_3(tab, base, lang):
    """Each query of tests/search_queries.json finds its page among the first three results."""
    result = recall_at_3(tab.page, base, lang)
    print(f"\n{result}")
    assert result.total >= (40 if lang == "zh" else 30)
    assert result.value >= 0.9, f"{result}; misses:\n" + "\n".join(result.misses)


@pytest.mark.parametrize(("lang", "query", "first"), [
    ("zh", "自动 求导", "autograd/"),
    ("zh", "数据加载", "data/"),
    ("en", "glossary", "glossary/"),
    ("en", "Expected all tensors to be on the same device", "devices/"),
])
def test_search_ranks_the_chapter_first(tab, base, lang, query, first):
    page = tab.page
    page.goto(lang_root(base, lang))
    results = search_pages(page, query)
    assert results and results[0] == path_of(lang_root(base, lang) + first), f"{query}: {results[:5]}"
    if query == "数据加载":
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / "search-zh-数据加载.png"))
