"""The search index's own processing: the code lines many pages repeat are left out
(pytorch_notes.site.search)."""

from __future__ import annotations

from pytorch_notes.site import search


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


def test_material_scrubs_only_pages_it_may_change_and_every_page_gets_its_content_back():
    from types import SimpleNamespace

    from material.plugins.search.plugin import SearchPlugin

    def page(content, excluded):
        return SimpleNamespace(url="p/", content=content, meta={"search": {"exclude": True}} if excluded else {})

    notebook = page('<div class="jp-Cell">' + "x" * 1000 + "</div>", True)
    marked = page('<p data-search-exclude="true">t</p>', True)
    chapter = page("<h1>T</h1><p>text</p>", False)
    plugin = SearchPlugin()
    plugin.load_config({})
    plugin.search_index = SimpleNamespace(add_entry_from_context=lambda page: None)
    for p in (notebook, marked, chapter):
        before, context = p.content, {}
        search.set_aside_unsearched_content(context, p)
        assert (p.content == "") == (p is notebook)  # the only page where Material's scrub changes nothing
        plugin.on_page_context(context, page=p, config=None, nav=None)  # Material's own
        search.put_back_content(context, p)
        assert context == {}
        assert p.content == (before if p is not marked else "<p>t</p>")  # Material's scrub still ran there
