"""Search entries that are not in the build cache, computed in a worker process beside the build.

Material's search plugin indexes each page when it is written (``on_page_context``): it parses the
page's HTML and segments its Chinese text with jieba (which first loads its dictionary, ~0.7 s). With
an empty build cache (a fresh clone, ``make clean``) the 62 chapter pages of this course took ~3 s of
one core that way, while the second core sat idle. Under ``mkdocs build`` the cache wrapper
(``buildcache.install``) hands each page it has no entries for to ``SearchPool.offload``: the page's
indexed fields go to a one-process pool, a placeholder keeps the page's place in the index, and ``resolve``
(run when Material generates the index, ``SearchIndex.generate_search_index``) puts the worker's
entries there and stores them in the cache. The worker runs Material's own ``add_entry_from_context``
on a ``SearchIndex`` with the plugin's config, so the entries are the ones the build would have made
(``tests/test_searchpool.py``; the site of a cold build is byte-identical with and without the pool).

``make serve`` keeps indexing in the build process (``SearchPool.enable`` is given the command): its
rebuilds index a page or two, and a pool would cost more than it saves. The plugin holds one ``SearchPool``.
"""

from __future__ import annotations

import atexit
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass

from pytorch_notes.site.search import index_view


@dataclass
class PageFields:
    """What Material's indexing reads from a page (picklable, unlike a MkDocs ``Page``)."""

    url: str
    title: str
    meta: dict
    toc: object  # mkdocs.structure.toc.TableOfContents: plain objects
    content: str

    @classmethod
    def of(cls, page) -> PageFields:
        """The fields of ``page``, its HTML as the indexer reads it (``search.index_view``: what Material
        skips whole, emptied)."""
        return cls(page.url, str(page.title), dict(page.meta or {}), page.toc, index_view(page.content or ""))


@dataclass
class Pending:
    """A page's place in ``SearchIndex.entries`` until the worker's entries for it arrive."""

    future: Future
    key: str
    store: object  # cache.Store


def materials_add_entry():
    """Material's own ``SearchIndex.add_entry_from_context``, also where ``buildcache.install`` wrapped it."""
    from material.plugins.search.plugin import SearchIndex  # noqa: PLC0415

    method = SearchIndex.add_entry_from_context
    return getattr(method, "__wrapped__", method)


def _load_segmenter() -> None:
    from material.plugins.search import plugin  # noqa: PLC0415 - worker side

    if plugin.jieba is not None:
        plugin.jieba.initialize()  # its dictionary: ~0.7 s, once per process


def _entries_in_worker(config: dict, page: PageFields) -> list[dict]:
    from material.plugins.search.plugin import SearchIndex  # noqa: PLC0415 - worker side

    index = SearchIndex(**config)
    materials_add_entry()(index, page)
    return index.entries


class SearchPool:
    """The worker of this process's builds, off until ``enable``; started on demand, closed by ``shutdown``."""

    def __init__(self) -> None:
        self.enabled = False
        self.pool: ProcessPoolExecutor | None = None

    def enable(self, on: bool) -> None:
        """Offload indexing in this process's builds (``on_startup``: on for ``mkdocs build`` only)."""
        self.enabled = on

    def start(self) -> None:
        """Start the worker now, loading jieba, rather than at the first page it gets: for a build
        that will index many pages (``on_pre_build`` of a cold build)."""
        if self.enabled:
            self._worker().submit(_load_segmenter)

    def _worker(self) -> ProcessPoolExecutor:
        if self.pool is None:
            self.pool = ProcessPoolExecutor(max_workers=1)
            atexit.register(self.shutdown)
        return self.pool

    def offload(self, index, page, key: str, store) -> bool:
        """Queue ``page``'s indexing in the worker and hold its place in ``index.entries``. Returns False,
        doing nothing, when offloading is off (the caller indexes the page itself)."""
        if not self.enabled:
            return False
        future = self._worker().submit(_entries_in_worker, index.config, PageFields.of(page))
        index.entries.append(Pending(future, key, store))
        return True

    def shutdown(self) -> None:
        """Close the worker (the end of a build, or a failed one)."""
        pool, self.pool = self.pool, None
        if pool is not None:
            atexit.unregister(self.shutdown)
            pool.shutdown(wait=True, cancel_futures=True)


def resolve(index) -> None:
    """Replace each placeholder in ``index.entries`` by the worker's entries, in place, storing them
    in the build cache. A worker's exception is raised here (the build fails as it would have)."""
    if not any(isinstance(e, Pending) for e in index.entries):
        return
    out = []
    for entry in index.entries:
        if isinstance(entry, Pending):
            found = entry.future.result()
            entry.store.put_json("search", entry.key, found)
            out.extend(found)
        else:
            out.append(entry)
    index.entries[:] = out

