"""The notebook view: one notebook page per chapter and language, and the notebooks behind the ``.ipynb``
downloads (which ``downloads`` puts in the site).

A chapter (a page that embeds examples, ``course.Course.chapters``) gets, in each language, a notebook of all
its captured examples in page order (``render.notebook.build_chapter_notebook``: a header cell, then per
example a section headed by its file name, anchor from ``urls.section_headings``), which mkdocs-jupyter
renders as the page ``notebooks/<chapter>/``; the page is also downloadable as ``notebooks/<chapter>.ipynb``,
and each example's own notebook as ``notebooks/<chapter>/<name>.ipynb``.

Nothing is written into ``docs/``: the notebook pages are MkDocs files made in ``on_files``
(``File.generated``). They are backed by files in the checkout's ``.cache/pytorch-notes/notebooks/``
(``notebook_source``) rather than by content in memory because mkdocs-jupyter reads a notebook page from
its ``abs_src_path`` (its ``should_include``, its converter and its cache key all take the path). A
notebook whose inputs (the rendering code, the examples' sources and record files, language, title,
chapter URL, and the environment of the build's one cache: ``cache.Store``) are unchanged since it was
written is not built again (``_Index``). The page File is
``NotebookPage``, created after mkdocs-static-i18n re-created the Files (which drops mkdocs-jupyter's own
wrapper): it carries its destination, its language, the URLs of its twins in the other languages (the
language menu of its page, ``i18n.notebook_page_context``: mkdocs-static-i18n pairs only the pages it
found) and an edit link to the chapter's Markdown page.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, InclusionLevel

from pytorch_notes.atomic import write_atomic
from pytorch_notes.filememo import stat_key
from pytorch_notes.render.notebook import build_chapter_notebook, build_notebook, dumps
from pytorch_notes.settings import LANGUAGES
from pytorch_notes.site.cache import Store
from pytorch_notes.site.course import Chapter, Courses
from pytorch_notes.site.exampleindex import ExampleIndex
from pytorch_notes.site.later import placeholder_markdown
from pytorch_notes.site.project import Project
from pytorch_notes.site.urls import (
    absolute_page_url,
    chapter_ipynb_url,
    chapter_notebook_dest,
    chapter_notebook_src,
    chapter_notebook_url,
    chapter_slug,
    example_ipynb_url,
    lang_root,
    section_headings,
)
from pytorch_notes.store.layout import record_path


def refuse_leftovers(docs_dir: Path) -> None:
    """Stop the build (``PluginError``, at ``on_config``) when a ``docs/<lang>/notebooks/`` folder exists,
    as an older build of the site left it: its notebooks would be served as pages of their own beside the
    generated ones, which are never written into ``docs/``."""
    left = sorted(p for p in docs_dir.glob("*/notebooks") if p.is_dir())
    if left:
        raise PluginError(f"{left[0]} was written by an older build of the site (notebooks are generated now, "
                          f"nothing is written into docs/): delete it")


def notebook_source(cache_dir: Path, lang: str, page: str) -> Path:
    """The file behind the notebook page of chapter ``page`` in ``lang`` (the page's ``abs_src_path``), in
    the build cache ``cache_dir`` (``Project.cache_dir``)."""
    return cache_dir / "notebooks" / lang / f"{chapter_slug(page)}.ipynb"


def _example_source(cache_dir: Path, lang: str, rel: str) -> Path:
    return cache_dir / "notebooks" / lang / "examples" / (rel[: -len(".py")] + ".ipynb")


class NotebookPage(File):
    """A chapter notebook served as a page (mkdocs-jupyter renders it from ``abs_src_path``)."""

    chapter: Chapter
    lang: str
    twins: dict[str, str]  # language -> the URL of this chapter's notebook page in it (this one's included)

    def is_documentation_page(self) -> bool:
        return True

    def is_static_page(self) -> bool:
        return False


def is_notebook_page(page) -> bool:
    return isinstance(getattr(page, "file", None), NotebookPage)


class _Index:
    """Under which key of ``store`` (kind ``notebooks``: the notebook's inputs) each notebook file was last
    written (``<cache>/notebooks.json``), with the file's stat: an unchanged notebook is neither built nor
    read again. Entries of notebook files that no longer exist (checkouts gone that shared the cache: the
    tests' copies left 5,024 entries, 1.2 MB, for 736 files of this checkout) are dropped when it is read.
    Kept across the builds of one process while the file is as this index last read or wrote it
    (``stamp``): reading it was 4 % of a rebuild under ``make serve``."""

    def __init__(self, store: Store) -> None:
        self.store, self.path = store, store.root / "notebooks.json"
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            data = {}
        data = data if isinstance(data, dict) else {}
        self.entries = {k: v for k, v in data.items() if os.path.exists(k)}
        self.changed = len(self.entries) != len(data)  # saved without the entries dropped
        self.stamp = stat_key(self.path)

    def _entry(self, target: Path, inputs: list) -> list:
        return json.loads(json.dumps([self.store.key("notebooks", inputs), stat_key(target)]))

    def current(self, target: Path, inputs: list) -> bool:
        return self.entries.get(str(target)) == self._entry(target, inputs)

    def write(self, target: Path, inputs: list, text: str) -> None:
        if not target.exists() or target.read_text(encoding="utf-8") != text:
            write_atomic(target, text)
        self.entries[str(target)] = self._entry(target, inputs)
        self.changed = True

    def save(self) -> None:
        if self.changed:
            write_atomic(self.path, json.dumps(self.entries))
            self.changed = False
            self.stamp = stat_key(self.path)

    def current_file(self) -> bool:
        """Whether the file is as this index last read or wrote it (no other build wrote it since)."""
        return self.stamp == stat_key(self.path)


@dataclass(frozen=True)
class NotebookFile:
    """A notebook file a build wrote for one language: its site path (``src``), the file (``path``, in the
    build cache), and what it is: the notebook page of ``chapter``, the ``.ipynb`` download of one
    ``example`` (its id), or, with neither, the ``.ipynb`` download of a chapter."""

    src: str
    path: Path
    chapter: Chapter | None = None
    example: str | None = None


class NotebookSite:
    """The notebooks of one build (``on_files`` of each language) of the checkout ``project``, of the chapters
    of the build's ``courses``, from the records in ``examples`` (the build's ``exampleindex.ExampleIndex``),
    kept in ``store``. Kept by the plugin (``plugin.py``)."""

    def __init__(self, examples: ExampleIndex, project: Project, store: Store, courses: Courses) -> None:
        self.examples = examples
        self.project = project
        self.store = store
        self.courses = courses
        self.written: dict[str, list[NotebookFile]] = {}  # lang -> its notebook files
        self.index: _Index | None = None  # the notebook index as the last build left it

    def new_build(self) -> None:
        self.written = {}

    def write_all(self, config) -> None:
        """Write the notebooks of every language that changed (once per build, at the first ``on_files``),
        so that a cold build can render them all ahead (``prewarm``)."""
        if self.written:
            return
        index = self.index
        if index is None or index.store is not self.store or not index.current_file():
            index = self.index = _Index(self.store)
        for lang in LANGUAGES:
            self.written[lang] = self._write(config, lang, index)
        index.save()

    def _write(self, config, lang: str, index: _Index) -> list[NotebookFile]:
        """Write ``lang``'s notebooks; returns them, in course order."""
        out: list[NotebookFile] = []
        taken: set[str] = set()
        for chapter in self.courses.of(lang, config).chapters:
            url = absolute_page_url(config, lang, chapter.page)
            headings = section_headings(chapter.examples)
            sections = []
            for rel in chapter.examples:
                example, record = self.examples.shown_example(rel)
                if example is None or record is None:
                    continue  # never captured: its embed says so, and it has no section
                stored = record_path(rel, record.device_kind, self.project.examples_dir)
                inputs = [example.sha256, stat_key(stored), lang]
                sections.append((record, example, headings[rel][0], inputs))
                src = lang_root(lang) + example_ipynb_url(rel)
                if src not in taken:  # an example of two chapters: its notebook names the first
                    target = _example_source(self.project.cache_dir, lang, rel)
                    if not index.current(target, inputs + [chapter.title, url]):
                        index.write(target, inputs + [chapter.title, url],
                                    dumps(build_notebook(record, lang, chapter.title, url, example)))
                    out.append(NotebookFile(src, target, example=rel))
                    taken.add(src)
            if not sections:
                continue
            target = notebook_source(self.project.cache_dir, lang, chapter.page)
            inputs = [[s[3], s[2]] for s in sections] + [chapter.title, url]
            if not index.current(target, inputs):
                index.write(target, inputs, dumps(build_chapter_notebook(
                    lang, chapter.title, url, [s[:3] for s in sections])))
            out.append(NotebookFile(lang_root(lang) + chapter_ipynb_url(chapter.page), target))
            out.append(NotebookFile(chapter_notebook_src(lang, chapter.page), target, chapter))
        return out

    def add_files(self, files, config, lang: str, placeholders: set[str] | frozenset = frozenset()) -> None:
        """``on_files``: add ``lang``'s chapter notebook pages to ``files`` (their downloads: ``downloads``);
        a page whose notebook is in ``placeholders`` (``make serve``, its conversion still running:
        ``later``) is served from its placeholder's Markdown instead."""
        self.write_all(config)
        for f in self.written.get(lang, []):
            if f.chapter is not None:
                files.append(self._page(config, lang, f.chapter, f.src, f.path, str(f.path) in placeholders))
        self._pair_twins(files, lang)

    def downloads(self, lang: str) -> list[NotebookFile]:
        """The ``.ipynb`` downloads of ``lang`` this build wrote (chapters' and examples'), in course order."""
        return [f for f in self.written.get(lang, []) if f.chapter is None]

    def sources(self) -> list[Path]:
        """The chapter notebooks of this build, every language (the files behind the pages)."""
        return [f.path for written in self.written.values() for f in written if f.chapter]

    def _page(self, config, lang: str, chapter: Chapter, src: str, target: Path, later: bool = False) -> NotebookPage:
        if later:  # Markdown of its own: no abs_src_path, so mkdocs-jupyter leaves it to MkDocs
            page = NotebookPage.generated(config, src, content=placeholder_markdown(chapter, lang),
                                          inclusion=InclusionLevel.NOT_IN_NAV)
        else:
            page = NotebookPage.generated(config, src, abs_src_path=str(target), inclusion=InclusionLevel.NOT_IN_NAV)
        page.dest_uri = lang_root(lang) + chapter_notebook_dest(chapter.page)
        page.edit_uri = f"{lang}/{chapter.page}"  # the edit link opens the chapter page, which orders it
        page.chapter, page.lang = chapter, lang
        return page

    def _pair_twins(self, files, lang: str) -> None:
        """Each notebook page's ``twins``: its own URL and, for the language menu, the URL of the same
        chapter's notebook page in every other language that has one."""
        for f in files.documentation_pages():
            if not isinstance(f, NotebookPage):
                continue
            f.twins = {lang: f.url}
            for other in LANGUAGES:
                if other != lang and self._has_notebook(other, f.chapter.page):
                    f.twins[other] = lang_root(other) + chapter_notebook_url(f.chapter.page, f.use_directory_urls)

    def _has_notebook(self, lang: str, page: str) -> bool:
        return any(f.chapter is not None and f.chapter.page == page for f in self.written.get(lang, []))
