"""The computation-times page (``docs/<lang>/times.md``), derived from the records at build time.

* ``TimesPage.fill_page`` (``on_page_markdown``): the page's marker line, ``<!-- computation-times -->``
  (``render.times.MARKER``, alone on a line outside code blocks), becomes the tables of
  ``render.times.times_markdown``: every example of every chapter, chapters in course order (the nav),
  examples in the order their chapter's page embeds them. Nothing on the page is typed by hand, and the
  result is part of the page's Markdown, so ``mdcache`` keys its conversion by it.
* ``TimesPage.page_verification`` (``on_page_markdown``): a chapter's verification line
  (``render.html.verification_line``), ending with a link to the chapter's section of the times page of
  the same language (``#chapter-<chapter>``), relative to the page, so it works in both languages and
  with or without directory URLs (``make offline``).
* ``TimesPage.rebuild_when_served`` (``on_files``): under ``make serve``, a rebuild that redoes a notebook (an
  example or a record changed: ``incremental``), or follows a change of which examples a page embeds,
  redoes the times page too.

The tables sort in the browser with tablesort, vendored from npm in ``docs/assets/tablesort/`` (no
third-party request) and started by ``docs/assets/tablesort/init.js`` on ``.pn-times`` tables. Only a page
holding the tables loads those scripts: ``fill_page`` sets its ``meta.pn_sortable``, which
``docs/overrides/main.html`` reads (on every page they were three requests, 4.6 KB, for nothing).
"""

from __future__ import annotations

import functools
import os
import posixpath
from collections import Counter
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.utils import get_relative_url

from pytorch_notes.pages import PageError, all_embeds
from pytorch_notes.parse import ExampleError
from pytorch_notes.render.footer import verification_line
from pytorch_notes.render.templating import PACKAGE
from pytorch_notes.render.times import MARKER, ChapterTimes, chapter_anchor, example_row, times_markdown
from pytorch_notes.site.course import Course
from pytorch_notes.site.exampleindex import ExampleIndex
from pytorch_notes.site.markers import replace_marker_lines
from pytorch_notes.site.project import Project
from pytorch_notes.store.records import StoreError
from pytorch_notes.store.untrusted import terminal_text

TIMES_PAGE = "times.md"  # in each language's folder


def chapters(course: Course, files, page, examples: ExampleIndex) -> list[ChapterTimes]:
    """Every chapter of ``course`` with examples, in course order: one per folder of ``examples/``, in the
    order of its first embed, titled by the chapter page that first embeds one of its examples; its rows in
    ``course.examples`` order (then any example no page embeds), read through ``examples`` (the build's
    ``exampleindex.ExampleIndex``). Links are relative to ``page`` (the times page); none without ``files``.

    Raises:
        PluginError: a record of an example cannot be read (``StoreError``), naming the file.
    """
    lang_dir, here = posixpath.split(page.file.src_uri)  # "zh", "times.md"
    found: dict[str, ChapterTimes] = {}
    hrefs: dict[str, str] = {}  # example id -> its block on the first page that embeds it
    for chapter in course.chapters:
        target = files.get_file_from_path(posixpath.join(lang_dir, chapter.page)) if files is not None else None
        for e in course.page(chapter.page).embeds:
            name = e.rel.split("/", 1)[0]
            if name not in found:
                link = posixpath.relpath(chapter.page, posixpath.dirname(here) or ".")
                found[name] = ChapterTimes(name, chapter.title, link)
            if e.rel not in hrefs:
                hrefs[e.rel] = (get_relative_url(target.url, page.file.url) + "#" + e.anchor) if target else ""
    for rel in course.examples:  # after those the chapters embed, any example no page embeds (the tests forbid one)
        folder = rel.split("/", 1)[0]
        found.setdefault(folder, ChapterTimes(folder, folder, ""))
        href = hrefs.get(rel, "")
        try:
            example = examples.example(rel)
            fresh = examples.freshness(example)
        except (ExampleError, OSError):
            continue  # not published: downloads.Downloads logs it
        except StoreError as exc:
            raise PluginError(terminal_text(f"docs/{page.file.src_uri}: {exc}")) from None
        row = examples.keep(rel, ("row", course.lang, href),
                            functools.partial(example_row, example, fresh, course.lang, href))
        found[folder].rows.append(row)
    return list(found.values())


class TimesPage:
    """The times page of ``project`` across the builds of one process: which pages embedded which examples
    when it was last filled, and, under ``make serve``, whether the current rebuild redoes it; and the
    verification line of its chapters."""

    def __init__(self, project: Project, examples: ExampleIndex | None = None) -> None:
        self.project = project
        self.examples = examples or ExampleIndex(project.examples_dir)  # the plugin's: the examples read once
        self.filled_with: tuple | None = None  # the outline when a times page was last filled
        self.decided_for = None  # the rebuild's plan (``incremental.Plan``) that ``redo`` was decided for
        self.redo = False
        self.templates = PACKAGE  # the site's HTML templates (``templating.Templates``), set by each build
        self.last: dict[str, tuple] = {}  # lang -> (its chapters, templates, the tables made of them)

    def fill_page(self, markdown: str, page, files, course: Course) -> str:
        """``markdown`` with each marker line (outside fenced code blocks: ``markers``) replaced by the times
        tables of ``course``; a page that gets them is marked to load the sorting scripts
        (``page.meta["pn_sortable"]``)."""
        def tables() -> str:
            self.filled_with = _outline(self.project.docs_dir)
            found = chapters(course, files, page, self.examples)
            last = self.last.get(course.lang)
            # under make serve an example edit redoes this page (``rebuild_when_served``) though its rows rarely
            # change (a comment leaves the record fresh): the same rows give the same tables, and making them
            # was a seventh of such a rebuild (py-spy, 2026-11-29)
            if last is None or last[0] != found or last[1] is not self.templates:
                last = self.last[course.lang] = (found, self.templates,
                                                 times_markdown(found, course.lang, self.templates))
            return "\n" + last[2]

        markdown, filled = replace_marker_lines(markdown, MARKER, tables)
        if filled:
            page.meta["pn_sortable"] = True
        return markdown

    def rebuild_when_served(self, files, serve) -> None:
        """Under ``make serve`` (``serve``: ``incremental.Serve``): when this rebuild redoes a notebook (an
        example or a record changed) or a page embeds other examples than when the times page was last
        made, age the times page's HTML so that MkDocs redoes it too (``Serve.mark_for_rebuild`` does the
        same for the pages it plans). Editing a page's prose leaves it alone, so that such a rebuild does
        not fill and render it in both languages (a chapter retitled meanwhile shows there when it is
        next redone)."""
        if not serve.dirty or serve.plan.full:
            return
        if self.decided_for is not serve.plan:  # once per rebuild: the first language's page changes the outline
            self.decided_for = serve.plan
            self.redo = (any(p.endswith(".ipynb") for p in serve.plan.pages)
                         or _outline(self.project.docs_dir) != self.filled_with)
        if not self.redo:
            return
        for f in files.documentation_pages():
            if posixpath.basename(f.src_uri) == TIMES_PAGE and os.path.exists(f.abs_dest_path):
                os.utime(f.abs_dest_path, (0, 0))

    def page_verification(self, page, files, lang: str, prepared) -> str:
        """The verification line of ``page``, whose embeds are ``prepared`` (``embed.PreparedPage``), from the
        records they show (``examples``), linking to its chapter's rows on the times page: the chapter most of
        its embeds belong to (the first of equals)."""
        rels = list(dict.fromkeys(rel for rel, _ in prepared.keys))
        records = [r for rel in rels if (r := self.examples.shown_example(rel)[1]) is not None]
        url = ""
        target = _times_file(page, files) if records else None
        if target is not None:
            counts = Counter(rel.split("/", 1)[0] for rel in rels)
            chapter = max(counts, key=lambda c: (counts[c], -[r.split("/", 1)[0] for r in rels].index(c)))
            url = get_relative_url(target.url, page.file.url) + "#" + chapter_anchor(chapter)
        return verification_line(records, lang, url, self.templates)


def _times_file(page, files):
    """The times page of ``page``'s language, or None (a site without one)."""
    if files is None:
        return None
    return files.get_file_from_path(posixpath.join(posixpath.dirname(page.file.src_uri), TIMES_PAGE))


def _outline(docs_dir: Path) -> tuple | None:
    """Which page of ``docs_dir`` embeds which examples, in order (what orders the times page's rows); None
    when a page cannot be read (that page's build says why)."""
    try:
        return tuple((e.page, e.rel) for e in all_embeds(docs_dir))
    except (PageError, OSError):
        return None

