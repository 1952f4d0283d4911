"""Reuse a page's HTML across builds when nothing its theme template reads has changed.

Rendering Material's templates was the largest part of a warm build of this course left to cache:
1.6 s of a 5.6 s ``make build`` (386 pages, 324 of them notebook pages; per-event timing on this
project's 2-core machine), most of it each page's navigation. The HTML of a page is a function of
the template context MkDocs passes to ``template.render`` and of the templates themselves, so it is
stored under a digest of both and reused while the digest is the same:

* once per language build (``_site_part``): the versions of the libraries that render (MkDocs,
  Material, Jinja, the plugins), the theme's own directories outside the installed packages
  (``docs/overrides``, file by file), the project's build code (``scripts/``), the whole configuration
  as plain data (``plain``; plugins by their settings), the navigation (every section, page and
  link with its title, URL and meta), every page of the build with its title and URL, and the names
  in the template environment;
* per page (``page_key``): every attribute of the page (content, table of contents, meta, title,
  URLs, edit link, its file's URLs and translations, its neighbours' titles and URLs, its ancestors),
  every other context variable (the i18n plugin's, ``base_url``, scripts and stylesheets), and the
  configuration's ``extra`` again, which mkdocs-static-i18n rewrites for each page (the language
  switcher's links).

Left out, as no template reads them: where things are on disk (``site_dir``, ``docs_dir``, the
config file's path, absolute paths of files: a build into another folder reuses the pages) and the
build's clock time ``build_date_utc`` (only MkDocs' ``sitemap.xml`` reads a date, and static
templates are never cached). ``tests/test_rendercache.py`` checks that no template mentions them.
A value the digest cannot describe as plain data (an object without a stable ``repr``) is described
by its type; the page is rendered, not reused, if such a value sits in the page's own context.

Entries are ``.cache/pytorch-notes/page/<key[:2]>/<key>.html``, written atomically; ``make clean``
empties them. ``PYTORCH_NOTES_RENDER_CACHE=0`` turns the cache off. A build with it writes the same
files as one without (``tests/test_rendercache.py``, ``tests/test_incremental.py``).
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections.abc import Mapping
from pathlib import Path

from mkdocs.plugins import BasePlugin

from pytorch_notes.site.buildcache import TextDigests, _version, theme_override_files
from pytorch_notes.site.project import CODE

_FORMAT = 1  # bump when what a key covers changes
KEEP_S = 600.0  # an unused entry is kept this long (``RenderCache.evict``)
LIBRARIES = ("mkdocs", "mkdocs-material", "mkdocs-static-i18n", "mkdocs-jupyter", "jinja2", "markupsafe",
             "pymdown-extensions", "babel")
# configuration keys that say where things are, read by no template (tests/test_rendercache.py)
NOT_RENDERED = frozenset({"site_dir", "docs_dir", "config_file_path"})
_PAGE_LINKS = ("previous_page", "next_page")
_PAGE_SKIPPED = frozenset({"file", "parent", "children", "render", *_PAGE_LINKS})
_PAGE_TEXTS = frozenset({"content", "markdown"})  # hashed as they are (``buildcache.TextDigests``)


class Uncacheable(Exception):
    """A page's context holds something the key cannot describe: render the page."""


def plain(value, strict: bool = False):
    """``value`` as JSON-able plain data for a digest: mappings (MkDocs' ``Config`` and ``Theme``
    included), sequences and sets recursively, a plugin by its settings, and any other object by its
    ``repr`` where that is stable (no memory address), else by its type's name.

    Raises:
        Uncacheable: with ``strict``, for an object that has no stable ``repr``.
    """
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    if isinstance(value, Mapping):
        return {str(k): plain(v, strict) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v, strict) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted((plain(v, strict) for v in value), key=repr)
    if isinstance(value, BasePlugin):  # by its settings
        return {"plugin": type(value).__qualname__, "config": plain(value.config, strict)}
    text = repr(value)
    if " at 0x" not in text and " object at " not in text:
        return f"{type(value).__qualname__}:{text}"
    if strict:
        raise Uncacheable(f"{type(value).__qualname__} has no stable repr")
    return f"{type(value).__module__}.{type(value).__qualname__}:{getattr(value, '__qualname__', '')}"


def _digest(payload) -> str:
    data = json.dumps(payload, ensure_ascii=False, sort_keys=True, default=str)
    return hashlib.sha256(data.encode("utf-8")).hexdigest()


def _toc(items) -> list:
    return [[getattr(i, "id", None), i.title, i.url, getattr(i, "level", None), _toc(i.children)]
            for i in items or []]


def _nav(items) -> list:
    out = []
    for item in items or []:
        children = getattr(item, "children", None)
        if children is not None and not hasattr(item, "file"):  # a section
            out.append(["section", str(item.title), _nav(children)])
        elif hasattr(item, "file"):  # a page
            out.append(["page", str(item.title), item.url, plain(getattr(item, "meta", None)),
                        getattr(item, "is_index", None)])
        else:  # a link
            out.append(["link", str(item.title), item.url])
    return out


def _file(file) -> dict:
    alternates = getattr(file, "alternates", None) or {}
    return {"src_uri": file.src_uri, "dest_uri": file.dest_uri, "url": file.url,
            "locale": getattr(file, "locale", None),
            "alternates": {str(k): getattr(f, "url", str(f)) for k, f in sorted(alternates.items())}}


def _code_files() -> list:
    """The build code running (``project.CODE``): a hook that changes what a page's context holds changes this."""
    out = []
    for path in sorted(CODE.rglob("*.py")):
        st = path.stat()
        out.append([f"scripts/{path.relative_to(CODE).as_posix()}", st.st_size, st.st_mtime_ns])
    return out


def config_text(config) -> str | None:
    """The digest of ``mkdocs.yml`` as written: settings kept inside objects (the ``slugify`` of ``toc``)
    have no plain description."""
    path = getattr(config, "config_file_path", None)
    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest() if path else None
    except OSError:
        return None


def _versions() -> dict:
    return {name: _version(name) for name in LIBRARIES}


def site_part(config, nav, pages, env) -> str:
    """The digest of what every page of this language build shares (see the module docstring);
    ``pages`` are the build's documentation files (the ``pages`` of MkDocs' template context)."""
    settings = {k: plain(v) for k, v in config.items() if k not in NOT_RENDERED}
    return _digest([
        _FORMAT, _versions(), theme_override_files(config.theme.dirs), _code_files(), config_text(config), settings,
        _nav(nav.items), getattr(getattr(nav, "homepage", None), "url", None),
        [[f.src_uri, f.url, str(getattr(f.page, "title", None))] for f in pages],
        sorted(env.globals), sorted(env.filters), sorted(env.tests),
    ])


def page_key(site: str, template_name: str, context: Mapping, digests: TextDigests) -> str:
    """The key of one page render: ``site`` (``site_part``), the template and the page's own context
    (its long texts hashed by ``digests``).

    Raises:
        Uncacheable: the context holds a value with no plain description.
    """
    page = context["page"]
    attrs = {k: v for k, v in vars(page).items() if k not in _PAGE_SKIPPED and not callable(v)}
    own = {k: digests(v) if k in _PAGE_TEXTS and isinstance(v, str) else plain(v, strict=True)
           for k, v in attrs.items() if k != "toc"}
    own["toc"] = _toc(attrs.get("toc"))
    own["file"] = _file(page.file)
    own["title"] = str(page.title)
    for name in _PAGE_LINKS:
        linked = getattr(page, name, None)
        own[name] = None if linked is None else [str(linked.title), linked.url]
    own["ancestors"] = [str(a.title) for a in getattr(page, "ancestors", [])]
    rest = {k: plain(v, strict=True) for k, v in context.items()
            if k not in ("page", "config", "nav", "pages", "build_date_utc")}
    return _digest([site, template_name, own, rest, plain(context["config"].get("extra"), strict=True)])


class RenderCache:
    """Texts (page HTML; ``mdcache``'s JSON) stored one file per key under ``root``, named
    ``<key[:2]>/<key><suffix>``; ``used`` holds the keys read or written since ``start``, so that
    ``evict`` can drop the others."""

    def __init__(self, root: Path, suffix: str = ".html") -> None:
        self.root = root
        self.suffix = suffix
        self.used: set[str] = set()

    def _path(self, key: str) -> Path:
        return self.root / key[:2] / f"{key}{self.suffix}"

    def start(self) -> None:
        """A new build: nothing used yet."""
        self.used.clear()

    def get(self, key: str) -> str | None:
        try:
            html = self._path(key).read_text(encoding="utf-8")
        except OSError:
            return None
        self.used.add(key)
        return html

    def put(self, key: str, html: str) -> None:
        self.used.add(key)
        path = self._path(key)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        tmp.write_text(html, encoding="utf-8")
        os.replace(tmp, path)

    def evict(self, keep_s: float = KEEP_S, now: float | None = None) -> int:
        """Remove the entries this build did not use that are older than ``keep_s`` seconds (another
        configuration's, such as ``make serve``'s beside ``make build``, live that long); returns how
        many. Every change of the build code leaves a whole site of unused entries (~34 MB of pages,
        ~2 MB of conversions): an hour of editing the glue left 840 MB before this was 10 minutes."""
        now = time.time() if now is None else now
        removed = 0
        for path in self.root.glob(f"*/*{self.suffix}"):
            if path.stem in self.used:
                continue
            try:
                if now - path.stat().st_mtime > keep_s:
                    path.unlink()
                    removed += 1
            except OSError:
                continue
        return removed


class _PageTemplate:
    """A theme template whose ``render`` of a page goes through the cache; everything else is the template's."""

    def __init__(self, template, cached) -> None:
        self._template = template
        self._cached = cached

    def __getattr__(self, name):
        return getattr(self._template, name)

    def render(self, *args, **kwargs) -> str:
        return self._cached(self._template, dict(*args, **kwargs))


def install(env, config, cache: RenderCache, digests: TextDigests | None = None) -> RenderCache | None:
    """Make the page renders of this build's template environment ``env`` go through ``cache`` (``on_env``;
    the plugin's, kept for both languages' builds and every rebuild of ``make serve``).

    MkDocs renders a page with ``env.get_template(name).render(context)``; Jinja itself loads the
    templates a template extends or includes with a parent name, and those are left as they are.
    Returns the cache, or None when ``PYTORCH_NOTES_RENDER_CACHE=0`` turns it off.
    """
    if os.environ.get("PYTORCH_NOTES_RENDER_CACHE", "1") == "0":
        return None
    digests = TextDigests() if digests is None else digests
    site: dict[str, str] = {}

    def cached(template, context: dict) -> str:
        page = context.get("page")
        if page is None or getattr(page, "file", None) is None:
            return template.render(context)  # a static template (404.html, sitemap.xml)
        if "digest" not in site:
            site["digest"] = site_part(config, context["nav"], context.get("pages") or [], env)
        try:
            key = page_key(site["digest"], template.name, context, digests)
        except Uncacheable:
            return template.render(context)
        if (html := cache.get(key)) is not None:
            return html
        html = template.render(context)
        cache.put(key, html)
        return html

    get_template = env.get_template

    def get_page_template(name, parent=None, globals=None):
        template = get_template(name, parent, globals)
        return template if parent is not None else _PageTemplate(template, cached)

    env.get_template = get_page_template
    return cache
