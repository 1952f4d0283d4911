"""The navigation: each course section gets a group of its chapters' notebook pages, linked prev/next."""

from __future__ import annotations

from mkdocs.structure.nav import Section

from pytorch_notes.render.strings import ui
from pytorch_notes.site.course import Course
from pytorch_notes.site.notebooks import is_notebook_page
from pytorch_notes.site.urls import src_language


def add_notebook_sections(nav, files, course: Course):
    """Put each chapter's notebook page in the nav, inside the course section of the chapter (``course``:
    the build's ``course.Course`` of the language being built).

    Every top-level section (基础, 自动求导, ...) gets a last child "示例笔记本" / "Example
    notebooks" listing one notebook page per chapter of the section, in course order (the page is
    titled by its chapter, ``notebook_view.name_pages``). With ``navigation.tabs`` and
    ``navigation.prune`` a page carries only its own section's part of the nav, so the nav in a page
    does not grow with the whole course. Notebooks of pages outside any section go to a top-level
    section of the same name.

    MkDocs links prev/next before ``on_nav``, so pages added here had none: the notebook pages are
    linked to each other in nav order (course order); the chapters' own links stay as they were.
    """
    notebooks = {f.chapter.page: f.page for f in files.documentation_pages()
                 if is_notebook_page(getattr(f, "page", None))}
    if not notebooks:
        return nav
    label = ui(course.lang)["nb_nav_section"]

    def notebook_pages(pages) -> list:
        found = []
        for page in pages:
            src = page.file.src_uri
            if src.endswith(".md") and (nb := notebooks.pop(src_language(src)[1], None)) is not None:
                found.append(nb)
        return found

    def attach(children: list, parent: Section | None) -> Section:
        section = Section(label, children)
        section.parent = parent
        for child in children:
            child.parent = section
        return section

    loose = []
    for item in nav.items:
        if isinstance(item, Section):
            children = notebook_pages(_pages_under(item))
            if children:
                item.children.append(attach(children, item))
        else:
            loose.append(item)
    rest = notebook_pages([p for p in loose if hasattr(p, "file")])
    if rest:
        nav.items.append(attach(rest, None))
    _link_prev_next([p for p in _pages_under(Section("", nav.items)) if is_notebook_page(p)])
    return nav


def _link_prev_next(pages: list) -> None:
    """Each of ``pages`` gets the one before and after it as its previous and next page (the footer)."""
    for before, page, after in zip([None, *pages], pages, [*pages[1:], None], strict=False):
        page.previous_page, page.next_page = before, after


def _pages_under(section: Section) -> list:
    """The pages in ``section``, depth first, in nav order."""
    found = []
    for child in section.children:
        if isinstance(child, Section):
            found.extend(_pages_under(child))
        elif hasattr(child, "file"):
            found.append(child)
    return found
