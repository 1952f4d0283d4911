"""The navigation: each course section gets a group of its chapters' notebook pages, linked prev/next."""

from __future__ import annotations

from pathlib import Path

from mkdocs.structure.nav import Section

from pytorch_notes.pages import PageError, page_outline
from pytorch_notes.site.common import page_language

NOTEBOOK_SECTION = {"zh": "示例笔记本", "en": "Example notebooks"}


def add_notebook_sections(nav, config, files):
    """Put each chapter's notebooks in the nav, inside the course section of the chapter.

    Every top-level section (基础, 自动求导, ...) gets a last child "示例笔记本" / "Example
    notebooks" holding one group per chapter, in course order, with that chapter's notebook
    pages. With ``navigation.tabs`` and ``navigation.prune`` a page then carries only its own
    section's part of the nav (a notebook page lists its own chapter's notebooks, the other
    chapters as one link each), so the nav in a page does not grow with the whole course and
    the build time stays linear in the number of pages (``make bench``, scaling). Notebooks
    of pages outside any section go to a top-level section of the same name.

    MkDocs links prev/next before ``on_nav``, so pages added here had none: the notebook pages are
    linked to each other in nav order (course order); the chapters' own links stay as they were.
    """
    lang = page_language(config)
    notebooks = {f.src_uri.split("notebooks/", 1)[1]: f for f in files.documentation_pages()
                 if f.src_uri.endswith(".ipynb")}
    if not notebooks:
        return nav
    label = NOTEBOOK_SECTION.get(lang, "Notebooks")

    def chapter_groups(pages) -> list[Section]:
        groups = []
        for page in pages:
            src = page.file.src_uri
            if not src.endswith(".md"):
                continue
            try:
                heading, embeds = page_outline(Path(page.file.abs_src_path), src)
            except PageError:
                continue
            rels = [e.rel for e in embeds]
            children = [f.page for rel in rels
                        if (f := notebooks.pop(rel[:-3] + ".ipynb", None)) is not None
                        and getattr(f, "page", None) is not None]
            if children:
                group = Section(heading or src, children)  # page.title is only set later
                for child in children:
                    child.parent = group
                groups.append(group)
        return groups

    def attach(groups: list[Section], parent: Section | None) -> Section:
        section = Section(label, groups)
        section.parent = parent
        for group in groups:
            group.parent = section
        return section

    loose = []
    for item in nav.items:
        if isinstance(item, Section):
            groups = chapter_groups(_pages_under(item))
            if groups:
                item.children.append(attach(groups, item))
        else:
            loose.append(item)
    rest = chapter_groups([p for p in loose if hasattr(p, "file")])
    if rest:
        nav.items.append(attach(rest, None))
    _link_prev_next([p for p in _pages_under(Section("", nav.items)) if p.file.src_uri.endswith(".ipynb")])
    return nav


def _link_prev_next(pages: list) -> None:
    """Each of ``pages`` gets the one before and after it as its previous and next page (the footer)."""
    for before, page, after in zip([None, *pages[:-1]], pages, [*pages[1:], None], strict=True):
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
