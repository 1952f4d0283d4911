"""What the glue does through other packages' public interfaces instead of their internals (issue 43, item 1;
the internals left are counted by tests/site/test_upstream.py):

* the language being built is the theme's, which mkdocs-static-i18n sets per language (not its
  ``current_language``);
* the chapter notebook pages, made after mkdocs-static-i18n found the pages, get the page context and a
  language menu like those it gives the others (site/i18n.py): the context through its documented variables,
  not its ``locale`` and ``alternates``; the menu as the page's own meta, which the theme override
  ``partials/alternate.html`` shows, not as the undocumented attribute of ``config.extra`` where it keeps its
  pages' menus;
* mkdocs-jupyter's render cache is kept for every language with its documented ``cache`` option
  (site/notebook_view.py, ``RenderCache``), not its private set of used entries."""

from __future__ import annotations

from types import SimpleNamespace

from mkdocs.config.base import LegacyConfig
from pytorch_notes.site import i18n

MENU = [{"name": "中文", "link": "/", "lang": "zh"}, {"name": "English", "link": "/en/", "lang": "en"}]


def _config(languages=("zh", "en")):
    extra = LegacyConfig(())
    extra["alternate"] = [dict(item) for item in MENU]
    plugin = SimpleNamespace(config={"languages": [{"locale": lang} for lang in languages]})
    return SimpleNamespace(extra=extra, plugins={"i18n": plugin})


def _page(lang: str, twins: dict):
    return SimpleNamespace(file=SimpleNamespace(lang=lang, twins=twins), meta={})


def test_the_language_being_built_is_the_theme_language_i18n_sets():
    from pytorch_notes.site.common import page_language

    theme = {"language": "en"}  # what mkdocs-static-i18n's on_config sets for the English build
    assert page_language(SimpleNamespace(plugins={"i18n": object()}, theme=theme)) == "en"
    assert page_language(SimpleNamespace(plugins={"i18n": object()}, theme={})) == "zh"


def test_a_notebook_page_menu_leads_to_its_twin_in_each_language():
    config = _config()
    menu = i18n.language_menu(config)  # on_files, before any page changed it
    last = [{"name": "x", "link": "previous/page/", "lang": "zh"}]
    config.extra.alternate = last  # what mkdocs-static-i18n left: the menu of the last page it rendered
    context: dict = {}
    page = _page("en", {"en": "en/notebooks/autograd/", "zh": "notebooks/autograd/"})
    i18n.notebook_page_context(context, page, config, menu)
    assert page.meta["pn_alternate"] == [{"name": "中文", "link": "notebooks/autograd/", "lang": "zh"},
                                         {"name": "English", "link": "en/notebooks/autograd/", "lang": "en"}]
    assert config.extra.alternate is last and config.extra["alternate"] == MENU, "another package's state changed"
    assert context["i18n_page_locale"] == context["i18n_file_locale"] == "en"
    assert context["i18n_config"] is config.plugins["i18n"].config
    assert menu == MENU  # the copy is not changed by a page


def test_without_a_twin_the_menu_leads_to_the_language_home():
    config = _config()
    menu = i18n.language_menu(config)
    page = _page("zh", {"zh": "notebooks/new/"})
    i18n.notebook_page_context({}, page, config, menu)
    assert [item["link"] for item in page.meta["pn_alternate"]] == ["notebooks/new/", "/en/"]


def test_without_mkdocs_static_i18n_nothing_is_set():
    config = SimpleNamespace(extra=LegacyConfig(()), plugins={})
    context: dict = {}
    page = _page("zh", {"zh": "notebooks/a/"})
    i18n.notebook_page_context(context, page, config, None)
    assert context == {} and page.meta == {} and "alternate" not in config.extra


def test_a_notebook_pages_head_links_follow_its_menu():
    """The head's <link rel="alternate"> (Material's, from config.extra.alternate: the last page's) lead where
    the page's own menu leads; a page without a menu is left as it is."""
    head = ('<link rel="alternate" href="../../other/" hreflang="zh">'
            '<link rel="alternate" href="../../en/other/" hreflang="en">')
    menu = ('<a href="./" hreflang="zh" class="md-select__link">中文</a>'
            '<a href="../../en/notebooks/autograd/" hreflang="en" class="md-select__link">English</a>')
    assert i18n.notebook_head_links(head + menu) == (
        '<link rel="alternate" href="./" hreflang="zh">'
        '<link rel="alternate" href="../../en/notebooks/autograd/" hreflang="en">' + menu)
    assert i18n.notebook_head_links(head) == head


# mkdocs-jupyter's render cache, kept for every language through its documented ``cache`` option
# (site/notebook_view.py, RenderCache), not its private set of used entries


def _jupyter(tmp_path):
    from mkdocs_jupyter.plugin import Plugin

    plugin = Plugin()
    assert plugin.load_config({"cache_dir": str(tmp_path / "cache"), "execute": False}) == ([], [])
    return plugin, SimpleNamespace(plugins={"mkdocs-jupyter": plugin})


def _entries(tmp_path, plugin, names):
    from pytorch_notes.site import upstream

    sources, entries = [], []
    for name in names:
        source = tmp_path / f"{name}.ipynb"
        source.write_text('{"cells": []}', encoding="utf-8")
        entry = upstream.jupyter_cache_path(plugin.config, source)
        entry.parent.mkdir(parents=True, exist_ok=True)
        entry.write_text("{}", encoding="utf-8")
        sources.append(source)
        entries.append(entry)
    return sources, entries


def test_mkdocs_jupyter_evicts_nothing_while_held_and_the_plugin_evicts_the_stale(tmp_path):
    from pytorch_notes.site.notebook_view import RenderCache

    plugin, config = _jupyter(tmp_path)
    (zh, en), entries = _entries(tmp_path, plugin, ["zh", "en"])
    stale = tmp_path / "cache" / "stale.json"
    stale.write_text("{}", encoding="utf-8")
    plugin.on_pre_build(config)  # the en build: it renders nothing of zh's (nor, here, of its own)
    cache = RenderCache()
    cache.hold(config)
    plugin.on_post_build(config)  # mkdocs-jupyter's own eviction, held
    assert all(e.exists() for e in entries) and stale.exists()
    cache.release()
    assert plugin.config["cache"] is True
    assert RenderCache.evict(SimpleNamespace(sources=lambda: [zh, en]), config) == 1
    assert all(e.exists() for e in entries) and not stale.exists()
    plugin.on_post_build(config)  # not held: it removes what it did not render (why hold is needed)
    assert not any(e.exists() for e in entries)


def test_a_cache_turned_off_stays_off(tmp_path):
    from pytorch_notes.site.notebook_view import RenderCache

    plugin, config = _jupyter(tmp_path)
    plugin.config["cache"] = False
    cache = RenderCache()
    cache.hold(config)
    cache.release()
    assert plugin.config["cache"] is False
    assert RenderCache.evict(SimpleNamespace(sources=lambda: []), config) == 0
