"""Search entries that are not in the build cache, computed in a worker process beside the build.

Material's search plugin indexes each page when it is written (``on_page_context``): it parses the
page's HTML and segments its Chinese text with jieba (which first loads its dictionary, ~0.7 s). With
an empty build cache (a fresh clone, ``make clean``) the 62 chapter pages of this course took ~3 s of
one core that way, while the second core sat idle. Under ``mkdocs build`` the cache wrapper
(``buildcache.install``) hands each page it has no entries for to ``offload``: the page's indexed
fields go to a one-process pool, a placeholder keeps the page's place in the index, and ``resolve``
(run when Material generates the index, ``SearchIndex.generate_search_index``) puts the worker's
entries there and stores them in the cache. The worker runs Material's own ``add_entry_from_context``
on a ``SearchIndex`` with the plugin's config, so the entries are the ones the build would have made
(``tests/test_searchpool.py``; the site of a cold build is byte-identical with and without the pool).

``make serve`` keeps indexing in the build process (``enable`` is given the command): its rebuilds
index a page or two, and a pool would cost more than it saves.
"""

from __future__ import annotations

import atexit
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass

_enabled = False
_pool: ProcessPoolExecutor | None = None
original_add_entry = None  # Material's SearchIndex.add_entry_from_context, set by buildcache.install


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
        return cls(page.url, str(page.title), dict(page.meta or {}), page.toc, page.content)


@dataclass
class Pending:
    """A page's place in ``SearchIndex.entries`` until the worker's entries for it arrive."""

    future: Future
    key: str
    store: object  # buildcache.DiskCache


def enable(on: bool) -> None:
    """Offload indexing in this process's builds (``on_startup``: on for ``mkdocs build`` only)."""
    global _enabled
    _enabled = on


def _load_segmenter() -> None:
    from material.plugins.search import plugin  # noqa: PLC0415 - worker side

    if plugin.jieba is not None:
        plugin.jieba.initialize()  # its dictionary: ~0.7 s, once per process


def start() -> None:
    """Start the worker now, loading jieba, rather than at the first page it gets: for a build
    that will index many pages (``on_pre_build`` of a cold build)."""
    if _enabled:
        _worker().submit(_load_segmenter)


def _worker() -> ProcessPoolExecutor:
    global _pool
    if _pool is None:
        _pool = ProcessPoolExecutor(max_workers=1)
    return _pool


def _entries_in_worker(config: dict, page: PageFields) -> list[dict]:
    from material.plugins.search.plugin import SearchIndex  # noqa: PLC0415 - worker side

    index = SearchIndex(**config)
    (original_add_entry or SearchIndex.add_entry_from_context)(index, page)
    return index.entries


def offload(index, page, key: str, store) -> bool:
    """Queue ``page``'s indexing in the worker and hold its place in ``index.entries``. Returns False,
    doing nothing, when offloading is off (the caller indexes the page itself)."""
    if not _enabled:
        return False
    future = _worker().submit(_entries_in_worker, index.config, PageFields.of(page))
    index.entries.append(Pending(future, key, store))
    return True


def resolve(index) -> None:
    """Replace each placeholder in ``index.entries`` by the worker's entries, in place, storing them
    in the build cache. A worker's exception is raised here (the build fails as it would have)."""
    if not any(isinstance(e, Pending) for e in index.entries):
        return
    out = []
    for entry in index.entries:
        if isinstance(entry, Pending):
            found = entry.future.result()
            entry.store.put(entry.key, found)
            out.extend(found)
        else:
            out.append(entry)
    index.entries[:] = out


def shutdown() -> None:
    """Close the worker (the end of a build, or a failed one)."""
    global _pool
    pool, _pool = _pool, None
    if pool is not None:
        pool.shutdown(wait=True, cancel_futures=True)


atexit.register(shutdown)
