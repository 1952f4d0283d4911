"""Every download of the site, each put in the site once per language with its final content
(``Downloads.add``, from ``on_files``): the ``.py`` of each example, its figures, the ``.ipynb`` notebooks
and the zips. Nothing else creates a download's ``File``, and nothing changes one afterwards.

* ``.py``: ``urls.py_url`` (``examples/<chapter>/<name>.py``, ``<lang>/examples/…`` for a language other
  than the default): the example with its comments in the language (``comments.localize``) under a comment
  header (``render.notebook.py_download``): where the outputs the site shows were captured, and the chapter
  page of that language (absolute URL: the first chapter page, in course order, that embeds it) that
  explains it. The file under ``examples/`` is not changed. Only an example that ``parse_example`` accepts
  is published: a plain UTF-8 file inside examples/, never a symbolic link (whose target could be any file
  of the building machine), a folder or a malformed script. Each refused one is logged as an error,
  ``file:line: why``, once per build, so that ``mkdocs build --strict`` fails naming it (an embed of it
  also stops the build, in ``embed.Embeds.prepare``).
* figures: the PNG files of every record of a published example (``render.html.figure_assets``), at the
  site's root, shared by both languages.
* ``.ipynb``: the chapters' and the examples' notebooks ``notebooks.NotebookSite`` wrote.
* zips: a chapter's and the course's (``bundles``), from the texts of the ``.py`` downloads above and the
  examples' notebook files, in memory (never found again among the site's files).
"""

from __future__ import annotations

from mkdocs.structure.files import File

from pytorch_notes.parse import ExampleError, discover_examples, discovered_id
from pytorch_notes.render.notebook import py_download
from pytorch_notes.site.bundles import Bundles
from pytorch_notes.site.common import log
from pytorch_notes.site.course import Course
from pytorch_notes.site.exampleindex import ExampleIndex
from pytorch_notes.site.notebooks import NotebookFile
from pytorch_notes.site.urls import absolute_page_url, py_url
from pytorch_notes.store.records import StoreError
from pytorch_notes.store.untrusted import terminal_text


class Downloads:
    """The downloads of the plugin's builds, from the examples and records in ``examples`` (the build's
    ``exampleindex.ExampleIndex``), the zips' contents from ``bundles``; the ``.py`` texts kept across builds
    while their inputs are the same objects (``texts``)."""

    def __init__(self, examples: ExampleIndex, bundles: Bundles) -> None:
        self.examples = examples
        self.bundles = bundles
        self.reported: set[str] = set()  # the refused examples logged in this build
        self.texts: dict[tuple, tuple[object, str]] = {}  # ``_py_text``'s, kept across builds

    def new_build(self) -> None:
        """A build starts (outer ``on_config``): a refused example is logged again."""
        self.reported.clear()

    def add(self, files, config, course: Course, notebooks: list[NotebookFile]) -> None:
        """``on_files`` of the language of ``course`` (the build's ``course.Course``): add its ``.ipynb``
        downloads (``notebooks``: ``NotebookSite.downloads``), each published example's ``.py`` and figures,
        and the zips to ``files`` (module docstring)."""
        for f in notebooks:
            files.append(File.generated(config, f.src, abs_src_path=str(f.path)))
        lang = course.lang
        texts: dict[str, str] = {}  # example -> its .py download's text, for the zips
        for path in discover_examples(self.examples.examples_dir):
            try:
                example = self.examples.example(discovered_id(path))
            except ExampleError as exc:
                if str(exc) not in self.reported:
                    self.reported.add(str(exc))
                    log.error(terminal_text(f"{exc} (not published)"))
                continue
            try:
                fresh = self.examples.freshness(example)
            except StoreError:
                fresh = None  # reported with page and line by on_page_markdown
            chapter = course.chapter_of(example.rel)
            urls = [u for u in [absolute_page_url(config, lang, chapter.page) if chapter else ""] if u]
            texts[example.rel] = self._py_text(example.text, fresh.record if fresh else None, urls, lang)
            files.append(File.generated(config, py_url(lang, example.rel), content=texts[example.rel]))
            for dev in fresh.devices.values() if fresh else ():
                for asset in self.examples.figures(dev.record).values():
                    files.append(File.generated(config, asset.path, content=asset.data))
        examples = {f.example: f.path for f in notebooks if f.example}
        for url, data in self.bundles.archives(config, course, texts, examples):
            files.append(File.generated(config, url, content=data))

    def _py_text(self, source: str, record, urls: list[str], lang: str) -> str:
        """``render.notebook.py_download``, kept while its inputs are the same objects: every build (both
        languages, every rebuild under ``make serve``) publishes all the downloads again."""
        key = (source, id(record), tuple(urls), lang)
        found = self.texts.get(key)
        if found is None or found[0] is not record:
            if len(self.texts) > 2048:
                self.texts.clear()
            found = self.texts[key] = (record, py_download(source, record, urls, lang))  # holds the record
        return found[1]
