"""The book's HTML: the built pages of one language, in nav order, as one document for Chromium to print.

Each page's ``<article>`` (what MkDocs and the pytorch-notes plugin made of it: prose, examples with their
device tabs, outputs, figures) goes into a ``<section class="pn-book-chapter">`` as it is; ``book.js``,
run in the browser, then makes the sections one document (ids, links, the tab shown first, the table of
contents). The head is the language's home page's: its stylesheets (Material's, the site's), ``<html
lang>`` (which picks the CJK font) and ``<body>`` attributes (the palette), with ``book.css`` after them.
Nothing is loaded from outside the site: the document's ``<base>`` is the site folder.
"""

from __future__ import annotations

import html
import posixpath
import re
from dataclasses import dataclass
from pathlib import Path

from mkdocs.utils.yaml import yaml_load

from pytorch_notes.render.strings import STRINGS
from pytorch_notes.settings import REPO_ROOT
from pytorch_notes.site.urls import lang_root

HERE = Path(__file__).resolve().parent
CSS = HERE / "book.css"
LEFT_OUT = "about.md"  # the nav section holding it (about, times, deploy) says how the site works: not the course

_ARTICLE = re.compile(r'<article class="md-content__inner md-typeset">(.*?)</article>', re.S)
_STYLESHEET = re.compile(r'<link rel="stylesheet" href="([^"]+)"')
_HTML_LANG = re.compile(r'<html lang="([^"]+)"')
_BODY = re.compile(r"<body([^>]*)>")
_DESCRIPTION = re.compile(r'<meta name="description" content="([^"]*)"')
_H1 = re.compile(r"<h1[^>]*>(.*?)</h1>", re.S)
_PERMALINK = re.compile(r'<a class="headerlink".*?</a>', re.S)


class BookError(RuntimeError):
    """The site lacks a page of the book, or ``mkdocs.yml`` has no nav: the message names what and where."""


@dataclass(frozen=True)
class Chapter:
    """One page of the book: ``src`` (``autograd.md``, under ``docs/<lang>/``), ``url`` (the built page,
    site-relative: ``autograd/``, ``en/autograd/``, ``""`` for the home page) and ``part`` (its nav
    section's title in the book's language; None for a page outside a section, the home page)."""

    src: str
    url: str
    part: str | None

    @property
    def anchor(self) -> str:
        """The chapter's id in the book: ``ch-autograd`` (``ch-index`` for the home page)."""
        return "ch-" + re.sub(r"[^A-Za-z0-9_-]", "-", self.src[: -len(".md")])


def book_chapters(lang: str, config_file: Path = REPO_ROOT / "mkdocs.yml",
                  only: list[str] | None = None) -> list[Chapter]:
    """The pages of the book in ``lang``, in the nav order of ``config_file``: every page of the nav but
    the section holding ``LEFT_OUT``; ``only`` (page sources such as ``["autograd.md"]``) keeps those.

    Raises:
        BookError: ``config_file`` has no nav.
    """
    with open(config_file, "rb") as f:
        config = yaml_load(f)
    nav = config.get("nav") or []
    if not nav:
        raise BookError(f"{config_file}: no nav, so no order for the book's pages")
    names: dict[str, str] = {}
    for plugin in config.get("plugins") or []:
        if isinstance(plugin, dict) and isinstance(plugin.get("i18n"), dict):
            for language in plugin["i18n"].get("languages") or []:
                if language.get("locale") == lang:
                    names = dict(language.get("nav_translations") or {})
    found: list[Chapter] = []

    def add(src: str, part: str | None) -> None:
        if src.endswith(".md") and (only is None or src in only):
            stem = src[: -len(".md")]
            url = "" if stem == "index" else (stem[: -len("index")] if stem.endswith("/index") else stem + "/")
            found.append(Chapter(src, lang_root(lang) + url, part))

    for item in nav:
        if isinstance(item, str):
            add(item, None)
        elif isinstance(item, dict):
            for title, pages in item.items():
                if isinstance(pages, str):
                    add(pages, None)
                elif isinstance(pages, list) and LEFT_OUT not in pages:
                    for page in pages:
                        if isinstance(page, str):
                            add(page, names.get(title, title))
    return found


def _built_page(site: Path, url: str) -> str:
    path = site / url / "index.html"
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise BookError(f"{path} is missing: the book is printed from a built site (make build)") from None


def _web(site_url: str, lang: str) -> str:
    if not site_url:
        return ""
    home = site_url.rstrip("/") + "/" + lang_root(lang)
    text = STRINGS[lang]["bundle_readme_site"].format(url=home)
    return f'<p class="pn-book-built"><a href="{html.escape(home)}">{html.escape(text)}</a></p>'


def book_html(site: Path, lang: str, chapters: list[Chapter], built: str, site_url: str = "") -> str:
    """The book's HTML for ``chapters`` of the site built in ``site`` (a folder), before ``book.js``: the
    cover (the home page's title and description, then ``built``: when and from what it was made, and the
    address of the site on the web when ``site_url`` is given), an empty table of contents, then each
    part's title and chapter. Its ``<base>`` is ``site`` as a
    ``file://`` URL, so it must be opened from a file (``printer``), not with ``set_content``.

    Raises:
        BookError: a page of ``chapters`` or the home page of ``lang`` is not in ``site``.
    """
    home = _built_page(site, lang_root(lang))
    head_lang = _HTML_LANG.search(home)
    body = _BODY.search(home)
    description = _DESCRIPTION.search(home)
    title = _H1.search(home)
    styles = "".join(f'<link rel="stylesheet" href="{html.escape(posixpath.normpath(lang_root(lang) + href))}">'
                     for href in _STYLESHEET.findall(home))
    name = re.sub(r"<[^>]+>", "", _PERMALINK.sub("", title.group(1))) if title else ""
    t = STRINGS[lang]
    out = [
        "<!doctype html>",
        f'<html lang="{head_lang.group(1) if head_lang else lang}"><head><meta charset="utf-8">',
        f'<base href="{html.escape(site.resolve().as_uri())}/">',
        f"<title>{name}</title>", styles, f"<style>{CSS.read_text(encoding='utf-8')}</style></head>",
        f"<body{body.group(1) if body else ''}>",
        '<div class="md-container"><main class="md-main"><div class="md-main__inner md-grid"><div class="md-content">',
        '<article class="md-content__inner md-typeset pn-book">',
        f'<section class="pn-book-cover"><h1>{name}</h1>',
        f"<p>{description.group(1) if description else ''}</p>",
        f'<p class="pn-book-built">{html.escape(built)}</p>{_web(site_url, lang)}</section>',
        f'<nav class="pn-book-toc"><h1 id="pn-book-toc">{html.escape(t["book_toc"])}</h1><ol></ol></nav>',
    ]
    part = None
    for n, chapter in enumerate(chapters):
        if chapter.part is not None and chapter.part != part:
            out.append(f'<section class="pn-book-part"><h1 id="part-{n}">{html.escape(chapter.part)}</h1></section>')
        part = chapter.part
        article = _ARTICLE.search(_built_page(site, chapter.url))
        if article is None:
            raise BookError(f"{site / chapter.url / 'index.html'} has no <article>: not a page of this site's theme")
        out.append(f'<section class="pn-book-chapter" id="{chapter.anchor}" data-url="{html.escape(chapter.url)}" '
                   f'data-depth="{0 if chapter.part is None else 1}">{article.group(1)}</section>')
    out.append("</article></div></div></main></div></body></html>")
    return "\n".join(out)
