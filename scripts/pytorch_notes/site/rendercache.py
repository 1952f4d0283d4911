"""Reuse a page's HTML across builds when nothing its theme template reads has changed.

Rendering Material's templates, most of it each page's navigation, is the largest part of a warm build
left to cache. The HTML of a page is a function of the template context MkDocs passes to
``template.render`` and of the templates themselves, so it is
stored in the build's one cache (``cache.Store``, kind ``page``) under a key of both; the key's
environment covers the libraries (``constraints.txt``), the build code, ``mkdocs.yml`` and the theme's
``docs/overrides``. The value's own inputs are:

* once per language build (``site_part``): the whole configuration as plain data (``plain``; plugins
  by their settings), the navigation (every section, page and link with its title, URL and meta),
  every page of the build with its title and URL, and the names in the template environment;
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

``PYTORCH_NOTES_RENDER_CACHE=0`` turns the cache off. A build with it writes the same files as one
without (``tests/test_rendercache.py``, ``tests/test_incremental.py``).
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from mkdocs.plugins import BasePlugin

from pytorch_notes.site.cache import Store, TextDigests, digest

# configuration keys that say where things are, read by no template (tests/test_rendercache.py)
NOT_RENDERED = frozenset({"site_dir", "docs_dir", "config_file_path"})
_PAGE_LINKS = ("previous_page", "next_page")
_PAGE_SKIPPED = frozenset({"file", "parent", "children", "render", *_PAGE_LINKS})
_PAGE_TEXTS = frozenset({"content", "markdown"})  # hashed as they are (``cache.TextDigests``)


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


def site_part(config, nav, pages, env) -> str:
    """The digest of what every page of this language build shares (see the module docstring);
    ``pages`` are the build's documentation files (the ``pages`` of MkDocs' template context)."""
    settings = {k: plain(v) for k, v in config.items() if k not in NOT_RENDERED}
    return digest([
        settings, _nav(nav.items), getattr(getattr(nav, "homepage", None), "url", None),
        [[f.src_uri, f.url, str(getattr(f.page, "title", None))] for f in pages],
        sorted(env.globals), sorted(env.filters), sorted(env.tests),
    ])


def page_key(store: Store, site: str, template_name: str, context: Mapping, digests: TextDigests) -> str:
    """The key in ``store`` of one page render: ``site`` (``site_part``), the template and the page's own
    context (its long texts hashed by ``digests``).

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
    return store.key("page", [site, template_name, own, rest, plain(context["config"].get("extra"), strict=True)])


class _PageTemplate:
    """A theme template whose ``render`` of a page goes through the cache; everything else is the template's."""

    def __init__(self, template, cached) -> None:
        self._template = template
        self._cached = cached

    def __getattr__(self, name):
        return getattr(self._template, name)

    def render(self, *args, **kwargs) -> str:
        return self._cached(self._template, dict(*args, **kwargs))


class PageRenders:
    """The build's Jinja environment as ``on_env`` hands it back to MkDocs: the same environment (every
    attribute read from it), whose ``get_template`` gives page templates that go through the cache. MkDocs
    uses the environment ``on_env`` returns, and only its ``get_template``, to render pages and static
    templates (``mkdocs.commands.build``); Jinja loads the templates a template extends or includes from
    the environment itself, and those are left as they are. Nothing of Jinja's environment is changed."""

    def __init__(self, env, cached) -> None:
        self._env = env
        self._cached = cached

    def __getattr__(self, name):
        return getattr(self._env, name)

    def get_template(self, name, parent=None, globals=None):
        template = self._env.get_template(name, parent, globals)
        return template if parent is not None else _PageTemplate(template, self._cached)


def install(env, config, store: Store, digests: TextDigests | None = None):
    """The environment MkDocs should render this build's pages with (``on_env`` returns it): ``env``,
    whose page renders go through ``store`` (the plugin's, kept for both languages' builds and every
    rebuild of ``make serve``), or ``env`` itself when ``PYTORCH_NOTES_RENDER_CACHE=0`` turns the cache off.
    """
    if os.environ.get("PYTORCH_NOTES_RENDER_CACHE", "1") == "0":
        return env
    digests = TextDigests() if digests is None else digests
    site: dict[str, str] = {}

    def cached(template, context: dict) -> str:
        page = context.get("page")
        if page is None or getattr(page, "file", None) is None:
            return template.render(context)  # a static template (404.html, sitemap.xml)
        if "digest" not in site:
            site["digest"] = site_part(config, context["nav"], context.get("pages") or [], env)
        try:
            key = page_key(store, site["digest"], template.name, context, digests)
        except Uncacheable:
            return template.render(context)
        if (found := store.get("page", key)) is not None:
            return found.decode("utf-8")
        html = template.render(context)
        store.put("page", key, html)
        return html

    return PageRenders(env, cached)
