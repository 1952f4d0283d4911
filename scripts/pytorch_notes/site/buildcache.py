"""Reuse two pure, costly steps of a build across builds, in the build's one cache (``cache.Store``):
a page's search entries, and Jinja's compiled theme templates; and list the theme's files once per process.

* Search entries (kind ``search``): Material's search plugin parses every page's HTML with an ``HTMLParser``
  and segments its Chinese text with jieba, which first loads a dictionary. A page's search entries are a
  function of its HTML, table of contents, URL, title and meta (``search_key``; Material's and jieba's
  versions and the user dictionary ``searchwords.USER_DICTIONARY`` are in the key's environment).
  ``install`` wraps ``SearchIndex.add_entry_from_context`` to look the entries up first.
* Compiled templates (kind ``jinja``, ``compiled_templates``): MkDocs makes a new template environment for
  every build (every rebuild of ``make serve`` too), which would compile each of Material's templates
  again. Jinja's bucket key names the template, and Jinja itself checks the source's checksum.
* The theme's files: ``theme_listing``.

A build with the cache writes the same files as one without (``tests/site/test_incremental.py``).
"""

from __future__ import annotations

import functools
import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path

from pytorch_notes.site import upstream
from pytorch_notes.site.cache import Store, TextDigests
from pytorch_notes.site.search import index_view
from pytorch_notes.site.searchwords import load_user_dictionary


def _toc(items) -> list:
    return [[getattr(i, "id", None), i.url, i.title, _toc(i.children)] for i in items or []]


def search_key(store: Store, page, digests: TextDigests) -> str:
    """The key of ``page``'s search entries in ``store``: everything Material reads from the page."""
    meta = page.meta or {}
    return store.key("search", [page.url, str(page.title), meta.get("title"), meta.get("search"), meta.get("tags"),
                                _toc(page.toc), digests(page.content)])


def compiled_templates(env, store: Store):
    """The theme's Jinja environment with a bytecode cache in ``store`` (``on_env``): an overlay of
    ``env`` (Jinja's ``Environment.overlay``: the same loader, filters and globals), ``env`` unchanged."""
    from jinja2 import BytecodeCache  # noqa: PLC0415 - MkDocs has loaded Jinja by now

    class Compiled(BytecodeCache):
        def load_bytecode(self, bucket) -> None:
            data = store.get("jinja", store.key("jinja", bucket.key))
            if data is not None:
                bucket.bytecode_from_string(data)

        def dump_bytecode(self, bucket) -> None:
            store.put("jinja", store.key("jinja", bucket.key), bucket.bytecode_to_string())

    return env.overlay(bytecode_cache=Compiled())


@dataclass
class PageFields:
    """What Material's indexing reads from a page, its HTML as the indexer reads it (``search.index_view``:
    what Material skips whole, emptied; the same entries, from less HTML to parse)."""

    url: str
    title: str
    meta: dict
    toc: object  # mkdocs.structure.toc.TableOfContents
    content: str

    @classmethod
    def of(cls, page) -> PageFields:
        return cls(page.url, str(page.title), dict(page.meta or {}), page.toc, index_view(page.content or ""))


def install(store: Store, serve=None, digests: TextDigests | None = None) -> None:
    """Wrap Material's search indexing with ``store`` (the plugin's ``cache.Store``), for the builds of the
    plugin that owns ``serve`` and ``digests`` (``on_config``; wrapped again only when another owner
    installs it).

    The wrapper of ``SearchIndex.add_entry_from_context`` also hands each page's entries to
    ``serve.record_entries`` (``incremental.Serve``: ``make serve`` patches its index page by page) and,
    under ``make serve``, keeps them out of Material's index, which would otherwise merge every rebuild
    into the last one's and grow with each save (its ``search_index_prev``). A page excluded from search
    (meta ``search.exclude``) is indexed by Material as is, and not cached.

    Patch: Material has no public way to reuse a page's entries. No upstream issue asks for one (searched
    2026-11-27); the report that would remove this wrapper is in CONTRIBUTING.md, "Patches"."""
    from material.plugins.search.plugin import SearchIndex

    owner = (serve, digests, store)
    installed = getattr(SearchIndex.add_entry_from_context, "_pytorch_notes_owner", None)
    if installed is not None and all(a is b for a, b in zip(installed, owner, strict=True)):
        return
    digest = digests if digests is not None else TextDigests()
    upstream.patch_search_entries(lambda add_entry, entries: _cached_entries(add_entry, entries, owner, store,
                                                                             serve, digest))


def _cached_entries(add_entry, entries, owner, store: Store, serve, digest: TextDigests):
    """Material's ``add_entry_from_context`` going through ``store`` (``install``); ``add_entry``: Material's
    own, ``entries(index)``: the list of the index's entries (``upstream.patch_search_entries``)."""
    with_terms = False  # jieba has the course's terms (searchwords.load_user_dictionary)

    @functools.wraps(add_entry)
    def add_entry_from_context(self, page):
        nonlocal with_terms
        kept = entries(self)
        start = len(kept)
        key = None if (page.meta or {}).get("search", {}).get("exclude") else search_key(store, page, digest)
        if key is not None and (found := store.get_json("search", key)) is not None:
            kept.extend(found)
        else:
            if key is not None and not with_terms:  # the first page this wrapper indexes: the course's terms
                load_user_dictionary()
                with_terms = True
            # an excluded page gives no entries (no key to compute); the others from less HTML (PageFields)
            add_entry(self, page if key is None else PageFields.of(page))
            if key is not None:
                store.put_json("search", key, kept[start:])
        if serve is not None:
            serve.record_entries(page.url, list(kept[start:]))
            if serve.dirty:  # make serve writes each index from the recorded entries (incremental.serve_index)
                del kept[start:]
        return None

    add_entry_from_context._pytorch_notes_owner = owner  # type: ignore[attr-defined]
    return add_entry_from_context


def theme_override_files(dirs) -> list:
    """Every file of the theme folders ``dirs`` outside the installed packages (``docs/overrides``), with
    its size and modification time: what can change while ``make serve`` runs (the packages' own
    templates change only with their versions). Used by ``theme_listing``."""
    prefixes = tuple({sys.prefix, sys.base_prefix})
    out = []
    for d in dirs:
        if os.path.abspath(d).startswith(prefixes):
            continue
        for path in sorted(Path(d).rglob("*")):
            if path.is_file():
                st = path.stat()
                out.append([path.relative_to(d).as_posix(), st.st_size, st.st_mtime_ns])
    return out


def theme_listing() -> None:
    """List the theme's files once per process, not on every build (``on_config``; installs once).

    Every build (both languages, every rebuild of ``make serve``) would walk Material's template folder,
    ~14,500 files with its icons, and match each name against MkDocs' patterns of static files
    (``Files.add_files_from_theme``). ``Theme.get_env`` is wrapped so that its environment's
    ``list_templates``, called with MkDocs' filter of static files, answers from a listing kept per theme
    (its folders, its static templates, MkDocs' Markdown extensions), taken again whenever a folder outside
    the installed packages (``docs/overrides``) has other files, sizes or modification times
    (``theme_override_files``). A call with ``extensions`` or another filter goes to Jinja's own
    ``list_templates``.
    """
    from jinja2 import Environment  # noqa: PLC0415 - MkDocs has loaded Jinja by now
    from mkdocs.utils import markdown_extensions  # noqa: PLC0415

    listings: dict[tuple, list[str]] = {}

    def listing(theme, env, filter_func) -> list[str]:
        dirs = tuple(theme.dirs)
        key = (dirs, json.dumps(theme_override_files(dirs)), tuple(sorted(theme.static_templates)),
               tuple(markdown_extensions))
        if key not in listings:
            if len(listings) > 8:  # one per language's theme, and an older listing of docs/overrides
                listings.clear()
            listings[key] = Environment.list_templates(env, None, filter_func)
        return list(listings[key])

    # Patch: MkDocs lists a theme's files on every build, before any event (upstream.patch_theme_listing
    # names the upstream change that would remove it). Installed once per process.
    upstream.patch_theme_listing(listing)
