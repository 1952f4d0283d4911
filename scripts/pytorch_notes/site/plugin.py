"""The ``pytorch-notes`` MkDocs plugin, the site's one entry into MkDocs (entry point in pyproject.toml).

Each event delegates to the module of its concern. Nothing here executes an example: everything reads
the output store written by ``make capture``.

* ``load_config``: ``defer_imports`` (``deferimports``) and quiet loggers (``quiet``), before MkDocs
  imports the plugins listed after this one; so it is listed first under ``plugins:`` in mkdocs.yml.
* ``on_config``: the checkout's folders from the configuration (``project``); add the embed syntax
  (``embed``) and highlight a code block once per build (``fences``); cache search entries (``buildcache``)
  and Markdown conversions (``mdcache``), with the compiled theme templates (``on_env``), all in the one
  cache (``cache``).
* ``on_pre_build``, the first ``on_files``: the last build's files are set aside while MkDocs cleans the
  site, then put back to be written over (``sitedir``); of ``docs/``, only pages and assets are published
  (``published``).
* ``on_files``: add each chapter's notebook page as a generated file (``notebooks``; nothing is written
  into ``docs/``), the notebooks missing from mkdocs-jupyter's cache rendered ahead on every core
  (``prewarm``; under ``make serve`` by a worker kept from ``on_serve``) and kept in its cache for every
  language (``notebook_view.RenderCache``: its ``on_post_build`` evicts nothing, the plugin's evicts once a
  build); every download, each once with its final content (``downloads``): the
  ``.ipynb`` notebooks, the ``.py`` of each example and its figures, the zips of each chapter and of the
  course (their contents: ``bundles``). Each language's course, once per build: ``course``.
* ``on_page_markdown``: the page's Markdown as ``checkout`` makes it: each ``::: example`` line replaced
  with the rendered example (``embed``), the translation-lag banner (``lag``), the links to the zips
  (``bundles``), the computation-times page filled and each chapter's verification line linked to its rows
  there (``times``).
* ``on_page_content``: a notebook page's title, downloads, stylesheets and figures (``notebook_view``).
* ``on_nav``: each course section gets its chapters' notebook pages (``nav``).
* ``on_env``: the templates in ``docs/overrides`` get the UI strings as ``pn_strings(lang)`` (``render.strings.ui``).
* ``on_post_page``, ``on_post_build``: a 404 page per language and localised UI strings (``i18n``).
* ``on_post_build``: last, one search index per language (``search``), and the files of the last build that this one did
  not write again are removed (``sitedir``).
* ``on_startup``, ``on_serve``, ``on_env``, ``on_shutdown``: under ``make serve``, dirty rebuilds that redo
  exactly what changed and write what a full build writes (``incremental``), files watched with inotify
  (``servewatch``), the notebook views converted after the server answers (``later``), and pages built as
  a local ``make build`` builds them (no ``site_url``), so that the two commands share every cache.
  Defining ``on_startup`` also makes MkDocs keep this plugin's instance across the rebuilds of
  ``mkdocs serve``.

State. What a build (or the builds of one process) keeps lives on the plugin's instance: objects made in
``__init__``, or in ``open_project`` for the checkout being built (``checkout.Checkout`` of its
``project.Project``: the one cache, the examples and records of a build, each language's course, the page
being built, ...), and passed to the functions that need them (what ``make serve`` learnt:
``incremental.Serve``; the caches' in-memory parts). No
module of ``site/`` holds mutable build state or the paths of a checkout.

Event order. MkDocs runs an event's handlers by priority (``event_priority``), those of equal priority in
the order the plugins are listed. This plugin is listed first, but its handlers are meant to follow the
other plugins' (search, mkdocs-static-i18n, offline, mkdocs-jupyter): a handler without a reason of its
own to run elsewhere takes ``AFTER_OTHERS``, after every other plugin's default handlers (0) and before
their late ones (-50, -100). Events with handlers at several priorities combine them (``CombinedEvent``);
``tests/site/test_plugin.py`` checks the whole order.
"""

from __future__ import annotations

from mkdocs.config import config_options
from mkdocs.config.base import Config
from mkdocs.plugins import BasePlugin, CombinedEvent, event_priority

from pytorch_notes.render.strings import ui
from pytorch_notes.site import (
    book,
    buildcache,
    cache,
    embed,
    fences,
    i18n,
    incremental,
    later,
    mdcache,
    nav,
    notebook_view,
    notebooks,
    prewarm,
    published,
    quiet,
    search,
    servewatch,
    sitedir,
    upstream,
)
from pytorch_notes.site.checkout import Checkout
from pytorch_notes.site.common import page_language
from pytorch_notes.site.deferimports import defer_import
from pytorch_notes.site.project import CODE, Project
from pytorch_notes.site.urls import src_language

AFTER_OTHERS = -1  # after the other plugins' default handlers (0), before their late ones (-50, -100)


class PyTorchNotesConfig(Config):
    # modules another plugin imports at load time but a build seldom uses (``deferimports``)
    defer_imports = config_options.ListOfItems(config_options.Type(str), default=[])


class PyTorchNotesPlugin(BasePlugin[PyTorchNotesConfig]):
    """The site's glue (see the module docstring). Its builds' state lives on this instance, in the objects
    made here and handed to the modules that need them; no module holds any. One instance per process:
    MkDocs keeps it across the rebuilds of ``mkdocs serve`` (it defines ``on_startup``), so its caches
    and what the last build learnt live on between them."""

    def __init__(self) -> None:
        super().__init__()
        self.project: Project | None = None  # the checkout being built (on_config, open_project)
        self.checkout: Checkout | None = None  # the objects that read and write its files (open_project)
        self.serve = incremental.Serve()  # make serve: what the last build learnt, what this one redoes
        self.prewarm = prewarm.Prewarm()  # the notebooks' conversion ahead, in a cold build
        self.site = sitedir.SiteDir()  # the last build's files, written over (MkDocs would delete them first)
        self.search_written = search.Written()  # each language's index as last written, by entry
        self.digests = cache.TextDigests()  # page texts hashed once for the caches' keys
        self.highlights = fences.Highlights()  # the code blocks highlighted in this build
        self.saved_404: dict[str, str] = {}  # language -> its 404 page (i18n.keep_404)
        self.watcher = servewatch.Watcher()  # make serve: saves seen by inotify
        self.later = later.Later()  # make serve: the notebook views converted after the server answers
        self.serving = False  # mkdocs serve (on_startup)
        # builds begun (on_config) and not ended (on_post_build, on_build_error): mkdocs-static-i18n runs the
        # other languages' builds inside the first one's on_post_build, so 2 while they run
        self.builds_open = 0
        self.language_menu: list[dict] | None = None  # Material's, as i18n set it for the language being built
        self.render_cache = notebook_view.RenderCache()  # mkdocs-jupyter's, kept for every language

    @property
    def inner(self) -> bool:
        """True in the builds mkdocs-static-i18n runs for the other languages inside the outer build."""
        return self.builds_open > 1

    def open_project(self, project: Project) -> None:
        """The objects that read and write the files of ``project`` (the first ``on_config``: MkDocs keeps
        this instance across the rebuilds of one ``mkdocs serve``, which builds one checkout)."""
        self.project = project
        self.checkout = Checkout(project)

    def load_config(self, options, config_file_path=None):
        """Defer ``defer_imports`` as soon as MkDocs has read this plugin's configuration, before it
        imports the plugins listed after this one."""
        errors, warnings = super().load_config(options, config_file_path)
        quiet.quiet_other_packages()  # before jieba's first import (Material's search plugin, loaded next)
        if not errors:
            for name in self.config.defer_imports:
                defer_import(name)
        return errors, warnings

    @event_priority(AFTER_OTHERS)
    def on_startup(self, *, command, dirty) -> None:
        """``mkdocs serve --dirty`` (``make serve``): rebuild only what changed (``incremental``); other
        packages' per-file INFO lines off (``quiet``)."""
        # again after the plugins are loaded: importing jieba (Material's search plugin) sets its logger to DEBUG
        quiet.quiet_other_packages()
        self.serve.serve_dirty(bool(dirty) and command == "serve")
        self.serving = command == "serve"

    @event_priority(AFTER_OTHERS)
    def on_serve(self, server, *, config, builder):
        """Watch the pages, examples and build code with inotify where MkDocs would poll every 0.5 s
        (``servewatch.Watcher``), and the folder that says the notebook views are ready (``later``); have
        jieba and a notebook converter (``prewarm``) ready for the first rebuild."""
        if self.serve.dirty:
            self.prewarm.serve()  # a worker for the notebooks of an edited example
        self.later.watch(server)
        servewatch.load_segmenter_in_background()
        return self.watcher.start(server, config, [self.project.examples_dir, CODE])

    @event_priority(AFTER_OTHERS)  # after search and offline, before mkdocs-static-i18n (-100)
    def on_config(self, config):
        """Take the checkout's folders from the configuration (``project.Project``: a build of any checkout
        reads its own pages, examples and records and keeps its own caches, wherever this package was
        imported from) and add the embed syntax (``embed.EmbedExtension``) to every page's Markdown."""
        upstream.check_versions()  # the other packages' internals used are those tested (upstream.TESTED)
        self.builds_open += 1
        self.render_cache.release()  # mkdocs-jupyter's cache on for this build's pages (RenderCache.hold)
        if (found := Project.from_config(config)) != self.project:
            self.open_project(found)
        if self.serving:  # what leaves the site, and every cache key, as make build has them (site_url "")
            config.site_url = ""  # mkdocs serve had set its own address
        checkout = self.checkout  # one object for every build (buildcache.install compares its owners by identity)
        notebooks.refuse_leftovers(checkout.project.docs_dir)
        config.markdown_extensions.append(embed.EmbedExtension(checkout.embeds))  # the ::: example syntax
        config.markdown_extensions.append(fences.SameCodeOnce(self.highlights))  # a device tab's code: once
        checkout.use_templates(config.theme.custom_dir)  # <custom_dir>/pytorch-notes/ before render/templates/
        # reuse search entries of unchanged inputs, and Markdown conversions
        buildcache.install(checkout.store, self.serve, self.digests)
        mdcache.install(checkout.store, checkout.embeds, self.digests)
        buildcache.theme_listing()  # the theme's thousands of files listed once per process, not per build
        if not self.inner:  # the outer build (i18n builds the other languages inside it)
            checkout.new_build(self.serve, self.later.redo() if self.serving else frozenset())
            self.highlights.clear()
        return config

    @event_priority(AFTER_OTHERS)  # after mkdocs-jupyter's
    def on_pre_build(self, *, config) -> None:
        if not self.inner and not self.serve.dirty:  # make serve never cleans
            self.site.set_aside(config.site_dir)  # MkDocs' clean-up, next, finds nothing to delete

    @event_priority(1000)  # first: MkDocs has cleaned the site (or not, --dirty)
    def _restore_site(self, files, *, config):
        self.site.put_back()  # the last build's files, to be written over
        return published.only_publishable(files, config.docs_dir)  # docs/ holds pages and assets, nothing else

    @event_priority(-200)  # after mkdocs-static-i18n (-100)
    def _add_files(self, files, *, config):
        lang, checkout = page_language(config), self.checkout
        if not self.inner:  # the notebooks it redoes: rendered ahead (a cold build's on every core) or later
            checkout.notebooks.write_all(config)
            redone = [s for s in checkout.notebooks.sources() if self.serve.plan.redoes(str(s))]
            self.later.convert_missing(config, redone, self.prewarm, self.serving)
        self.language_menu = i18n.language_menu(config)  # before a page changes it (notebook_page_context)
        # the chapter notebook pages (a placeholder for each still converting)
        checkout.notebooks.add_files(files, config, lang, self.later.placeholders)
        # the downloads: .ipynb, each example's .py (localized, with a header) and figures, the zips
        checkout.downloads.add(files, config, checkout.courses.of(lang, config), checkout.notebooks.downloads(lang))
        book.add_pdf(files, config, self.project.root, lang)  # the course as a PDF, once make pdf printed it
        self.serve.mark_for_rebuild(files, lang)  # under make serve: the pages this rebuild must redo
        checkout.times.rebuild_when_served(files, self.serve)  # and the times page, when an example or record did
        if self.serve.dirty:  # make serve: a generated file with the same content is not rewritten
            files = sitedir.keep_unchanged_generated_files(files, config)
        return files

    on_files = CombinedEvent(_restore_site, _add_files)

    @event_priority(-200)  # after mkdocs-static-i18n (-100)
    def on_nav(self, nav_, *, config, files):
        notebook_view.name_pages(nav_.pages + [f.page for f in files.documentation_pages() if f.page])
        return nav.add_notebook_sections(nav_, files, self.checkout.courses.of(page_language(config), config))

    @event_priority(AFTER_OTHERS)  # after mkdocs-static-i18n's
    def on_env(self, env, *, config, files):
        env.globals["pn_strings"] = ui  # the UI strings of a language, for docs/overrides (404, footer)
        self.serve.restore_skipped_pages(files)  # titles of the pages a dirty rebuild did not read
        # Material's templates compiled once, not per build
        return buildcache.compiled_templates(env, self.checkout.store)

    @event_priority(AFTER_OTHERS)  # after mkdocs-static-i18n's (50)
    def on_page_markdown(self, markdown: str, *, page, config, files) -> str:
        src = page.file.src_uri
        if not src.endswith(".md"):
            self.prewarm.wait(page.file.abs_src_path)  # a notebook page: its conversion ahead is done
            return markdown
        return self.checkout.page_markdown(markdown, page, config, files, src_language(src)[0])

    @event_priority(AFTER_OTHERS)
    def on_page_content(self, html: str, *, page, config, files) -> str:
        html = notebook_view.prepare_page(html, page, config, self.checkout.tokens, self.checkout.examples)
        return search.exclude_example_tab_labels(html)

    @event_priority(1)  # just before Material's search plugin (0), after mkdocs-static-i18n's (50)
    def _before_search(self, context, *, page, config, nav):
        if notebooks.is_notebook_page(page):  # the page context mkdocs-static-i18n gives the pages it found
            i18n.notebook_page_context(context, page, config, self.language_menu)
        search.set_aside_unsearched_content(context, page)  # Material's scrub of a page it does not index
        return context

    @event_priority(-1)  # just after it
    def _after_search(self, context, *, page, config, nav):
        search.put_back_content(context, page)
        self.serve.remember_page(page)
        return context

    on_page_context = CombinedEvent(_before_search, _after_search)

    @event_priority(AFTER_OTHERS)  # after mkdocs-jupyter's, before mkdocs-static-i18n's (-100)
    def on_post_page(self, output: str, *, page, config) -> str:
        output = i18n.localise(output, page_language(config))
        return i18n.notebook_head_links(output) if notebooks.is_notebook_page(page) else output

    @event_priority(100)  # before mkdocs-static-i18n's (-100), which builds the other languages
    def _keep_404(self, *, config) -> None:
        i18n.keep_404(config, self.saved_404)
        self.render_cache.hold(config)  # mkdocs-jupyter's on_post_build, next, removes no entry (RenderCache)

    @event_priority(-200)  # after i18n merged every language into one index
    def _finish_site(self, *, config) -> None:
        self.builds_open = max(self.builds_open - 1, 0)
        if self.builds_open:  # an inner per-language build ends; the outer one finishes the site
            return
        search.split_search_index(config, self.serve, self.search_written)  # every language is written
        self.render_cache.release()
        # the entries of no notebook of this build, any language
        self.render_cache.evict(self.checkout.notebooks, config)
        self.prewarm.finish()
        quiet.report_notebook_conversions()
        self.site.remove_stale()
        self.checkout.end_build(self.serve.plan.full)

    on_post_build = CombinedEvent(_keep_404, _finish_site)

    @event_priority(AFTER_OTHERS)
    def on_shutdown(self) -> None:
        """The server stops (Ctrl-C): its conversions dropped and its pool stopped (``prewarm``, ``later``)."""
        self.later.close()
        self.prewarm.close()

    @event_priority(AFTER_OTHERS)
    def on_build_error(self, *, error) -> None:
        self.builds_open = 0  # mkdocs-static-i18n does not catch an inner build's error: every build ends
        self.render_cache.release()
        self.prewarm.finish(cancel=True)
        if self.checkout is not None:
            self.checkout.examples.end_build()
        self.site.forget(error)
