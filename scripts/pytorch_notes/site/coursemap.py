"""The home page's course map, derived at build time: nav sections, chapter titles, one-line descriptions
and example counts, so that a new chapter (``make new-chapter``) appears on it with no other edit.

A line ``<!-- course-map -->`` alone in a page (outside fenced code) becomes, per section of mkdocs.yml's
``nav`` (the section's name translated by mkdocs-static-i18n's ``nav_translations`` for the page's
language), one list item per page:
``- [<the page's first heading>](<page>.md)：<its front matter description>。N 个示例`` (English:
``: <description>. N examples``). N counts the distinct examples the page embeds (``pages.find_embeds``);
a page with none shows no count. A chapter without a ``description`` is a build error naming the file.
"""

from __future__ import annotations

import re
from pathlib import Path

import yaml
from mkdocs.exceptions import PluginError

from pytorch_notes.filememo import file_memo
from pytorch_notes.pages import PageError, find_embeds, first_heading, page_title, split_front_matter
from pytorch_notes.render.strings import STRINGS, plural

MARKER = "<!-- course-map -->"
LEFT_OUT: tuple[str, ...] = ()  # nav sections not listed (none today: the about section is listed too)
_FENCE = re.compile(r"^\s*(`{3,}|~{3,})")


@file_memo  # every page, for the home page of each language, redone after every page edit under make serve
def page_facts(path: Path, name: str) -> tuple[str, str, int]:
    """(title, description, examples embedded) of a chapter page; the title is the one the nav shows
    (``pages.page_title``).

    Raises:
        PluginError: the page has no ``# Title`` or no ``description:`` in its front matter, or a
            malformed embed; the message names ``name`` (e.g. ``docs/zh/autograd.md``).
    """
    text = path.read_text(encoding="utf-8")
    front, body = split_front_matter(text)
    meta = (yaml.safe_load(front) or {}) if front else {}
    title = page_title(text) if first_heading(body) else None
    description = meta.get("description") if isinstance(meta, dict) else None
    if not title:
        raise PluginError(f"{name}: no `# Title` line; the course map lists the page by its first heading")
    if not isinstance(description, str) or not description.strip():
        raise PluginError(f"{name}:1: no `description:` in the front matter; the course map on the home page "
                          "shows it (one sentence, e.g. `description: 张量的创建与属性`)")
    try:
        count = len({e.rel for e in find_embeds(body, name)})
    except PageError as exc:
        raise PluginError(str(exc)) from None
    return title, description.strip().rstrip("。.").strip(), count


def sections(nav: list, translations: dict[str, str]) -> list[tuple[str, list[str]]]:
    """(section title in the page's language, [page.md, ...]) of each course section of ``nav``."""
    out = []
    for item in nav or []:
        if isinstance(item, dict):
            for name, pages in item.items():
                if name in LEFT_OUT or not isinstance(pages, list):
                    continue
                out.append((translations.get(name, name), [p for p in pages if isinstance(p, str)]))
    return out


def course_map(nav: list, translations: dict[str, str], lang_dir: Path, lang: str) -> str:
    """The course map's Markdown for the pages of ``lang_dir`` (``docs/<lang>``)."""
    t = STRINGS[lang]
    parts = []
    for title, pages in sections(nav, translations):
        items = []
        for src in pages:
            name, description, count = page_facts(lang_dir / src, f"docs/{lang}/{src}")
            counted = plural(t, "examples", count).format(n=count) if count else ""
            items.append(t["course_map_item"].format(title=name, src=src, description=description,
                                                     count=counted).rstrip())
        parts.append(f"### {title}\n\n" + "\n".join(items))
    return "\n\n".join(parts)


def _translations(config, lang: str) -> dict[str, str]:
    """mkdocs-static-i18n's ``nav_translations`` of ``lang`` (its plugin config: a public setting)."""
    i18n = config.plugins.get("i18n")
    for language in getattr(getattr(i18n, "config", None), "languages", None) or []:
        if language.get("locale") == lang:
            return dict(language.get("nav_translations") or {})
    return {}


def fill_page(markdown: str, page, config, lang: str) -> str:
    """``markdown`` with the marker line (outside fenced code) replaced by the course map."""
    if MARKER not in markdown:
        return markdown
    lang_dir = Path(page.file.abs_src_path).parent
    lines, fence = markdown.split("\n"), ""
    for i, line in enumerate(lines):
        if m := _FENCE.match(line):
            mark = m.group(1)
            fence = mark if not fence else ("" if mark[0] == fence[0] and len(mark) >= len(fence) else fence)
        elif not fence and line.strip() == MARKER:
            lines[i] = course_map(config.nav, _translations(config, lang), lang_dir, lang)
    return "\n".join(lines)
