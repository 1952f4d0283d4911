"""Search entries computed beside the build equal Material's own, in page order
(pytorch_notes.site.searchpool)."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest
from material.plugins.search.plugin import SearchIndex
from pytorch_notes.site import buildcache, searchpool

CONFIG = {"lang": ["zh", "en"], "separator": r"[\s\-]+", "pipeline": ["stopWordFilter"], "fields": {}}


def _page(url: str, text: str):
    html = f'<h1 id="t">标题 {url}</h1><p>{text}</p><h2 id="s">小节 Section</h2><p>张量 tensor {text}</p>'
    return SimpleNamespace(url=url, title=f"Page {url}", meta={}, toc=[], content=html)


class _Store(dict):
    def put(self, key, value):
        self[key] = value


@pytest.fixture
def offloading():
    buildcache.install()  # sets searchpool.original_add_entry, as a build does
    searchpool.enable(True)
    yield
    searchpool.enable(False)
    searchpool.shutdown()


def _material(pages) -> list[dict]:
    index = SearchIndex(**CONFIG)
    for page in pages:
        (searchpool.original_add_entry or SearchIndex.add_entry_from_context)(index, page)
    return index.entries


def test_offloaded_pages_get_materials_entries_in_page_order(offloading):
    pages = [_page("a/", "自动求导 autograd"), _page("b/", "反向传播 backward"), _page("c/", "优化器 optimizer")]
    index, store = SearchIndex(**CONFIG), _Store()
    assert searchpool.offload(index, pages[0], "ka", store)
    searchpool.original_add_entry(index, pages[1])  # a page answered from the cache in between
    assert searchpool.offload(index, pages[2], "kc", store)
    searchpool.resolve(index)
    assert index.entries == _material(pages)
    assert not any(isinstance(e, searchpool.Pending) for e in index.entries)
    assert store["ka"] == _material(pages[:1]) and store["kc"] == _material(pages[2:])  # cached for next time


def test_what_is_pending_is_resolved_before_material_writes_the_index(offloading):
    from mkdocs.plugins import CombinedEvent
    from pytorch_notes.site.plugin import PyTorchNotesPlugin

    index = SearchIndex(**CONFIG)
    searchpool.offload(index, _page("a/", "张量"), "k", _Store())
    config = SimpleNamespace(plugins={"material/search": SimpleNamespace(search_index=index)})
    on_post_build = PyTorchNotesPlugin().on_post_build
    assert isinstance(on_post_build, CombinedEvent)
    first = max(on_post_build.methods, key=lambda m: getattr(m, "mkdocs_priority", 0))
    assert first.mkdocs_priority > 0  # Material's search plugin writes the index at priority 0
    first(config=config)
    data = json.loads(index.generate_search_index(None))
    assert data["docs"] == _material([_page("a/", "张量")])


def test_off_means_the_build_indexes_the_page_itself():
    searchpool.enable(False)
    assert not searchpool.offload(SearchIndex(**CONFIG), _page("a/", "x"), "k", _Store())


def test_a_worker_started_early_serves_the_pages(offloading):
    searchpool.start()  # a cold build: the worker loads jieba before the first page
    index = SearchIndex(**CONFIG)
    page = _page("a/", "梯度 gradient")
    searchpool.offload(index, page, "k", _Store())
    searchpool.resolve(index)
    assert index.entries == _material([page])
