"""Dirty rebuilds under ``make serve`` (``mkdocs serve --dirty``) that write what a full build writes.

MkDocs' ``--dirty`` mode re-renders only the pages whose Markdown is newer than their HTML. On its own
that is wrong here in four ways: a page that embeds an example does not change when the example or its
record does; a page's translation-lag banner depends on its twin in the other language; the pages it
skips are never read, so their titles are missing from every rebuilt page's navigation; and Material's
search index then holds only the rebuilt pages. This module keeps what the serve process learnt in the
previous build and fixes each:

* ``plan`` (from ``on_config`` of the outer build) compares every input's ``stat`` with the previous
  build: pages, examples, records, and the files that shape every page (``mkdocs.yml``, the theme
  override and assets, the twins file, the pipeline code). It returns the pages to rebuild: an edited
  page and its twin; every page and notebook embedding an edited example or a re-captured record; and
  everything when a shared input changed, a page's first heading changed (the navigation shows it), or a
  page or notebook appeared or vanished.
* ``mark_for_rebuild`` (from ``on_files``, per language) ages those pages' HTML so that MkDocs rebuilds them.
* ``restore_skipped_pages`` (from ``on_env``) gives each skipped page the title and meta it had.
* ``serve_index`` (from ``on_post_build``) replaces the rebuilt pages' entries in the previous
  per-language search index, in place, instead of writing Material's partial one.

A full build (``make build``, the first build of ``make serve``) records the state and changes nothing.
``tests/test_incremental.py`` edits a page, an example and a record and compares the served site with a
full build of the same tree, file by file.
"""

from __future__ import annotations

import logging
import os
import threading
from dataclasses import dataclass, field

from pytorch_notes.filememo import stat_key
from pytorch_notes.pages import PageError, all_embeds, first_heading, page_outline
from pytorch_notes.settings import DOCS_DIR, EXAMPLES_DIR, LANGUAGES, REPO_ROOT
from pytorch_notes.site.common import log
from pytorch_notes.site.notebooks import notebook_source

SHARED = ("mkdocs.yml", "docs/twins.json", "docs/overrides", "docs/assets", "scripts")  # shape every page


@dataclass
class Plan:
    """What one rebuild must redo. ``pages``: absolute source paths of the pages to re-render
    (Markdown pages and notebooks), meaningful only when ``full`` is False."""

    full: bool
    reason: str
    pages: set[str] = field(default_factory=set)


@dataclass
class _State:
    dirty: bool = False                  # mkdocs serve --dirty (on_startup)
    stamps: dict[str, tuple] | None = None  # input file -> stat key at the previous build
    headings: dict[str, str | None] = field(default_factory=dict)  # page source -> its first heading
    doc_files: dict[str, set[str]] = field(default_factory=dict)   # language -> its pages' sources
    titles: dict[str, tuple[str | None, dict]] = field(default_factory=dict)  # page source -> (title, meta)
    search: dict[str, dict] = field(default_factory=dict)  # language -> the last index written
    entries: dict[str, list] = field(default_factory=dict)  # this build: page url -> its search entries
    plan: Plan = field(default_factory=lambda: Plan(True, "first build"))


STATE = _State()


def _inputs() -> dict[str, tuple]:
    """Every input of the site with its stat key. Left out: bytecode caches, and hidden files such as the
    capture lock and the ``.<name>.tmp`` of an atomic write (a capture running beside ``make serve`` would
    otherwise make every rebuild a full one)."""
    out = {}
    roots = [DOCS_DIR, EXAMPLES_DIR, REPO_ROOT / "scripts"]
    for root in roots:
        for path in root.rglob("*"):
            rel = path.relative_to(REPO_ROOT).as_posix()
            if "__pycache__" in rel or path.name.startswith(".") or not path.is_file():
                continue
            out[rel] = stat_key(path)
    out["mkdocs.yml"] = stat_key(REPO_ROOT / "mkdocs.yml")
    return out


def _headings() -> dict[str, str | None]:
    out = {}
    for p in DOCS_DIR.glob("*/**/*.md"):
        rel = p.relative_to(REPO_ROOT).as_posix()
        try:
            out[rel] = page_outline(p, rel)[0]
        except PageError:  # reported with its line by on_page_markdown
            out[rel] = first_heading(p.read_text(encoding="utf-8"))
    return out


def plan(dirty: bool) -> Plan:
    """Decide what this build redoes (see the module docstring) and remember the inputs for the next one.
    Outside ``make serve`` (``dirty`` False) every build is full and nothing is recorded."""
    if not dirty:
        return Plan(True, "full build")
    stamps, headings = _inputs(), _headings()
    before, STATE.stamps = STATE.stamps, stamps
    old_headings, STATE.headings = STATE.headings, headings
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
    embeds = all_embeds()
    for rel in changed:
        if rel.startswith("docs/") and rel.endswith(".md"):
            _, _lang, page = rel.split("/", 2)
            pages.update(str(DOCS_DIR / lg / page) for lg in LANGUAGES)  # the page and its twin (lag banner)
            # the home page's course map shows each page's description and example count (coursemap.py)
            pages.update(str(DOCS_DIR / lg / "index.md") for lg in LANGUAGES)
        elif rel.startswith("examples/"):
            example = _example_of(rel)
            for e in embeds:
                if e.rel == example:  # docs/<lang>/<page>.md: the page and its chapter notebook
                    pages.add(str(REPO_ROOT / e.page))
                    _, lg, page = e.page.split("/", 2)
                    pages.add(str(notebook_source(lg, page)))
    return Plan(False, f"{len(changed)} changed input(s)", pages)


def _example_of(rel: str) -> str:
    """``examples/ch/name.py`` or ``examples/_outputs/ch/name/cpu.json`` -> ``ch/name.py``."""
    parts = rel.split("/")
    if parts[1] == "_outputs" and len(parts) >= 5:
        return f"{parts[2]}/{parts[3]}.py"
    return "/".join(parts[1:])


def mark_for_rebuild(files, lang: str) -> None:
    """Escalate to a full rebuild if this language's pages differ from the previous build's; then make
    MkDocs rebuild every planned page by ageing its HTML (``File.is_modified`` compares modification times)."""
    sources = {f.abs_src_path for f in files.documentation_pages() if f.abs_src_path}
    previous, STATE.doc_files[lang] = STATE.doc_files.get(lang), sources
    p = STATE.plan
    if not STATE.dirty:
        return
    if not p.full and previous is not None and previous != sources:
        STATE.plan = p = Plan(True, f"the {lang} pages changed (a notebook appeared or vanished)")
    for f in files.documentation_pages():
        if (p.full or f.abs_src_path in p.pages) and os.path.exists(f.abs_dest_path):
            os.utime(f.abs_dest_path, (0, 0))


def remember_page(page) -> None:
    """Keep a rendered page's title and meta for the rebuilds that skip it (``on_page_context``)."""
    STATE.titles[page.file.abs_src_path] = (page.title, dict(page.meta or {}))


def restore_skipped_pages(files) -> None:
    """Give every page MkDocs skipped (never read: no content) its title and meta from the last build."""
    for f in files.documentation_pages():
        page = f.page
        if page is not None and page.content is None and f.abs_src_path in STATE.titles:
            page.title, meta = STATE.titles[f.abs_src_path]  # title is a weak property: this overrides it
            page.meta = dict(meta)


def record_entries(url: str, entries: list) -> None:
    """The search entries Material made for the page at ``url`` in this build (``buildcache.install``'s
    wrapper of Material's indexing hands them over)."""
    STATE.entries[url] = entries


def start_build(config) -> None:
    """Plan this build and reset what it collects (``on_config`` of the outer build).

    Under ``make serve`` Material's search plugin also keeps the previous build's index and merges the
    new pages into it; under mkdocs-static-i18n that merge took every language's entries again on each
    rebuild, so the index (and the rebuild time) doubled with every save. ``serve_index`` writes the
    index from the entries recorded page by page, so the previous one is dropped here.
    """
    STATE.entries = {}
    search = config.plugins.get("material/search") or config.plugins.get("search")
    if STATE.dirty and search is not None and hasattr(search, "search_index_prev"):
        search.search_index_prev = None
    STATE.plan = plan(STATE.dirty)
    if STATE.dirty:
        log.info(f"rebuild: {'everything' if STATE.plan.full else f'{len(STATE.plan.pages)} page(s)'} "
                 f"({STATE.plan.reason})")


class _NotInaccurate(logging.Filter):
    """Drop MkDocs' warning that a dirty build "will likely lead to inaccurate navigation": this module
    makes it accurate (``tests/test_incremental.py``)."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not record.getMessage().startswith("A 'dirty' build is being performed")


def serve_dirty(dirty: bool) -> None:
    """Called from ``on_startup``: ``make serve`` rebuilds incrementally (``mkdocs serve --dirty``)."""
    STATE.dirty = dirty
    build_log = logging.getLogger("mkdocs.commands.build")
    if dirty and not any(isinstance(f, _NotInaccurate) for f in build_log.filters):
        build_log.addFilter(_NotInaccurate())


class _ChangesOnly:
    """Pass a watchdog handler one event per saved file: inotify reports a file being opened and closed
    unwritten (the build itself reads every page), and a write both as "modified" (per chunk) and as
    "closed" (when complete): only the last counts, or one save rebuilt twice. Editors that save by
    renaming give "created" or "moved". Not sources: Python's bytecode caches under ``scripts/`` and hidden
    files (the capture lock, an atomic write's temporary file)."""

    IGNORED = frozenset({"opened", "closed_no_write", "modified"})

    def __init__(self, inner) -> None:
        self.inner = inner

    def dispatch(self, event) -> None:
        path = getattr(event, "dest_path", "") or event.src_path  # a rename counts where it lands
        if event.event_type in self.IGNORED or "__pycache__" in path or os.path.basename(path).startswith("."):
            return  # hidden files (capture lock, atomic writes' temporaries)
        log.debug(f"live reload: {event.event_type} {path}")
        self.inner.dispatch(event)


def faster_watcher(server):
    """On Linux, swap the live-reload server's polling observer (MkDocs polls every 0.5 s) for watchdog's
    inotify one, moving the watches scheduled so far; later ``server.watch`` calls use it too. Keeps
    the polling observer elsewhere, or if inotify cannot watch (limits, unsupported file system)."""
    from watchdog.observers import Observer  # noqa: PLC0415 - only under make serve

    old = server.observer
    handlers = getattr(old, "_handlers", None)
    if handlers is None or old.is_alive() or Observer.__name__ != "InotifyObserver":
        return server  # other platforms' observers report no "closed" event: keep MkDocs' polling
    class ChangesObserver(Observer):  # every handler scheduled on it, now or later, sees changes only
        def schedule(self, event_handler, path, recursive=False, **kwargs):
            return super().schedule(_ChangesOnly(event_handler), path, recursive=recursive, **kwargs)

    new = ChangesObserver()
    try:
        refs = {}
        for watch, hs in list(handlers.items()):
            for h in hs:
                refs[watch.path] = new.schedule(h, watch.path, recursive=watch.is_recursive)
    except OSError as exc:  # inotify limits, unsupported file system
        log.info(f"live reload keeps polling ({exc})")
        return server
    server.observer = new
    server._watch_refs = refs  # MkDocs unwatches through these
    server.build_delay = 0.03  # MkDocs waits 0.1 s for more changes; "closed" already means a write is complete
    return server


def _page_of(location: str) -> str:
    return location.split("#", 1)[0]


def remember_search(lang: str, index: dict) -> None:
    """Keep the index just written for ``lang`` (a full or patched build) as the base of the next patch."""
    STATE.search[lang] = index


def _in_language(url: str, lang: str) -> bool:
    others = [lg for lg in LANGUAGES[1:]]
    if lang == LANGUAGES[0]:
        return not any(url.startswith(f"{lg}/") for lg in others)
    return url.startswith(f"{lang}/")


def serve_index(lang: str, merged: dict | None) -> dict | None:
    """Under ``make serve``: the search index of ``lang`` built from the entries recorded page by page
    (locations relative to the language's root, as ``search.split_search_index`` writes them), because
    Material's own index of a dirty build holds only the rebuilt pages. A full rebuild lists every page's
    entries in build order, as a full build does; a partial one replaces the rebuilt pages' entries in
    the previous index, in place. None outside ``make serve`` (``split_search_index`` then splits
    Material's index)."""
    if not STATE.dirty:
        return None
    prefix = "" if lang == LANGUAGES[0] else f"{lang}/"
    fresh = {url[len(prefix):]: [{**e, "location": e["location"][len(prefix):]} for e in entries]
             for url, entries in STATE.entries.items() if _in_language(url, lang)}
    base = STATE.search.get(lang)
    if STATE.plan.full or base is None:
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


def load_segmenter_in_background() -> threading.Thread | None:
    """Under ``make serve``, load jieba's dictionary in a thread once the site is served (``on_serve``).

    The first build takes every page's search entries from the build cache, so jieba is first needed by
    the first rebuild after a save, which then waited for its dictionary: 2.0 s instead of ~0.9 s
    (2026-11-23). The server is idle meanwhile; a rebuild that comes sooner waits on jieba's own lock.
    Returns the thread, or None without jieba.
    """
    try:
        import jieba  # noqa: PLC0415 - Material's optional Chinese segmenter
    except ImportError:
        return None
    thread = threading.Thread(target=jieba.initialize, name="jieba-dictionary", daemon=True)
    thread.start()
    return thread
