"""Material's scrub of data-search attributes runs only on pages that hold one
(pytorch_notes.site.search.skip_needless_attribute_scrub); the result is what Material gives."""

from __future__ import annotations

from types import SimpleNamespace

from material.plugins.search.plugin import SearchPlugin
from pytorch_notes.site import search


def _plugin(indexed: list):
    index = SimpleNamespace(add_entry_from_context=lambda page: indexed.append(page.url))
    return SimpleNamespace(config=SimpleNamespace(enabled=True), search_index=index)


def test_pages_are_indexed_and_scrubbed_as_material_does():
    search.skip_needless_attribute_scrub()
    search.skip_needless_attribute_scrub()  # once: the second call wraps nothing
    assert SearchPlugin.on_page_context._pytorch_notes_scrub
    indexed: list = []
    plain = SimpleNamespace(url="a/", content='<h1 id="a">A</h1><p>text</p>')
    marked = SimpleNamespace(url="b/", content='<h2 data-search-exclude="true">B</h2><p data-search-x="1">t</p>')
    before = plain.content
    for page in (plain, marked):
        SearchPlugin.on_page_context(_plugin(indexed), {}, page=page, config=None, nav=None)
    assert indexed == ["a/", "b/"]
    assert plain.content == before
    assert marked.content == "<h2>B</h2><p>t</p>"  # Material's own substitution still ran


def test_a_disabled_search_indexes_nothing():
    search.skip_needless_attribute_scrub()
    indexed: list = []
    plugin = _plugin(indexed)
    plugin.config.enabled = False
    SearchPlugin.on_page_context(plugin, {}, page=SimpleNamespace(url="a/", content="<p>x</p>"), config=None, nav=None)
    assert indexed == []
