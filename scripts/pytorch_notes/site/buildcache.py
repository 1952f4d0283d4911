"""Reuse two pure, costly steps of a build across builds: search entries and highlighted code.

Measured with ``cProfile`` on a warm strict build of this course (2 cores), before this module:
Material's search plugin took the largest share (it parses every page's HTML with an ``HTMLParser``
and segments its Chinese text with jieba, which first loads a dictionary for ~0.7 s), and Pygments'
highlighting of every code block, through ``pymdownx.highlight``, the next largest. Both results are
functions of their inputs only:

* a page's search entries: its HTML, table of contents, URL, title and meta, and the versions of
  Material and jieba (``search_key``);
* a highlighted block: the code, the block's options and the highlighter's settings, and the versions
  of Pygments and pymdown-extensions (``highlight_key``).

``persist_memos`` keeps the pipeline's own memos (``filememo``) under ``memo/``.

A third, ``compiled_templates``, keeps Jinja's compiled theme templates on disk: MkDocs makes a new
template environment for every build (every rebuild of ``make serve`` too) and compiles each of
Material's templates again (~0.3 s; Jinja's own ``FileSystemBytecodeCache``, keyed by the template's source).

``install`` wraps ``SearchIndex.add_entry_from_context`` and ``Highlight.highlight`` to look the result
up first. Entries live in ``.cache/pytorch-notes/<kind>/<key>.json`` beside mkdocs-jupyter's cache
(``make clean`` empties both); each is written atomically, so concurrent builds share the cache
safely. A build with the cache writes the same files as one without (``tests/test_incremental.py``).
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
from pytorch_notes.settings import REPO_ROOT
from pytorch_notes.site import searchpool

CACHE_DIR = REPO_ROOT / ".cache" / "pytorch-notes"
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


def text_digest(text: str) -> str:
    """SHA-256 of ``text`` (UTF-8), computed once per string object: a page's HTML is in the key of its
    search entries and of its render (``rendercache``), and ``json.dumps`` of a 40-170 KB page cost
    3 times as much as hashing it."""
    found = _TEXT_DIGESTS.get(id(text))
    if found is not None and found[0] is text:
        return found[1]
    if len(_TEXT_DIGESTS) > 4096:
        _TEXT_DIGESTS.clear()
    digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
    _TEXT_DIGESTS[id(text)] = (text, digest)  # holds the string: its id is not reused meanwhile
    return digest


_TEXT_DIGESTS: dict[int, tuple[str, str]] = {}


def _toc(items) -> list:
    return [[getattr(i, "id", None), i.url, i.title, _toc(i.children)] for i in items or []]


@functools.lru_cache(maxsize=1)
def _user_words() -> str:
    """The digest of jieba's user dictionary (``searchwords.USER_DICTIONARY``): it changes the words."""
    from pytorch_notes.site.searchwords import USER_DICTIONARY  # noqa: PLC0415

    return hashlib.sha256(USER_DICTIONARY.read_bytes()).hexdigest() if USER_DICTIONARY.exists() else ""


def search_key(page) -> str | None:
    """The key of ``page``'s search entries: a SHA-256 over everything Material reads from the page."""
    meta = page.meta or {}
    return _digest([_FORMAT, _version("mkdocs-material"), _version("jieba"), _user_words(), page.url, str(page.title),
                    meta.get("title"), meta.get("search"), meta.get("tags"), _toc(page.toc), text_digest(page.content)])


def _settings(highlighter) -> dict:
    """The highlighter's settings that are plain data. Functions and objects are left out: their
    ``repr`` changes from process to process; they come from mkdocs.yml and the library versions."""
    out = {}
    for name, value in sorted(vars(highlighter).items()):
        try:
            json.dumps(value)
        except (TypeError, ValueError):
            continue
        out[name] = value
    return out


def highlight_key(highlighter, args: tuple, kwargs: dict) -> str | None:
    """The key of one highlighted block (code, options, settings, library versions), or None."""
    return _digest([_FORMAT, _version("pygments"), _version("pymdown-extensions"), _settings(highlighter),
                    list(args), kwargs])


def persist_memos(root: Path = CACHE_DIR) -> None:
    """Keep the pipeline's memos (``filememo``: parsed examples, records, localized comments) in
    ``root/memo``, under a digest of the pipeline package's code (``on_config``)."""
    global _code_version
    if _code_version is None:
        _code_version = filememo.code_version(Path(filememo.__file__).parent)
    filememo.persist(root / "memo", _code_version)


_code_version: str | None = None


def compiled_templates(env, root: Path = CACHE_DIR) -> None:
    """Give the theme's Jinja environment a bytecode cache under ``root/jinja`` (``on_env``)."""
    from jinja2 import FileSystemBytecodeCache  # noqa: PLC0415 - MkDocs has loaded Jinja by now

    directory = root / "jinja"
    directory.mkdir(parents=True, exist_ok=True)
    env.bytecode_cache = FileSystemBytecodeCache(str(directory))


class DiskCache:
    """JSON values stored one per file under ``root/<kind>/<key[:2]>/<key>.json``."""

    def __init__(self, kind: str, root: Path = CACHE_DIR) -> None:
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


def install(root: Path = CACHE_DIR) -> None:
    """Wrap Material's search indexing and pymdownx's highlighter with the disk cache (once per process)."""
    from material.plugins.search.plugin import SearchIndex
    from pymdownx.highlight import Highlight

    if not getattr(SearchIndex.add_entry_from_context, "_pytorch_notes_cached", False):
        entries = DiskCache("search", root)
        add_entry = SearchIndex.add_entry_from_context
        searchpool.original_add_entry = add_entry

        def add_entry_from_context(self, page):
            if (page.meta or {}).get("search", {}).get("exclude"):
                return add_entry(self, page)  # Material indexes nothing: no key to compute
            key = search_key(page)
            if key is None:
                return add_entry(self, page)
            if (found := entries.get(key)) is not None:
                self.entries.extend(found)
                return None
            if searchpool.offload(self, page, key, entries):  # mkdocs build: indexed beside the build
                return None
            start = len(self.entries)
            add_entry(self, page)
            entries.put(key, self.entries[start:])
            return None

        add_entry_from_context._pytorch_notes_cached = True  # type: ignore[attr-defined]
        SearchIndex.add_entry_from_context = add_entry_from_context

        generate = SearchIndex.generate_search_index

        @functools.wraps(generate)
        def generate_search_index(self, prev):
            searchpool.resolve(self)  # the entries of offloaded pages, in their places
            return generate(self, prev)

        SearchIndex.generate_search_index = generate_search_index

    if not getattr(SearchIndex._segment_chinese, "_pytorch_notes_cached", False):
        segment = SearchIndex._segment_chinese
        segmented: dict[str, str] = {}

        def segment_chinese(self, data: str) -> str:
            """Material's jieba segmentation of one section's text, once per text in a process: a page
            edited under ``make serve`` is indexed again, and all its sections but the edited one are
            the same (0.24 s of a 0.9 s rebuild after a page edit went to segmenting, 2026-11-23)."""
            found = segmented.get(data)
            if found is None:
                if len(segmented) > 50_000:
                    segmented.clear()
                found = segmented[data] = segment(self, data)
            return found

        segment_chinese._pytorch_notes_cached = True  # type: ignore[attr-defined]
        segment_chinese.__wrapped__ = segment  # type: ignore[attr-defined]
        SearchIndex._segment_chinese = segment_chinese

    if not getattr(Highlight.highlight, "_pytorch_notes_cached", False):
        blocks = DiskCache("highlight", root)
        highlight = Highlight.highlight

        def cached_highlight(self, *args, **kwargs):
            key = highlight_key(self, args, kwargs)
            if key is None:
                return highlight(self, *args, **kwargs)
            if (found := blocks.get(key)) is not None:
                return found
            html = highlight(self, *args, **kwargs)
            if isinstance(html, str):
                blocks.put(key, html)
            return html

        cached_highlight._pytorch_notes_cached = True  # type: ignore[attr-defined]
        Highlight.highlight = cached_highlight


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
    Theme.get_env = get_theme_env
