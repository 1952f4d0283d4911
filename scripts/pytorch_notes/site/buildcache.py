"""Reuse a pure, costly step of a build across builds: a page's search entries.

Measured with ``cProfile`` on a warm strict build of this course (2 cores), before this module:
Material's search plugin took the largest share (it parses every page's HTML with an ``HTMLParser``
and segments its Chinese text with jieba, which first loads a dictionary for ~0.7 s). A page's search
entries are a function of its HTML, table of contents, URL, title and meta, and the versions of
Material and jieba (``search_key``).

Highlighted code is no longer cached here: a Markdown page's whole conversion is (``mdcache``), and the
rest only paid off when a page was edited under ``make serve``.

``persist_memos`` keeps the pipeline's own memos (``filememo``) under ``memo/``.

A third, ``compiled_templates``, keeps Jinja's compiled theme templates on disk: MkDocs makes a new
template environment for every build (every rebuild of ``make serve`` too) and compiles each of
Material's templates again (~0.3 s; Jinja's own ``FileSystemBytecodeCache``, keyed by the template's source,
set in ``on_env``: a public attribute of the environment).

``install`` wraps ``SearchIndex.add_entry_from_context`` to look the entries up first. Entries live in
``.cache/pytorch-notes/search/<key>.json`` beside mkdocs-jupyter's cache (``make clean`` empties both);
each is written atomically, so concurrent builds share the cache safely. A build with the cache writes
the same files as one without (``tests/test_incremental.py``).
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import sys
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from pytorch_notes import filememo
from pytorch_notes.site import searchpool
from pytorch_notes.site.searchpool import SearchPool

_FORMAT = 2  # bump when a key or a stored form changes


@functools.cache  # importlib.metadata scans the installed distributions on every call
def _version(dist: str) -> str:
    try:
        return version(dist)
    except PackageNotFoundError:
        return "-"


def _digest(payload) -> str | None:
    """SHA-256 of ``payload`` as JSON, or None when it holds something that is not plain data."""
    try:
        data = json.dumps(payload, ensure_ascii=False, sort_keys=True)
    except (TypeError, ValueError):
        return None
    return hashlib.sha256(data.encode("utf-8")).hexdigest()


class TextDigests:
    """SHA-256 of a text (UTF-8), computed once per string object: a page's HTML is in the key of its
    search entries and of its render (``rendercache``), and ``json.dumps`` of a 40-170 KB page cost
    3 times as much as hashing it. The plugin holds one, shared by the caches of its builds."""

    def __init__(self) -> None:
        self.known: dict[int, tuple[str, str]] = {}  # id -> (the string, held so the id is not reused; digest)

    def __call__(self, text: str) -> str:
        found = self.known.get(id(text))
        if found is not None and found[0] is text:
            return found[1]
        if len(self.known) > 4096:
            self.known.clear()
        digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
        self.known[id(text)] = (text, digest)
        return digest


def _toc(items) -> list:
    return [[getattr(i, "id", None), i.url, i.title, _toc(i.children)] for i in items or []]


@functools.lru_cache(maxsize=1)
def _user_words() -> str:
    """The digest of jieba's user dictionary (``searchwords.USER_DICTIONARY``): it changes the words."""
    from pytorch_notes.site.searchwords import USER_DICTIONARY  # noqa: PLC0415

    return hashlib.sha256(USER_DICTIONARY.read_bytes()).hexdigest() if USER_DICTIONARY.exists() else ""


def search_key(page, digests: TextDigests) -> str | None:
    """The key of ``page``'s search entries: a SHA-256 over everything Material reads from the page."""
    meta = page.meta or {}
    return _digest([_FORMAT, _version("mkdocs-material"), _version("jieba"), _user_words(), page.url, str(page.title),
                    meta.get("title"), meta.get("search"), meta.get("tags"), _toc(page.toc), digests(page.content)])


def persist_memos(version: str | None, root: Path) -> str:
    """Keep the pipeline's memos (``filememo``: parsed examples, records, localized comments) in
    ``root/memo``, under ``version``, a digest of the pipeline package's code (``on_config``); returns it
    (computed when None: the plugin passes the one it got back last time)."""
    if version is None:
        version = filememo.code_version(Path(filememo.__file__).parent)
    filememo.persist(root / "memo", version)
    return version


def compiled_templates(env, root: Path) -> None:
    """Give the theme's Jinja environment a bytecode cache under ``root/jinja`` (``on_env``)."""
    from jinja2 import FileSystemBytecodeCache  # noqa: PLC0415 - MkDocs has loaded Jinja by now

    directory = root / "jinja"
    directory.mkdir(parents=True, exist_ok=True)
    env.bytecode_cache = FileSystemBytecodeCache(str(directory))


class DiskCache:
    """JSON values stored one per file under ``root/<kind>/<key[:2]>/<key>.json``."""

    def __init__(self, kind: str, root: Path) -> None:
        self.dir = root / kind

    def _path(self, key: str) -> Path:
        return self.dir / key[:2] / f"{key}.json"

    def get(self, key: str):
        """The stored value, or None when there is none (or it is unreadable)."""
        try:
            return json.loads(self._path(key).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None

    def put(self, key: str, value) -> None:
        """Store ``value`` (plain data) atomically."""
        path = self._path(key)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps(value, ensure_ascii=False), encoding="utf-8")
        os.replace(tmp, path)


def install(root: Path, pool: SearchPool | None = None, serve=None, digests: TextDigests | None = None) -> None:
    """Wrap Material's search indexing with the disk cache under ``root`` (the checkout's cache folder,
    ``project.Project.cache_dir``), for the builds of the plugin that owns ``pool``,
    ``serve`` and ``digests`` (``on_config``; wrapped again only when another owner installs it).

    The wrapper of ``SearchIndex.add_entry_from_context`` also hands each page's entries to
    ``serve.record_entries`` (``incremental.Serve``: ``make serve`` patches its index page by page) and,
    under ``mkdocs build``, a page missing from the cache to ``pool`` (``searchpool``, resolved by
    ``on_post_build`` before Material writes the index).

    Patch: Material has no public way to reuse a page's entries. No upstream issue asks for one (searched
    2026-11-27); the report that would remove this wrapper is in CONTRIBUTING.md, "Patches"."""
    from material.plugins.search.plugin import SearchIndex

    owner = (pool, serve, digests, root)
    installed = getattr(SearchIndex.add_entry_from_context, "_pytorch_notes_owner", None)
    if installed is not None and all(a is b for a, b in zip(installed, owner, strict=True)):
        return
    entries = DiskCache("search", root)
    add_entry = searchpool.materials_add_entry()
    digest = digests if digests is not None else TextDigests()

    @functools.wraps(add_entry)
    def add_entry_from_context(self, page):
        start = len(self.entries)
        key = None if (page.meta or {}).get("search", {}).get("exclude") else search_key(page, digest)
        if key is not None and (found := entries.get(key)) is not None:
            self.entries.extend(found)
        elif key is not None and pool is not None and pool.offload(self, page, key, entries):  # beside the build
            return None  # mkdocs build, not make serve: nothing to record
        else:
            # an excluded page gives no entries (no key to compute); the others are read as the pool reads them
            add_entry(self, page if key is None else searchpool.PageFields.of(page))
            if key is not None:
                entries.put(key, self.entries[start:])
        if serve is not None:
            serve.record_entries(page.url, list(self.entries[start:]))
        return None

    add_entry_from_context._pytorch_notes_owner = owner  # type: ignore[attr-defined]
    SearchIndex.add_entry_from_context = add_entry_from_context


_THEME_FILES = "Files.add_files_from_theme.<locals>.filter"  # MkDocs' filter of a theme's static files


def theme_override_files(dirs) -> list:
    """Every file of the theme folders ``dirs`` outside the installed packages (``docs/overrides``), with
    its size and modification time: what can change while ``make serve`` runs (the packages' own
    templates change only with their versions). Used by ``theme_listing`` and ``rendercache``."""
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
    """List the theme's files once per process, not on every build (``on_config``; once).

    Every build (both languages, every rebuild of ``make serve``) walks Material's template folder,
    ~14,500 files with its icons, and matches each name against MkDocs' patterns of static files
    (``Files.add_files_from_theme``): 0.6 s of a 1.5 s dirty rebuild under ``cProfile``, 2026-11-23.
    ``Theme.get_env`` is wrapped so that its environment's ``list_templates`` answers from a listing kept
    per theme (its folders, its static templates), taken again whenever a folder outside the installed
    packages (``docs/overrides``) has other files; other filters are applied to the kept listing.
    """
    from jinja2 import Environment  # noqa: PLC0415 - MkDocs has loaded Jinja by now
    from mkdocs.theme import Theme  # noqa: PLC0415
    from mkdocs.utils import markdown_extensions  # noqa: PLC0415

    get_env = Theme.get_env
    if getattr(get_env, "_pytorch_notes_listing", False):
        return
    listings: dict[tuple, list[str]] = {}

    @functools.wraps(get_env)
    def get_theme_env(self):
        env = get_env(self)
        dirs = tuple(self.dirs)

        def list_templates(extensions=None, filter_func=None):
            if extensions is not None or getattr(filter_func, "__qualname__", None) != _THEME_FILES:
                return Environment.list_templates(env, extensions, filter_func)
            key = (dirs, json.dumps(theme_override_files(dirs)), tuple(sorted(self.static_templates)),
                   tuple(markdown_extensions))
            if key not in listings:
                if len(listings) > 8:  # one per language's theme, and an older listing of docs/overrides
                    listings.clear()
                listings[key] = Environment.list_templates(env, None, filter_func)
            return list(listings[key])

        env.list_templates = list_templates
        return env

    get_theme_env._pytorch_notes_listing = True  # type: ignore[attr-defined]
    # Patch: MkDocs lists a theme's files on every build, before any event. No upstream issue asks to
    # keep the listing (mkdocs/mkdocs#3695 is about serve's speed in general; searched 2026-11-27): the
    # report that would remove this is in CONTRIBUTING.md, "Patches".
    Theme.get_env = get_theme_env
