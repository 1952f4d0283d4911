"""Search queries as docs/assets/search.js rewrites them for Material's lunr (issue 44): no kind of input empties the
results. Same built site and fixtures as tests/browser/test_browser.py.
"""

from __future__ import annotations

import pytest
import test_browser
from benchmarks.reader import lang_root, search_many

base, browser, tab = test_browser.base, test_browser.browser, test_browser.tab  # fixtures

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("reader")]

# Each found nothing at all before search.js's asIndexWords: lunr's syntax swallowed the term (a colon after a
# word is a field name, a leading ^ or ~ a boost or an edit distance of nothing, a ^ before letters an invalid
# boost), a character the index trims from its words stayed on the term ("tensor?" matches no word), or a quoted
# phrase required a stop word the index leaves out.
EMPTIED = {
    "zh": ["CUBLAS_WORKSPACE_CONFIG=:4096:8", "张量:", "GPU?", "^张量", "~张量"],
    "en": ["what is a tensor?", "tensor:", "tensor::", "^tensor", "~tensor", "tensor^grad", "tensor…",
           "autograd+", '"what is a tensor?"'],
}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_no_kind_of_query_empties_the_results(tab, base, lang):
    page = tab.page
    page.goto(lang_root(base, lang))
    found = dict(zip(EMPTIED[lang], search_many(page, EMPTIED[lang], attempts=1), strict=True))
    assert not [q for q, pages in found.items() if not pages], found
    if lang == "zh":  # the blind set 17B's query: the page that explains the variable first
        assert found["CUBLAS_WORKSPACE_CONFIG=:4096:8"][0] == "/reproducibility/", found


def test_query_terms_are_trimmed_as_the_index_trims_its_words(tab, base):
    page = tab.page
    page.goto(lang_root(base, "en"))
    page.focus("input.md-search__input")
    page.wait_for_function("() => !!window.__pnVocabulary")
    rewrite = {q: page.evaluate("(q) => window.__pnSearchQuery(q)", q)
               for q in ("tensor?", "GPU?", "^tensor", "m1: [64 x 320]", '"what is a tensor?"')}
    assert rewrite == {"tensor?": "tensor", "GPU?": "GPU", "^tensor": "tensor", "m1: [64 x 320]": "m1 x^1",
                       '"what is a tensor?"': '" tensor"'}, rewrite


def test_a_mistyped_english_word_is_searched_as_the_index_spells_it(tab, base):
    """search.js's spelled: a word of six letters or more that no word of the index starts with becomes the
    index's most frequent word one edit away; a shorter word, or one with no such neighbour, stays."""
    page = tab.page
    page.goto(lang_root(base, "en"))
    page.focus("input.md-search__input")
    page.wait_for_function("() => !!window.__pnLatin")
    rewrite = {q: page.evaluate("(q) => window.__pnSearchQuery(q)", q)
               for q in ("dataloder super slow", "grain dataloader", "torch.compiel", "interview")}
    assert rewrite == {"dataloder super slow": "dataloader super slow", "grain dataloader": "grain dataloader",
                       "torch.compiel": "compil", "interview": "interview"}, rewrite
    found = search_many(page, ["torch.compiel not working", "brodcasting two tensors different shapes"], attempts=1)
    assert "/en/compile/" in found[0][:3] and found[1][:1] == ["/en/broadcasting/"], found

