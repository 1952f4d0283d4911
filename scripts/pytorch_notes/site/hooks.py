"""MkDocs hooks: the events the site reacts to, each delegating to the module of its concern.

Listed (through ``scripts/mkdocs_hooks.py``) under ``hooks:`` in mkdocs.yml. Nothing here executes an
example: everything reads the output store written by ``make capture``.

* ``on_config``: refuse to build a checkout with another checkout's package; cache search entries
  (``buildcache``).
* ``on_pre_build``, the first ``on_files``: the last build's files are set aside while MkDocs cleans the
  site, then put back to be written over (``sitedir``).
* ``on_files``: add each chapter's notebook page and the notebook downloads as generated files
  (``notebooks``; nothing is written into ``docs/``), the notebooks missing from mkdocs-jupyter's cache
  rendered ahead on every core (``prewarm``) and kept in its cache for every language
  (``notebook_view``); the ``.py`` downloads and figures (``embed``), and the zips of each chapter and
  of the course (``bundles``).
* ``on_page_markdown``: replace each ``::: example`` line with the rendered example (``embed``) and add
  the translation-lag banner (``lag``) and the links to the zips (``bundles``); fill the computation-times
  page and link each chapter's verification line to its rows there (``times``).
* ``on_page_content``: a notebook page's title, downloads, stylesheets and figures (``notebook_view``).
* ``on_nav``: each course section gets its chapters' notebook pages (``nav``).
* ``on_post_build``: first, the search entries computed beside the build in their places (``searchpool``);
  last, one search index per language (``search``), and the files of the last build that this one did
  not write again are removed (``sitedir``). ``on_files``, ``on_page_context`` and ``on_post_build``
  each combine handlers of different priorities (``mkdocs.plugins.CombinedEvent``).
* ``on_startup``, ``on_serve``, ``on_env``: under ``make serve``, dirty rebuilds that redo exactly what
  changed and write what a full build writes (``incremental``).
* ``on_config``, ``on_env``: a page whose Markdown or template context is unchanged since an earlier
  build is not converted (``mdcache``) or rendered (``rendercache``) again; ``on_post_build`` evicts
  unused entries.
"""

from __future__ import annotations

from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.plugins import CombinedEvent, event_priority

from pytorch_notes import filememo
from pytorch_notes.settings import LANGUAGES, REPO_ROOT
from pytorch_notes.site import (
    buildcache,
    bundles,
    coursemap,
    embed,
    incremental,
    lag,
    mdcache,
    nav,
    notebook_view,
    notebooks,
    prewarm,
    quiet,
    rendercache,
    search,
    searchpool,
    sitedir,
    times,
)
from pytorch_notes.site.common import page_language

NOTEBOOKS = notebooks.NotebookSite()  # the notebooks of the current build
PREWARM = prewarm.Prewarm()  # their conversion ahead, in a cold build
SITE = sitedir.SiteDir()  # the last build's files, written over (MkDocs would delete them first)


def on_config(config):
    """Add the embed syntax (``embed.EmbedExtension``) to every page's Markdown, and stop a build whose
    pipeline package belongs to another checkout than its ``mkdocs.yml``.

    The package is installed in editable mode from one checkout; a build of a copy of the repository
    (the benchmark, some tests) must import the copy's own package with ``PYTHONPATH=<copy>/scripts``,
    or it would silently read the other checkout's examples and records.
    """
    here = Path(config.config_file_path).resolve().parent
    if here != REPO_ROOT:
        raise PluginError(f"{config.config_file_path}: the pipeline package was imported from {REPO_ROOT}/scripts, "
                          f"not from this checkout; run with PYTHONPATH={here}/scripts")
    notebooks.refuse_leftovers(Path(config.docs_dir))
    config.markdown_extensions.append(embed.EmbedExtension())  # the ::: example syntax
    buildcache.install()  # reuse search entries whose inputs did not change
    mdcache.install()  # and Markdown conversions
    buildcache.theme_listing()  # the theme's 14,500 files listed once per process, not per build
    buildcache.persist_memos()  # parsed examples, loaded records, localized comments: kept across builds
    i18n = config.plugins.get("i18n")
    if not getattr(i18n, "building", False):  # the outer build (i18n builds the other languages inside it)
        incremental.start_build(config)
        embed.new_build()
        NOTEBOOKS.new_build()
        rendercache.CACHE.start()
        mdcache.CACHE.start()
    return config


def on_startup(command, dirty):
    """``mkdocs serve --dirty`` (``make serve``): rebuild only what changed (``incremental``); other
    packages' per-file INFO lines off (``quiet``)."""
    # again after the plugins are loaded: importing jieba (Material's search plugin) sets its logger to DEBUG
    quiet.quiet_other_packages()
    incremental.serve_dirty(bool(dirty) and command == "serve")
    searchpool.enable(command == "build")  # index uncached pages in a worker beside the build


def on_serve(server, config, builder):
    """Watch files with inotify instead of MkDocs' 0.5 s polling (``incremental.faster_watcher``), and
    have jieba ready for the first rebuild's search entries."""
    incremental.load_segmenter_in_background()
    return incremental.faster_watcher(server)


def on_pre_build(config) -> None:
    i18n = config.plugins.get("i18n")
    if not getattr(i18n, "building", False) and not incremental.STATE.dirty:  # make serve never cleans
        SITE.set_aside(config.site_dir)  # MkDocs' clean-up, next, finds nothing to delete
    cold = not (buildcache.CACHE_DIR / "search").is_dir()
    if not getattr(i18n, "building", False) and incremental.STATE.plan.full and cold:
        searchpool.start()  # a cold build: the search worker loads jieba while the notebooks are converted


@event_priority(1000)  # first: MkDocs has cleaned the site (or not, --dirty)
def restore_site(files, config):
    SITE.put_back()  # the last build's files, to be written over
    return files


@event_priority(-200)  # after mkdocs-static-i18n (-100)
def add_files(files, config):
    lang = page_language(config)
    NOTEBOOKS.add_files(files, config, lang)  # the chapter notebook pages and the .ipynb downloads
    notebook_view.keep_render_cache(NOTEBOOKS, config)  # every language's notebooks stay in mkdocs-jupyter's cache
    if not getattr(config.plugins.get("i18n"), "building", False) and incremental.STATE.plan.full:
        PREWARM.start(config, NOTEBOOKS.sources())  # a cold build renders the notebooks on every core, beside it
    embed.example_files(files, config, lang)
    chapter_of = NOTEBOOKS.chapter_of(lang, config)
    notebooks.stamp_py_downloads(files, config, lang, chapter_of)  # the .py downloads: localized, with a header
    bundles.add_bundles(files, config, lang)  # "download all": a zip per chapter and one of the course
    incremental.mark_for_rebuild(files, lang)  # under make serve: the pages this rebuild must redo
    times.rebuild_when_served(files)  # and the computation-times page, when an example or record did
    if incremental.STATE.dirty:  # make serve: a generated file with the same content is not rewritten
        files = sitedir.keep_unchanged_generated_files(files, config)
    return files


on_files = CombinedEvent(restore_site, add_files)


def on_env(env, config, files):
    buildcache.compiled_templates(env)  # Material's templates compiled once, not on every build
    rendercache.install(env, config)  # a page whose template context did not change is not rendered again
    incremental.restore_skipped_pages(files)  # titles of the pages a dirty rebuild did not read
    return env


def on_page_markdown(markdown: str, page, config, files) -> str:
    src = page.file.src_uri
    if not src.endswith(".md"):
        PREWARM.wait(page.file.abs_src_path)  # a notebook page: its conversion ahead is done
        return markdown
    lang = src.split("/", 1)[0] if src.split("/", 1)[0] in LANGUAGES else LANGUAGES[0]
    banner = lag.twin_lag_banner(page, lang)
    embed.prepare_embeds(markdown, page, config, lang, f"docs/{src}")
    markdown = times.fill_page(markdown, page, config, files, lang)  # the computation-times page's tables
    markdown = coursemap.fill_page(markdown, page, config, lang)  # the home page's course map
    head = "\n\n".join(b for b in (banner, times.page_verification(page, files, lang),
                                   bundles.chapter_link(page, config, lang)) if b)
    markdown = bundles.home_link(markdown, page, config, lang)  # the course zip's button on the home page
    return lag.insert_after_h1(markdown, head) if head else markdown


def on_page_content(html: str, page, config, files) -> str:
    return search.exclude_example_tab_labels(notebook_view.prepare_page(html, page, config))


@event_priority(1)  # just before Material's search plugin (0)
def before_search(context, page, config, nav):
    search.set_aside_unsearched_content(context, page)  # Material's scrub of a page it does not index
    return context


@event_priority(-1)  # just after it
def after_search(context, page, config, nav):
    search.put_back_content(context, page)
    incremental.remember_page(page)
    return context


on_page_context = CombinedEvent(before_search, after_search)


@event_priority(-200)
def on_nav(nav_, config, files):
    notebook_view.name_pages(nav_.pages + [f.page for f in files.documentation_pages() if f.page])
    return nav.add_notebook_sections(nav_, config, files)


@event_priority(100)  # before Material's search plugin (0) writes the index of this build
def resolve_search_entries(config) -> None:
    """The entries of the pages indexed beside the build (``searchpool``), in their places in Material's index."""
    plugin = config.plugins.get("material/search") or config.plugins.get("search")
    if plugin is not None and getattr(plugin, "search_index", None) is not None:
        searchpool.resolve(plugin.search_index)


@event_priority(-200)  # after i18n merged every language into one index
def finish_site(config) -> None:
    search.split_search_index(config)
    i18n = config.plugins.get("i18n")
    if not getattr(i18n, "building", False):  # the outer build: every language is written
        PREWARM.finish()
        quiet.report_notebook_conversions()
        SITE.remove_stale()
        embed.end_build()
        if incremental.STATE.plan.full:  # a dirty rebuild uses a few entries: it says nothing of the rest
            rendercache.CACHE.evict()
            mdcache.CACHE.evict()
        filememo.save()
        searchpool.shutdown()


on_post_build = CombinedEvent(resolve_search_entries, finish_site)


def on_build_error(error) -> None:
    PREWARM.finish(cancel=True)
    embed.end_build()
    SITE.forget(error)
    searchpool.shutdown()
