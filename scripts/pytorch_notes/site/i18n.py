"""Language details of the built pages: a 404 page per language, the permalinks' title, ``lang="zh-CN"``.

Called by the ``pytorch-notes`` plugin (``plugin.py``):

* ``localise`` (``on_post_page``, before mkdocs-static-i18n's): Chinese pages declare ``lang="zh-CN"``
  and their permalinks say 固定链接, not "Permanent link" (the toc extension's one title serves every
  language): ``html_lang`` and ``permalink`` of ``render/strings.py``.
* ``keep_404`` (``on_post_build``, before mkdocs-static-i18n's, which builds the other languages):
  mkdocs-static-i18n builds each language into the same folder, so the last language's ``404.html``
  would overwrite the others' and every reader would get the English one. Each language's 404 is kept,
  the default language's at ``404.html`` and the others' at ``<lang>/404.html``. A 404 page has no page
  of its own, so mkdocs-static-i18n gives the other languages' 404 the ``<link rel="alternate">`` targets
  of whichever page was built last; they get the default 404's instead (each language's home).
* ``language_menu`` (``on_files``), ``notebook_page_context`` (``on_page_context``) and
  ``notebook_head_links`` (``on_post_page``): the chapter notebook pages, made after mkdocs-static-i18n found
  the pages, get the page context it gives the others (its documented context variables) and a language
  menu leading to the same chapter's notebook page in each language. The menu is the page's own
  (``page.meta["pn_alternate"]``, read by the theme override ``partials/alternate.html``), not the attribute
  of ``config.extra`` where mkdocs-static-i18n keeps the menu of the pages it knows (undocumented; see
  ultrabug/mkdocs-static-i18n#297), and the head's ``<link rel="alternate">`` follow the menu.
"""

from __future__ import annotations

import copy
import re
from pathlib import Path

from pytorch_notes.render.strings import STRINGS
from pytorch_notes.settings import LANGUAGES
from pytorch_notes.site.common import page_language

DEFAULT = LANGUAGES[0]
TOC_PERMALINK = 'title="Permanent link"'  # the toc extension's one title of every language's permalinks

_ALTERNATE = re.compile(r'<link rel="alternate" href="([^"]*)" hreflang="([^"]*)">')


def same_alternates(html: str, model: str) -> str:
    """``html`` with each ``<link rel="alternate" hreflang=X>`` pointing where ``model``'s link for X points."""
    targets = {lang: href for href, lang in _ALTERNATE.findall(model)}
    return _ALTERNATE.sub(lambda m: f'<link rel="alternate" href="{targets.get(m[2], m[1])}" hreflang="{m[2]}">', html)


def language_menu(config) -> list[dict] | None:
    """A copy of Material's language menu (``extra.alternate``: name, link, lang) as mkdocs-static-i18n set
    it for this language's build (its documented reconfiguration of Material, in its ``on_config``), taken
    before any page changes it (``on_files``); None without a menu."""
    menu = config.extra.get("alternate")
    return copy.deepcopy(menu) if menu else None


def notebook_page_context(context: dict, page, config, menu: list[dict] | None) -> None:
    """``on_page_context`` of a chapter's notebook page (``notebooks.NotebookPage``), after mkdocs-static-i18n's:
    what that plugin gives the pages it found (the notebook pages are made after it) through documented
    names: its page context variables (``i18n_config``, ``i18n_file_locale``, ``i18n_page_locale``); and a
    language menu (``menu``, ``language_menu``) whose links lead to the same chapter's notebook page in each
    language that has one (``page.file.twins``), else to that language's home, as it does. The menu is
    ``page.meta["pn_alternate"]`` (Material's ``extra.alternate`` entries: name, link, lang), which the theme
    override ``partials/alternate.html`` shows instead of ``config.extra.alternate`` (still the last page's
    there); ``notebook_head_links`` makes the head's links follow it."""
    i18n = config.plugins.get("i18n")
    if i18n is None:
        return
    lang = page.file.lang
    context["i18n_config"] = i18n.config
    context["i18n_file_locale"] = context["i18n_page_locale"] = lang
    if menu is not None:
        page.meta["pn_alternate"] = [{**item, "link": page.file.twins.get(item.get("lang"), item.get("link"))}
                                     for item in menu]


_MENU_LINK = re.compile(r'<a href="([^"]*)" hreflang="([^"]*)" class="md-select__link"')


def notebook_head_links(html: str) -> str:
    """``html`` (a rendered notebook page) with each head ``<link rel="alternate" hreflang=X>`` pointing where
    the page's language menu links X (Material's head reads ``config.extra.alternate``, which is the last
    page's: ``notebook_page_context``). Both are Material's ``alt.link | url`` of one page, so the menu's
    hrefs are what the head would hold. A page without a menu is returned as it is."""
    menu = "".join(f'<link rel="alternate" href="{href}" hreflang="{lang}">'
                   for href, lang in _MENU_LINK.findall(html))
    return same_alternates(html, menu) if menu else html


def localise(html: str, lang: str) -> str:
    """``html`` with the ``<html lang>`` and the permalink titles of language ``lang``."""
    t = STRINGS.get(lang)
    if t is None:
        return html
    if t["html_lang"] != lang:
        html = html.replace(f'<html lang="{lang}"', f'<html lang="{t["html_lang"]}"', 1)
    permalink = f'title="{t["permalink"]}"'
    return html.replace(TOC_PERMALINK, permalink) if permalink != TOC_PERMALINK else html


def keep_404(config, saved: dict[str, str]) -> None:
    """Keep each language's 404 page (see the module's docstring); ``saved``: language -> its 404 page, kept
    by the plugin from the default language's build for the others'."""
    site = Path(config.site_dir)
    page = site / "404.html"
    if not page.exists():
        return
    lang = page_language(config)
    html = localise(page.read_text(encoding="utf-8"), lang)
    if lang == DEFAULT:
        saved[DEFAULT] = html  # the other languages' builds overwrite it next
        page.write_text(html, encoding="utf-8")
        return
    target = site / lang / "404.html"
    target.parent.mkdir(parents=True, exist_ok=True)
    if DEFAULT in saved:
        html = same_alternates(html, saved[DEFAULT])
    target.write_text(html, encoding="utf-8")
    if DEFAULT in saved:
        page.write_text(saved[DEFAULT], encoding="utf-8")
