"""The home page's course map, derived at build time: nav sections, chapter titles, one-line descriptions
and example counts, so that a new chapter (``make new-chapter``) appears on it with no other edit.

A line ``<!-- course-map -->`` alone in a page (outside fenced code: ``markers``) becomes, per section of
mkdocs.yml's ``nav`` (its title in the page's language: ``course.Section``), one list item per page:
``- [<the page's nav title>](<page>.md)：<its front matter description>。N 个示例`` (English:
``: <description>. N examples``). Sections, titles and counts (the distinct examples the page embeds)
are the build's ``course.Course``; a page with none shows no count. A chapter without a ``description``
or a first heading is a build error naming the file.
"""

from __future__ import annotations

from pathlib import Path

import yaml
from mkdocs.exceptions import PluginError

from pytorch_notes.filememo import file_memo
from pytorch_notes.pages import first_heading, split_front_matter
from pytorch_notes.render.strings import STRINGS, plural
from pytorch_notes.site.course import Course
from pytorch_notes.site.markers import replace_marker_lines

MARKER = "<!-- course-map -->"


@file_memo  # every page, for the home page of each language, redone after every page edit under make serve
def page_description(path: Path, name: str) -> str:
    """The front matter's ``description`` of a chapter page, without its final full stop.

    Raises:
        PluginError: the page has no ``# Title`` line or no ``description:`` in its front matter; the
            message names ``name`` (e.g. ``docs/zh/autograd.md``).
    """
    front, body = split_front_matter(path.read_text(encoding="utf-8"))
    meta = (yaml.safe_load(front) or {}) if front else {}
    description = meta.get("description") if isinstance(meta, dict) else None
    if not first_heading(body):
        raise PluginError(f"{name}: no `# Title` line; the course map lists the page by its first heading")
    if not isinstance(description, str) or not description.strip():
        raise PluginError(f"{name}:1: no `description:` in the front matter; the course map on the home page "
                          "shows it (one sentence, e.g. `description: 张量的创建与属性`)")
    return description.strip().rstrip("。.").strip()


def course_map(course: Course) -> str:
    """The course map's Markdown for ``course``.

    Raises:
        PluginError: a listed page is missing, has a malformed embed, no first heading or no description.
    """
    lang, t = course.lang, STRINGS[course.lang]
    parts = []
    for section in course.sections:
        items = []
        for src in section.pages:
            name = f"docs/{lang}/{src}"
            page = course.page(src)
            if page is None:
                raise PluginError(f"{name}: listed in mkdocs.yml's nav, but there is no such page")
            if page.error:
                raise PluginError(page.error)
            description = page_description(page.path, name)
            count = len(chapter.examples) if (chapter := course.chapter(src)) else 0
            counted = plural(t, "examples", count).format(n=count) if count else ""
            items.append(t["course_map_item"].format(title=page.title, src=src, description=description,
                                                     count=counted).rstrip())
        parts.append(f"### {section.title}\n\n" + "\n".join(items))
    return "\n\n".join(parts)


def fill_page(markdown: str, course: Course) -> str:
    """``markdown`` with the marker line (outside fenced code) replaced by the course map of ``course``."""
    return replace_marker_lines(markdown, MARKER, lambda: course_map(course))[0]
