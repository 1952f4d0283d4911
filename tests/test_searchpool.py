"""Search entries computed beside the build equal Material's own, in page order
(pytorch_notes.site.searchpool)."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest
from material.plugins.search.plugin import SearchIndex
from pytorch_notes.site import buildcache, cache, searchpool

CONFIG = {"lang": ["zh", "en"], "separator": r"[\s\-]+", "pipeline": ["stopWordFilter"], "fields": {}}


def _page(url: str, text: str):
    html = f'<h1 id="t">标题 {url}</h1><p>{text}</p><h2 id="s">小节 Section</h2><p>张量 tensor {text}</p>'
    return SimpleNamespace(url=url, title=f"Page {url}", meta={}, toc=[], content=html)


class _Store(dict):
    def put_json(self, kind, key, value):
        self[key] = value


@pytest.fixture
def offloading(tmp_path):
    pool = searchpool.SearchPool()
    buildcache.install(cache.Store(tmp_path), pool)  # wraps Material's indexing, as a build does
    pool.enable(True)
    yield pool
    pool.shutdown()


def _material(pages) -> list[dict]:
    index = SearchIndex(**CONFIG)
    for page in pages:
        searchpool.materials_add_entry()(index, page)
    return index.entries


def test_offloaded_pages_get_materials_entries_in_page_order(offloading):
    pages = [_page("a/", "自动求导 autograd"), _page("b/", "反向传播 backward"), _page("c/", "优化器 optimizer")]
    index, store = SearchIndex(**CONFIG), _Store()
    assert offloading.offload(index, pages[0], "ka", store)
    searchpool.materials_add_entry()(index, pages[1])  # a page answered from the cache in between
    assert offloading.offload(index, pages[2], "kc", store)
    searchpool.resolve(index)
    assert index.entries == _material(pages)
    assert not any(isinstance(e, searchpool.Pending) for e in index.entries)
    assert store["ka"] == _material(pages[:1]) and store["kc"] == _material(pages[2:])  # cached for next time


def test_what_is_pending_is_resolved_before_material_writes_the_index(offloading):
    from mkdocs.plugins import CombinedEvent
    from pytorch_notes.site.plugin import PyTorchNotesPlugin

    index = SearchIndex(**CONFIG)
    offloading.offload(index, _page("a/", "张量"), "k", _Store())
    config = SimpleNamespace(plugins={"material/search": SimpleNamespace(search_index=index)})
    on_post_build = PyTorchNotesPlugin().on_post_build
    assert isinstance(on_post_build, CombinedEvent)
    first = max(on_post_build.methods, key=lambda m: getattr(m, "mkdocs_priority", 0))
    assert first.mkdocs_priority > 0  # Material's search plugin writes the index at priority 0
    first(config=config)
    data = json.loads(index.generate_search_index(None))
    assert data["docs"] == _material([_page("a/", "张量")])


def test_off_means_the_build_indexes_the_page_itself():
    pool = searchpool.SearchPool()  # off until on_startup of mkdocs build enables it
    assert not pool.offload(SearchIndex(**CONFIG), _page("a/", "x"), "k", _Store())
    pool.enable(False)
    assert not pool.offload(SearchIndex(**CONFIG), _page("a/", "x"), "k", _Store()) and pool.pool is None


def test_a_worker_started_early_serves_the_pages(offloading):
    offloading.start()  # a cold build: the worker loads jieba before the first page
    index = SearchIndex(**CONFIG)
    page = _page("a/", "梯度 gradient")
    offloading.offload(index, page, "k", _Store())
    searchpool.resolve(index)
    assert index.entries == _material([page])
