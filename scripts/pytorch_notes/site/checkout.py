"""The objects that read and write the files of the checkout being built, and what its pages get.

``Checkout`` is made by the plugin's ``open_project`` for a ``project.Project`` (MkDocs keeps the
plugin's instance across the rebuilds of one ``mkdocs serve``, which builds one checkout): the one cache,
the build's examples and records, the page being embedded, each language's course, the notebooks, the
zips, the downloads and the computation-times page. ``new_build`` and ``end_build`` open and close their
per-build state once per outer build; ``page_markdown`` is what ``on_page_markdown`` makes of a Markdown
page: its embeds prepared (``embed``), the times tables and course map filled, the translation-lag
banner, verification line and zip link after its title, and the home page's buttons.
"""

from __future__ import annotations

from pathlib import Path

from pytorch_notes import filememo
from pytorch_notes.render import templating
from pytorch_notes.site import (
    book,
    bundles,
    cache,
    course,
    coursemap,
    downloads,
    embed,
    exampleindex,
    lag,
    notebook_styles,
    notebooks,
    times,
    zips,
)
from pytorch_notes.site.project import Project


class Checkout:
    """The objects of one checkout (see the module docstring), each handed what it reads."""

    def __init__(self, project: Project) -> None:
        self.project = project
        self.store = cache.Store.of(project)  # the one cache: pages, conversions, search entries, zips, ...
        self.examples = exampleindex.ExampleIndex(project.examples_dir)  # each example and its records, per build
        self.embeds = embed.Embeds(self.examples)  # the page being built
        self.courses = course.Courses(project.docs_dir, project.examples_dir)  # each language's, once per build
        self.notebooks = notebooks.NotebookSite(self.examples, project, self.store, self.courses)  # its notebooks
        self.bundles = bundles.Bundles(zips.ZipCache(self.store))  # the zips' contents, the links to them
        self.downloads = downloads.Downloads(self.examples, self.bundles)  # .py, figures, .ipynb, zips: the Files
        self.times = times.TimesPage(project, self.examples)  # the computation-times page
        # the code tokens the notebook stylesheet styles
        self.tokens = notebook_styles.TokenStyles(project.docs_dir / notebook_styles.STYLESHEET)

    def use_templates(self, custom_dir: str | Path | None) -> None:
        """The HTML templates of this build, ``<custom_dir>/pytorch-notes/`` before ``render/templates/``."""
        self.embeds.templates = self.times.templates = self.bundles.templates = templating.Templates.of(custom_dir)

    def new_build(self, serve, redo: set[str] | frozenset) -> None:
        """An outer build begins: the cache's environment digest read again, the memo of parsed examples,
        loaded records and localized comments kept under it, ``serve`` (``incremental.Serve``) told what
        changed (``redo``: the notebook views ``later`` had not finished), and the per-build state of the
        examples (under ``make serve``, only those that changed read again), downloads, courses and notebooks
        emptied."""
        self.store.new_build()
        filememo.persist(self.project.cache_dir / "memo", self.store.env.digest())
        serve.start_build(self.project, redo)
        self.examples.new_build(None if serve.plan.full else serve.plan.examples)
        self.downloads.new_build()
        self.courses.new_build()
        self.notebooks.new_build()

    def end_build(self, full: bool) -> None:
        """The outer build has ended: the examples' per-build state dropped, the cache's entries no key of
        this build used evicted when it was ``full`` (a dirty rebuild uses a few: it says nothing of the
        rest), the memo saved."""
        self.examples.end_build()
        if full:
            self.store.evict()
        filememo.save()

    def page_markdown(self, markdown: str, page, config, files, lang: str) -> str:
        """The Markdown of the page ``page`` (``docs/<lang>/...md``) as the site shows it; its embeds prepared
        once (``embed.PreparedPage``), rendered when it is converted.

        Raises:
            PluginError: a malformed embed or a missing or unreadable example (``embed.Embeds.prepare``).
        """
        banner = lag.twin_lag_banner(page, lang, self.project.docs_dir)
        prepared = self.embeds.prepare(markdown, page, config, lang, f"docs/{page.file.src_uri}")
        markdown = self.times.fill_page(markdown, page, files, self.courses.of(lang, config))  # the times tables
        markdown = coursemap.fill_page(markdown, self.courses.of(lang, config))  # the home page's course map
        head = "\n\n".join(b for b in (banner, self.times.page_verification(page, files, lang, prepared),
                                       self.bundles.chapter_link(page, config, lang)) if b)
        markdown = self.bundles.home_link(markdown, page, config, lang)  # the course zip's button on the home page
        markdown = book.home_link(markdown, page, self.project.root, lang, self.bundles.templates)  # and the PDF's
        return lag.insert_after_h1(markdown, head) if head else markdown
