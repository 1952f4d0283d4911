"""Dirty rebuilds under ``make serve`` (``mkdocs serve --dirty``) that write what a full build writes.

MkDocs' ``--dirty`` mode re-renders only the pages whose Markdown is newer than their HTML. On its own
that is wrong here in four ways: a page that embeds an example does not change when the example or its
record does; a page's translation-lag banner depends on its twin in the other language; the pages it
skips are never read, so their titles are missing from every rebuilt page's navigation; and Material's
search index then holds only the rebuilt pages. ``Serve``, held by the plugin across the rebuilds of one
serve process, keeps what the previous build learnt and fixes each:

* ``Serve.decide`` (from ``on_config`` of the outer build, ``start_build``) compares every input's
  ``stat`` with the previous build: pages, examples, records, and the files that shape every page
  (``mkdocs.yml``, the theme override and assets, the twins file, the pipeline code). It returns the
  pages to rebuild: an edited page and its twin; every page and notebook embedding an edited example or
  a re-captured record; and everything when a shared input changed, a page's first heading changed (the
  navigation shows it), or a page or notebook appeared or vanished.
* ``Serve.mark_for_rebuild`` (from ``on_files``, per language) ages those pages' HTML so that MkDocs rebuilds them.
* ``Serve.restore_skipped_pages`` (from ``on_env``) gives each skipped page the title and meta it had.
* ``Serve.serve_index`` (from ``on_post_build``) replaces the rebuilt pages' entries in the previous
  per-language search index, in place, instead of writing Material's partial one.

A full build (``make build``, the first build of ``make serve``) records the state and changes nothing.
``tests/site/test_incremental.py`` edits a page, an example and a record and compares the served site with a
full build of the same tree, file by file. The live-reload server itself: ``servewatch``.
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass, field
from pathlib import Path

from pytorch_notes.filememo import stat_key
from pytorch_notes.pages import PageError, all_embeds, page_outline, page_title
from pytorch_notes.settings import LANGUAGES
from pytorch_notes.site.common import log
from pytorch_notes.site.notebooks import notebook_source
from pytorch_notes.site.project import CODE, Project
from pytorch_notes.site.urls import lang_of_url, lang_root, src_language
from pytorch_notes.store.layout import example_of

SHARED = ("mkdocs.yml", "docs/twins.json", "docs/overrides", "docs/assets", "scripts")  # shape every page
# the inputs are named as in this repository (``_inputs``), whatever the checkout's folders are called


@dataclass
class Plan:
    """What one rebuild must redo. ``pages``: absolute source paths of the pages to re-render
    (Markdown pages and notebooks), and ``examples``: the examples whose file or records changed (the
    others are not read again, ``embed.Embeds.new_build``), both meaningful only when ``full`` is False."""

    full: bool
    reason: str
    pages: set[str] = field(default_factory=set)
    examples: set[str] = field(default_factory=set)

    def redoes(self, source: str) -> bool:
        """Whether this rebuild renders the page or notebook at ``source`` (absolute path) again."""
        return self.full or source in self.pages


@dataclass
class Serve:
    """What the ``make serve`` process learnt in the previous build (see the module docstring), kept by
    the plugin, whose instance lives across rebuilds; each method is called from the event it names."""

    dirty: bool = False                  # mkdocs serve --dirty (on_startup)
    stamps: dict[str, tuple] | None = None  # input file -> stat key at the previous build
    headings: dict[str, str | None] = field(default_factory=dict)  # page source -> its first heading
    doc_files: dict[str, set[str]] = field(default_factory=dict)   # language -> its pages' sources
    titles: dict[str, tuple[str | None, dict]] = field(default_factory=dict)  # page source -> (title, meta)
    search: dict[str, dict] = field(default_factory=dict)  # language -> the last index written
    entries: dict[str, list] = field(default_factory=dict)  # this build: page url -> its search entries
    plan: Plan = field(default_factory=lambda: Plan(True, "first build"))

    def serve_dirty(self, dirty: bool) -> None:
        """Called from ``on_startup``: ``make serve`` rebuilds incrementally (``mkdocs serve --dirty``)."""
        self.dirty = dirty
        build_log = logging.getLogger("mkdocs.commands.build")
        if dirty and not any(isinstance(f, _NotInaccurate) for f in build_log.filters):
            build_log.addFilter(_NotInaccurate())

    def start_build(self, project: Project, also: set[str] | frozenset = frozenset()) -> None:
        """Plan this build of ``project`` and reset what it collects (``on_config`` of the outer build);
        ``also``: pages (absolute source paths) a dirty rebuild redoes besides (the notebook views that
        were served as placeholders, ``later.Later.redo``)."""
        self.entries = {}
        self.plan = self.decide(self.dirty, project)
        if also and not self.plan.full:
            self.plan.pages |= also
            self.plan.reason += f"; {len(also)} notebook view(s) that were being prepared"
        if self.dirty:
            log.info(f"rebuild: {'everything' if self.plan.full else f'{len(self.plan.pages)} page(s)'} "
                     f"({self.plan.reason})")

    def decide(self, dirty: bool, project: Project) -> Plan:
        """Decide what this build of ``project`` redoes (see the module docstring) and remember the inputs for
        the next one. Outside ``make serve`` (``dirty`` False) every build is full and nothing is recorded."""
        if not dirty:
            return Plan(True, "full build")
        stamps, headings = _inputs(project), _headings(project.docs_dir)
        before, self.stamps = self.stamps, stamps
        old_headings, self.headings = self.headings, headings
        if before is None:
            return Plan(True, "full build")
        changed = {k for k in stamps.keys() | before.keys() if stamps.get(k) != before.get(k)}
        if set(stamps) != set(before):
            return Plan(True, "a file appeared or vanished: " + ", ".join(sorted(set(stamps) ^ set(before))[:3]))
        if shared := sorted(k for k in changed if k.startswith(SHARED)):
            return Plan(True, f"{shared[0]} changed")
        if moved := sorted(k for k in headings if headings[k] != old_headings.get(k)):
            return Plan(True, f"the first heading of {moved[0]} changed")
        pages: set[str] = set()
        examples = {example_of(rel.removeprefix("examples/")) for rel in changed if rel.startswith("examples/")}
        docs = project.docs_dir
        embeds = all_embeds(docs)
        for rel in changed:
            if rel.startswith("docs/") and rel.endswith(".md"):
                _, _lang, page = rel.split("/", 2)
                pages.update(str(docs / lg / page) for lg in LANGUAGES)  # the page and its twin (lag banner)
                # the home page's course map shows each page's description and example count (coursemap.py)
                pages.update(str(docs / lg / "index.md") for lg in LANGUAGES)
        for e in embeds:
            if e.rel in examples:  # docs/<lang>/<page>.md: the page and its chapter notebook
                lg, page = src_language(e.page.split("/", 1)[1])
                pages.add(str(docs / lg / page))
                pages.add(str(notebook_source(project.cache_dir, lg, page)))
        return Plan(False, f"{len(changed)} changed input(s)", pages, examples)

    def mark_for_rebuild(self, files, lang: str) -> None:
        """Escalate to a full rebuild if this language's pages differ from the previous build's; then make
        MkDocs rebuild every planned page by ageing its HTML (``File.is_modified`` compares modification times)."""
        sources = {f.src_uri for f in files.documentation_pages()}  # a placeholder (``later``) has no abs_src_path
        previous, self.doc_files[lang] = self.doc_files.get(lang), sources
        p = self.plan
        if not self.dirty:
            return
        if not p.full and previous is not None and previous != sources:
            self.plan = p = Plan(True, f"the {lang} pages changed (a notebook appeared or vanished)")
        for f in files.documentation_pages():
            if (p.full or f.abs_src_path in p.pages) and os.path.exists(f.abs_dest_path):
                os.utime(f.abs_dest_path, (0, 0))

    def restore_skipped_pages(self, files) -> None:
        """Give every page MkDocs skipped (never read: no content) its title and meta from the last build."""
        for f in files.documentation_pages():
            page = f.page
            if page is not None and page.content is None and f.abs_src_path in self.titles:
                page.title, meta = self.titles[f.abs_src_path]  # title is a weak property: this overrides it
                page.meta = dict(meta)

    def remember_page(self, page) -> None:
        """Keep a rendered page's title and meta for the rebuilds that skip it (``on_page_context``)."""
        if page.file.abs_src_path:  # not a page made from content, which MkDocs renders on every build
            self.titles[page.file.abs_src_path] = (page.title, dict(page.meta or {}))

    def record_entries(self, url: str, entries: list) -> None:
        """The search entries Material made for the page at ``url`` in this build (``buildcache.install``'s
        wrapper of Material's indexing hands them over)."""
        self.entries[url] = entries

    def remember_search(self, lang: str, index: dict) -> None:
        """Keep the index just written for ``lang`` (a full or patched build) as the base of the next patch."""
        self.search[lang] = index

    def serve_index(self, lang: str, merged: dict | None) -> dict | None:
        """Under ``make serve``: the search index of ``lang`` built from the entries recorded page by page
        (locations relative to the language's root, as ``search.split_search_index`` writes them), because
        Material's own index of a dirty build holds only the rebuilt pages. A full rebuild lists every page's
        entries in build order, as a full build does; a partial one replaces the rebuilt pages' entries in
        the previous index, in place. None outside ``make serve`` (``split_search_index`` then splits
        Material's index)."""
        if not self.dirty:
            return None
        prefix = lang_root(lang)
        fresh = {url[len(prefix):]: [{**e, "location": e["location"][len(prefix):]} for e in entries]
                 for url, entries in self.entries.items() if lang_of_url(url) == lang}
        base = self.search.get(lang)
        if self.plan.full or base is None:
            shell = merged or base or {}
            return {**shell, "docs": [e for entries in fresh.values() for e in entries]}
        docs, placed = [], set()
        for doc in base["docs"]:
            page = _page_of(doc["location"])
            if page in fresh:
                if page not in placed:
                    docs.extend(fresh[page])
                    placed.add(page)
                continue
            docs.append(doc)
        docs.extend(e for page, entries in fresh.items() if page not in placed for e in entries)
        return {**base, "docs": docs}


def _inputs(project: Project) -> dict[str, tuple]:
    """Every input of the site of ``project`` with its stat key, named ``docs/…``, ``examples/…``,
    ``scripts/…`` (the build code running, ``project.CODE``) and ``mkdocs.yml``. Left out: bytecode caches,
    and hidden files such as the capture lock and the ``.<name>.tmp`` of an atomic write (a capture running
    beside ``make serve`` would otherwise make every rebuild a full one)."""
    out = {}
    for name, root in (("docs", project.docs_dir), ("examples", project.examples_dir), ("scripts", CODE)):
        _stat_tree(str(root), name, out)
    out["mkdocs.yml"] = stat_key(project.config_file)
    return out


def _stat_tree(folder: str, named: str, out: dict[str, tuple]) -> None:
    """Add each file under ``folder`` to ``out`` as ``named/<path>`` -> its stat key (``filememo.stat_key``),
    one ``stat`` per file from ``os.scandir`` (``os.walk`` with ``isfile`` and ``stat_key`` took two: 22 ms
    -> 11 ms for this checkout's 1,146 files, every rebuild). Like ``os.walk``, links to folders are not followed."""
    try:
        entries = sorted(os.scandir(folder), key=lambda e: e.name)
    except OSError:
        return
    for entry in entries:
        if entry.name.startswith(".") or entry.name == "__pycache__":
            continue
        try:
            if entry.is_dir(follow_symlinks=False):
                _stat_tree(entry.path, f"{named}/{entry.name}", out)
            elif entry.is_file():
                st = entry.stat()
                out[f"{named}/{entry.name}"] = (st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)
        except OSError:
            continue  # gone meanwhile


def _headings(docs_dir: Path) -> dict[str, str | None]:
    out = {}
    for p in docs_dir.glob("*/**/*.md"):
        rel = f"docs/{p.relative_to(docs_dir).as_posix()}"
        try:
            out[rel] = page_outline(p, rel)[0]
        except PageError:  # reported with its line by on_page_markdown
            out[rel] = page_title(p.read_text(encoding="utf-8"))
    return out


class _NotInaccurate(logging.Filter):
    """Drop MkDocs' warning that a dirty build "will likely lead to inaccurate navigation": this module
    makes it accurate (``tests/site/test_incremental.py``); and its note "The directory contains stale files",
    which every ``make serve`` printed, in a fresh clone too: mkdocs-static-i18n builds the other languages
    with ``build(config, dirty=True)`` and no ``serve_url``, into the folder where the first language was
    just written, and MkDocs says so of any dirty build into a folder that is not empty."""

    DROPPED = ("A 'dirty' build is being performed", "The directory contains stale files")

    def filter(self, record: logging.LogRecord) -> bool:
        return not record.getMessage().startswith(self.DROPPED)


def _page_of(location: str) -> str:
    return location.split("#", 1)[0]
