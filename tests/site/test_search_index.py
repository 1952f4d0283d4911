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


def test_a_short_paragraph_many_pages_repeat_leaves_the_index():
    """Every chapter ends with a tip titled "Summary": as a word of 32 pages it outranked torchinfo's summary
    for "keras model.summary". Counted apart from code lines (a page with prose but no code counts)."""
    def entry(page: str, text: str) -> dict:
        return {"location": f"{page}/#s", "title": page, "text": text}

    docs = [entry(f"p{i}", f"<p>Summary</p><ul><li>point {i}</li></ul>") for i in range(7)]
    docs += [entry("layers", "<p>torchinfo's summary prints the layers</p><p>Tip</p>"), entry("other", "<p>Tip</p>")]
    out = [d["text"] for d in search.without_boilerplate_code({"docs": docs})["docs"]]
    assert out[0] == "<ul><li>point 0</li></ul>", "the repeated title goes, the box's points stay"
    assert out[7] == "<p>torchinfo's summary prints the layers</p><p>Tip</p>", "2 of 9 pages: it stays"


def test_a_served_rebuild_writes_the_index_a_full_build_writes_from_the_rebuilt_entries(monkeypatch):
    """What ``Written`` promises, seen from outside: the same index as a full build, and only the entries of
    the rebuilt pages processed again (counted as the calls of ``searchwords.mark_entry``), unless the
    boilerplate lines change; each language on its own."""
    from pytorch_notes.site import searchmessages, searchwords

    def entry(page: str, code: str) -> dict:
        return {"location": f"{page}/", "title": "张量", "text": f"<p>叶子节点</p><pre><code>{code}</code></pre>"
                f"<p><code>RuntimeError: {page} is not a leaf tensor of the graph</code></p>"}

    def full(docs: list[dict]) -> tuple[list[dict], dict]:
        out = searchwords.mark_index(search.without_boilerplate_code({"docs": docs}))["docs"]
        return out, searchwords.vocabulary(out)

    def quoted(lang: str, docs: list[dict]) -> bool:  # the messages of the index a full build writes
        return written.messages(lang) == searchmessages.messages(full(docs)[0])

    processed: list[str] = []
    mark = searchwords.mark_entry
    monkeypatch.setattr(searchwords, "mark_entry", lambda e: processed.append(e["location"]) or mark(e))

    def write(lang: str, docs: list[dict]) -> tuple[tuple[list[dict], dict], list[str]]:
        processed.clear()
        return written.docs(lang, docs), list(processed)

    written = search.Written()
    docs = [entry(f"p{i}", f"x = {i}") for i in range(8)]
    index, seen = write("zh", docs)
    assert index == full(docs) and len(seen) == 8
    docs[0] = entry("p0", "y = 0")  # the page rebuilt: a new entry; the others are the same objects
    index, seen = write("zh", docs)
    assert index == full(docs) and seen == ["p0/"] and quoted("zh", docs)
    docs[2:4] = [entry("p2", "x = 1"), entry("p3", "x = 1")]  # now on 4 of 8 pages: boilerplate everywhere
    index, seen = write("zh", docs)
    assert index == full(docs) and "x = 1" not in index[0][1]["text"] and len(seen) == 8
    index, seen = write("en", docs[:1])
    assert index == full(docs[:1]) and seen == ["p0/"] and quoted("en", docs[:1]) and len(written.messages("en")) == 1
    assert write("zh", docs)[1] == [], "zh's entries are still known after en's index"
    assert quoted("zh", docs) and len(written.messages("zh")) == 8


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


def test_the_index_view_gives_materials_entries_with_less_html():
    """``search.index_view`` empties what Material's parser skips whole; the entries stay the same."""
    from types import SimpleNamespace

    from material.plugins.search.plugin import SearchIndex
    from mkdocs.structure.toc import get_toc

    code = ('<div class="highlight"><table class="highlighttable"><tr><td class="linenos"><div class="linenodiv">'
            '<pre><span class="normal">1</span>\n<span class="normal">2</span></pre></div></td><td class="code">'
            '<div><pre><span></span><code><span class="n">x</span> <span class="o">=</span> <span class="mi">1</span>\n'
            '</code></pre></div></td></tr></table></div>')
    html = ('<h1 id="t">Tensors</h1><p data-search-exclude="true">Verified on CPU <a href="x">times</a></p>'
            f'<p>A tensor.</p><div class="tabbed-set"><div class="tabbed-block">{code}</div>'
            f'<section class="pn-tab-more" data-search-exclude><div class="tabbed-block">{code}<div><p>out</p></div>'
            '</div></section></div><h2 id="s">Views</h2><div data-search-exclude><h3 id="kept">A heading</h3></div>'
            '<p>view</p>')
    view = search.index_view(html)
    assert len(view) < len(html) - 2 * len(code) // 3
    assert "pn-tab-more" in view and '<section class="pn-tab-more" data-search-exclude></section>' in view
    assert '<h3 id="kept">A heading</h3>' in view, "an element holding a heading is left whole"
    assert "<code>x = 1\n</code>" in view, "the highlighter's spans leave code, its text stays"
    unclosed = "<div data-search-exclude><p>never closed</p>"  # left to Material, as it is
    assert search.index_view("<p data-search-exclude>a</p>" + unclosed) == "<p data-search-exclude></p>" + unclosed

    def entries(content: str) -> list[dict]:
        page = SimpleNamespace(url="t/", title="Tensors", meta={}, content=content,
                               toc=get_toc([{"level": 1, "id": "t", "name": "Tensors", "children": []}]))
        index = SearchIndex(lang=["en"], separator=r"[\s\-]+", pipeline=[], fields={})
        index.add_entry_from_context(page)
        return index.entries

    assert entries(view) == entries(html) and entries(html)


def test_an_output_adds_only_its_error_and_warning_messages_to_the_index():
    """What an example prints cannot take other chapters' queries (issue 42, item 9): of an output, the index
    holds its first few error and warning messages (templating.searched_output), read by Material's own
    indexer, and none of the rest."""
    from types import SimpleNamespace

    from material.plugins.search.plugin import SearchIndex
    from mkdocs.structure.toc import get_toc
    from pytorch_notes.render.templating import PACKAGE, SEARCHED_MESSAGES

    printed = "\n".join(["CUDA autograd LoRA quantization 显卡 微调"] * 3 + ["RuntimeError: mat1 and mat2 shapes"]
                        + [f"x.py:{n}: UserWarning: number {n}" for n in range(SEARCHED_MESSAGES + 1)]
                        + ["UserWarning: " + "long " * 80])
    block = PACKAGE.render("example/output.html", classes="pn-output--stdout", t={"output": "Output"},
                           label="Output", took="", summary="", text=printed)
    page = SimpleNamespace(url="t/", title="Tensors", meta={}, content="<h1 id=\"t\">Tensors</h1><p>prose</p>" + block,
                           toc=get_toc([{"level": 1, "id": "t", "name": "Tensors", "children": []}]))
    index = SearchIndex(lang=["en"], separator=r"[\s\-]+", pipeline=[], fields={})
    index.add_entry_from_context(page)
    text = " ".join(e["text"] for e in index.entries)
    assert "prose" in text and "RuntimeError: mat1 and mat2 shapes" in text
    assert "LoRA" not in text and "显卡" not in text, text
    assert text.count("UserWarning") == SEARCHED_MESSAGES - 1, "the first few messages only"
    assert "long long" not in text, "a long line is not searched"
    assert printed.split("\n")[0] in block, "the reader still sees every line"


def test_the_device_tab_labels_are_marked_with_a_plain_attribute():
    """``data-search-exclude="true"``, not ``data-search-exclude=\\"true\\"`` (issue 44, item 8: the backslashes
    reached the page, and Material's scrub of the attribute after indexing did not remove it)."""
    html = ('<div class="pn-example" id="e"></div><div class="tabbed-set tabbed-alternate" data-tabs="1:2">'
            '<input id="a" type="radio"><input id="b" type="radio"><div class="tabbed-labels"><label>CPU</label></div>')
    marked = search.exclude_example_tab_labels(html)
    assert '<div class="tabbed-labels" data-search-exclude="true">' in marked and "\\" not in marked, marked


def test_lunrs_token_set_keys_are_fixed_once_in_the_built_site(tmp_path):
    """upstream.fix_lunr_token_set_keys: the fix is appended to the site's copy of lunr's support script once,
    and a build whose site lacks the script stops (its search would throw on some words)."""
    import pytest
    from pytorch_notes.site import upstream

    script = tmp_path / upstream.LUNR_SUPPORT_SCRIPT
    script.parent.mkdir(parents=True)
    script.write_text("!function(){}();\n", encoding="utf-8")
    upstream.fix_lunr_token_set_keys(tmp_path)
    upstream.fix_lunr_token_set_keys(tmp_path)
    text = script.read_text(encoding="utf-8")
    assert text.startswith("!function(){}();\n" + upstream.LUNR_MARKER) and text.count(upstream.LUNR_MARKER) == 1
    assert '+ this.edges[labels[i]].id + ","' in text, "a comma after each child's id"
    with pytest.raises(RuntimeError, match="lunr.stemmer.support.min.js"):
        upstream.fix_lunr_token_set_keys(tmp_path / "elsewhere")
