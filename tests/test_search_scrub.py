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


def test_the_method_a_build_already_registered_is_swapped_too(monkeypatch):
    from mkdocs.plugins import PluginCollection

    material_own = getattr(SearchPlugin.on_page_context, "_pytorch_notes_original", SearchPlugin.on_page_context)
    monkeypatch.setattr(SearchPlugin, "on_page_context", material_own)  # as in a new process
    plugins = PluginCollection()
    plugins["material/search"] = plugin = SearchPlugin()  # registered as MkDocs does, before on_config
    search.skip_needless_attribute_scrub(plugins)
    registered = [m for m in plugins.events["page_context"] if getattr(m, "__self__", None) is plugin]
    assert len(registered) == 1 and registered[0].__func__ is SearchPlugin.on_page_context
    assert registered[0].__func__._pytorch_notes_scrub
    assert plugins._event_origins[registered[0]] == "material/search"


def test_chinese_text_is_segmented_once_per_text_as_material_does(monkeypatch):
    from material.plugins.search import plugin as material_search
    from pytorch_notes.site import buildcache

    buildcache.install()
    segment = material_search.SearchIndex._segment_chinese
    assert segment._pytorch_notes_cached
    text = "张量的形状 shape 与叶子节点，自动求导的计算图"
    expected = segment.__wrapped__(None, text)  # Material's own
    assert "\u200b" in expected  # jieba split the Chinese runs
    cuts = []
    cut = material_search.jieba.cut
    monkeypatch.setattr(material_search.jieba, "cut", lambda s: cuts.append(s) or cut(s))
    fresh = text + "（再一次）"
    assert segment(None, fresh) == segment.__wrapped__(None, fresh)
    before = len(cuts)
    assert segment(None, fresh) == segment(None, fresh)
    assert len(cuts) == before, "a text segmented before is not cut again"
    assert segment(None, text) == expected


def test_code_lines_many_pages_repeat_leave_the_index_and_the_rest_stays():
    def entry(page: str, code: str, prose: str = "<p>prose</p>") -> dict:
        return {"location": f"{page}/#s", "title": page, "text": f"{prose} <pre><code>{code}</code></pre>"}

    boiler = "import torch\ndevice = 'cpu'\n"
    docs = [entry(f"p{i}", boiler + f"x{i} = torch.ones({i})") for i in range(8)]
    docs.append(entry("devices", "y = torch.zeros(2)", "<p>device = 'cpu' picks the device</p>"))
    docs.append({"location": "empty/", "title": "no text"})
    out = search.without_boilerplate_code({"config": {"lang": ["en"]}, "docs": docs})
    texts = [d.get("text", "") for d in out["docs"]]
    assert not any("import torch" in t for t in texts[:8])  # on 8 of 9 pages with code
    assert all(f"x{i} = torch.ones({i})" in texts[i] for i in range(8))
    assert "device = 'cpu' picks the device" in texts[8], "prose is never touched"
    assert docs[0]["text"].startswith("<p>prose</p> <pre><code>import torch"), "the input is not changed"
    # a line on fewer than a quarter of the pages stays
    rare = [entry(f"q{i}", "import torch" if i < 2 else "z = 1") for i in range(9)]
    assert search.without_boilerplate_code({"docs": rare})["docs"][0]["text"].count("import torch") == 1
