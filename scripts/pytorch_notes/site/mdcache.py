"""Reuse a Markdown page's conversion to HTML across builds when none of its inputs changed.

MkDocs converts every page's Markdown (``Page.render``: Python-Markdown with this site's extensions) on
every build, after ``on_page_markdown``, and most of a warm build's time would go to it (highlighting
the examples' code). ``Page.render`` is a function of

* the page's Markdown after ``on_page_markdown`` and its examples, each by the key ``embed.Embeds.prepare``
  gave it in the page's ``embed.PreparedPage`` (what its rendering reads: ``EmbedPreprocessor`` renders it
  and puts it in place during the conversion, so a page found here renders none);
* the page's file (source path, URL) and every file of the build with its URL (links resolve to them);
* the configuration (its Markdown extensions, their settings, link validation levels) as plain data;
* and, as for every value of the build's one cache (``cache.Store``, kind ``markdown``), the environment:
  ``mkdocs.yml`` as written (an extension's settings can hide inside an object, such as the ``slugify``
  of ``toc``), the build code and ``constraints.txt`` (the versions of Python-Markdown, MkDocs, ...).

It sets ``content``, ``toc``, the title found in the HTML, the anchor ids the page has and the links to
anchors it holds (checked by MkDocs after every page is converted), and it logs warnings (a link to a
missing file). ``install`` wraps ``Page.render``: on a hit all of that is restored and the warnings
are logged again, so ``--strict`` fails as it would have. Notebook pages are rendered by
mkdocs-jupyter, which has its own cache. ``PYTORCH_NOTES_MARKDOWN_CACHE=0`` turns this off.
``tests/site/test_mdcache.py`` compares cached and uncached builds after edits of each kind of input.
"""

from __future__ import annotations

import functools
import logging
import os
from collections.abc import Mapping

from mkdocs.plugins import BasePlugin

from pytorch_notes.site import upstream
from pytorch_notes.site.cache import Store, TextDigests, digest


def plain(value):
    """``value`` as JSON-able plain data for a digest: mappings (MkDocs' ``Config`` included), sequences
    and sets recursively, a plugin by its settings, and any other object by its ``repr`` where that is
    stable (no memory address), else by its type's name (``mkdocs.yml`` itself is in every key)."""
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted((plain(v) for v in value), key=repr)
    if isinstance(value, BasePlugin):  # by its settings
        return {"plugin": type(value).__qualname__, "config": plain(value.config)}
    text = repr(value)
    if " at 0x" not in text and " object at " not in text:
        return f"{type(value).__qualname__}:{text}"
    return f"{type(value).__module__}.{type(value).__qualname__}:{getattr(value, '__qualname__', '')}"


def build_part(config, files) -> str:
    """The digest of what every page's conversion in this build shares (see the module docstring)."""
    listed = [[f.src_uri, f.dest_uri, f.url, str(getattr(f, "inclusion", ""))] for f in files]
    # not the navigation, nor ``extra`` (mkdocs-static-i18n rewrites it while pages are rendered): no
    # Markdown extension reads them; nor what differs between make build and make serve only (``strict``:
    # the warnings a conversion logs are stored and logged again; the server's address), so that the two
    # share every conversion
    settings = {k: plain(v) for k, v in config.items()
                if k not in ("site_dir", "docs_dir", "config_file_path", "nav", "extra", "strict", "dev_addr")}
    return digest([settings, listed])


def page_key(store: Store, build: str, page, prepared, digests: TextDigests) -> str:
    """The key in ``store`` of one page's conversion: ``build`` (``build_part``), its Markdown, its embeds'
    keys (``prepared``: its ``embed.PreparedPage``, or None for none) and its file."""
    name, embeds = (None, {}) if prepared is None else (prepared.page_name, prepared.keys)
    return store.key("markdown", [build, page.file.src_uri, page.file.url, digests(page.markdown), name,
                    sorted([list(k), digests(v)] for k, v in embeds.items())])


class _Recorder(logging.Handler):
    """Keeps what MkDocs' loggers say while one page is converted."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.said: list[list] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.levelno >= logging.INFO:
            self.said.append([record.name, record.levelno, record.getMessage()])


def toc_tokens(items) -> list[dict]:
    """``page.toc`` back as the tokens MkDocs' ``get_toc`` reads (name, id, level, children)."""
    return [{"name": i.title, "id": i.id, "level": i.level, "children": toc_tokens(i.children)} for i in items]


def _store(page, said: list, extras) -> dict:
    done = extras(page)  # upstream.patch_page_render: the title found in the HTML, its anchors, the links to anchors
    links = {f.src_uri: dict(anchors) for f, anchors in done["links"].items()}
    return {"content": page.content, "toc": toc_tokens(page.toc), "title": done["title"],
            "anchors": sorted(done["anchors"]), "links": links, "said": said}


def _restore(page, entry: dict, files, extras) -> bool:
    """Set what ``Page.render`` sets from ``entry``; False (nothing set) when a linked file is gone."""
    from mkdocs.structure.toc import get_toc  # noqa: PLC0415 - MkDocs is loaded by now

    links = {}
    for src_uri, anchors in entry["links"].items():
        target = files.get_file_from_path(src_uri)
        if target is None:
            return False
        links[target] = anchors
    page.content = entry["content"]
    page.toc = get_toc(entry["toc"])
    extras(page, {"title": entry["title"], "anchors": entry["anchors"], "links": links})  # what MkDocs' render sets
    for name, level, message in entry["said"]:
        logging.getLogger(name).log(level, message)
    return True


def install(store: Store, embeds=None, digests: TextDigests | None = None) -> None:
    """Make ``mkdocs.structure.pages.Page.render`` go through ``store`` (``on_config``), a page's conversion
    keyed with the embeds ``embeds`` (``embed.Embeds``) prepared for it (its ``page``). The method is wrapped again only
    when another owner (store, embeds, digests) installs it: the plugin's, once for all its builds."""
    from mkdocs.structure.pages import Page  # noqa: PLC0415

    owner = (store, embeds, digests)
    installed = getattr(Page.render, "_pytorch_notes_owner", None)
    if installed is not None and all(a is b for a, b in zip(installed, owner, strict=True)):
        return
    digests = TextDigests() if digests is None else digests
    builds: dict[int, tuple[object, str]] = {}  # id(files) -> (files, its build digest)
    # Patch: no event comes between on_page_markdown and the conversion, so nothing public can skip it
    # (upstream.patch_page_render names the upstream change that would remove it).
    upstream.patch_page_render(lambda render, extras: _cached_render(render, extras, owner, store, embeds,
                                                                      digests, builds))


def _cached_render(render, extras, owner, store, embeds, digests, builds):
    """``Page.render`` going through ``store`` (``install``); ``render``: MkDocs' own."""

    @functools.wraps(render)
    def cached_render(self, config, files) -> None:
        if os.environ.get("PYTORCH_NOTES_MARKDOWN_CACHE", "1") == "0" or self.markdown is None:
            return render(self, config, files)
        found = builds.get(id(files))
        if found is None or found[0] is not files:
            builds.clear()
            found = builds[id(files)] = (files, build_part(config, files))
        key = page_key(store, found[1], self, embeds.page if embeds is not None else None, digests)
        entry = store.get_json("markdown", key)
        if entry is not None and _restore(self, entry, files, extras):
            return None
        recorder = _Recorder()
        mkdocs_log = logging.getLogger("mkdocs")
        mkdocs_log.addHandler(recorder)
        try:
            render(self, config, files)
        finally:
            mkdocs_log.removeHandler(recorder)
        store.put_json("markdown", key, _store(self, recorder.said, extras))
        return None

    cached_render._pytorch_notes_owner = owner  # type: ignore[attr-defined]
    return cached_render
