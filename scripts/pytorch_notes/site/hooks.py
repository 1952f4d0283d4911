"""MkDocs glue (the only module that imports MkDocs): embed stored example outputs.

Listed under ``hooks:`` in mkdocs.yml. It never executes an example: it reads the output
store written by ``make capture``.

* ``on_pre_build``: write each captured example's notebook (built from the store) to
  ``docs/<lang>/notebooks/`` (git-ignored), so mkdocs-jupyter renders it as a page.
* ``on_files`` (after mkdocs-static-i18n): turn those notebooks back into pages (i18n
  re-creates every File and drops mkdocs-jupyter's wrapper, see shared/STACK.md), fix
  their language alternates, and add figures and ``.py`` downloads to the site.
* ``on_page_markdown``: replace each ``::: example <chapter>/<name>.py`` line with the
  rendered example. A missing example or a malformed embed stops the build naming page
  and line; stale or missing outputs log a warning (so ``--strict`` fails) and show a
  warning on the page.
* ``on_page_content``: notebook pages link nbconvert's stylesheet instead of inlining it,
  and stay out of the search index.
* ``on_nav``: give each course section a group of its chapters' notebooks.
* ``on_post_build``: split the search index so each language searches only its pages.
"""

from __future__ import annotations

import copy
import hashlib
import json
import os
import sys
from pathlib import Path


from pytorch_notes.parse import ExampleError, parse_example, resolve_example
from pytorch_notes.settings import EXAMPLES_DIR
from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority, get_plugin_logger
from mkdocs.structure.files import File
from mkdocs.structure.nav import Section
from mkdocs.utils import get_relative_url
from pytorch_notes.render.notebook import build_notebook, dumps
from pytorch_notes.pages import PageError, find_embeds, language_pages
from pytorch_notes.settings import DOCS_DIR, LANGUAGES
from pytorch_notes.render.html import Links, figure_assets, render_example
from pytorch_notes.store.records import StoreError, freshness
from pytorch_notes.twins import TwinsError, page_lag

log = get_plugin_logger("pytorch_notes")
NOTEBOOK_SECTION = {"zh": "示例笔记本", "en": "Example notebooks"}


def _lang(config) -> str:
    i18n = config.plugins.get("i18n")
    return getattr(i18n, "current_language", None) or LANGUAGES[0]


def _h1(markdown: str) -> str | None:
    return next((ln[2:].strip() for ln in markdown.splitlines() if ln.startswith("# ")), None)


def _embedding_pages() -> dict[str, dict[str, tuple[str, str]]]:
    """For each language: example id -> (page path under docs/<lang>/, page title) of its first embed."""
    found: dict[str, dict[str, tuple[str, str]]] = {}
    for lang in LANGUAGES:
        found[lang] = {}
        for rel_page, path in language_pages(lang).items():
            text = path.read_text(encoding="utf-8")
            title = _h1(text) or rel_page
            try:
                embeds = find_embeds(text, f"docs/{lang}/{rel_page}")
            except PageError:
                continue  # reported with its line by on_page_markdown
            for e in embeds:
                found[lang].setdefault(e.rel, (rel_page, title))
    return found


def _write_if_changed(path: Path, text: str) -> None:
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


class _KeepEverything(set):
    """A 'used cache paths' set that contains every path, so nothing is evicted."""

    def __contains__(self, item) -> bool:
        return True


@event_priority(-10)  # after mkdocs-jupyter's own on_pre_build, which resets its set
def on_pre_build(config) -> None:
    """Write the notebooks of all embedded, captured examples; delete ones no longer wanted.

    Also keep mkdocs-jupyter's render cache across languages: it evicts every entry the
    current build did not use, so under i18n each language build wiped the other's and
    every build re-rendered every notebook (measured: 32 s instead of ~10 s for 57
    examples). ``make clean`` empties the cache.
    """
    jupyter = config.plugins.get("mkdocs-jupyter")
    if jupyter is not None:
        jupyter._used_cache_paths = _KeepEverything()
    embedding = _embedding_pages()
    for lang in LANGUAGES:
        root = DOCS_DIR / lang / "notebooks"
        wanted = set()
        for rel, (page, title) in embedding[lang].items():
            record = _shown_record(rel)
            if record is None:
                continue
            target = root / (rel[:-3] + ".ipynb")
            wanted.add(target)
            page_url = _page_url(page, config.use_directory_urls)
            chapter_url = get_relative_url(page_url, _notebook_urls(rel, config.use_directory_urls)[0])
            _write_if_changed(target, dumps(build_notebook(record, lang, title, chapter_url)))
        for stale in root.rglob("*.ipynb") if root.exists() else []:
            if stale not in wanted:
                stale.unlink()


class _NotebookPage(File):
    """A notebook File served as a page (what mkdocs-jupyter's wrapper does, kept after i18n)."""

    def is_documentation_page(self) -> bool:
        return True

    def is_static_page(self) -> bool:
        return False


def _as_page(f: File, site_dir: str, use_directory_urls: bool = True) -> File:
    nb = copy.copy(f)
    nb.__class__ = _NotebookPage
    # i18n copies mkdocs-jupyter's page path (.../index.html, or .html offline) or the raw .ipynb
    nb.dest_uri, nb.url = _notebook_page_dest(f.dest_uri, use_directory_urls)
    nb.abs_dest_path = os.path.normpath(os.path.join(site_dir, nb.dest_uri))
    return nb


@event_priority(-200)  # after mkdocs-static-i18n (-100)
def on_files(files, config):
    lang = _lang(config)
    for f in list(files):
        if f.src_uri.endswith(".ipynb") and "/notebooks/" in f"/{f.src_uri}":
            page = _as_page(f, config.site_dir, config.use_directory_urls)
            alternates = getattr(f, "alternates", None)
            if alternates:
                page.alternates = {k: (page if k == lang else _as_page(v, config.site_dir, config.use_directory_urls))
                                   for k, v in alternates.items()}
            _add_notebook_alternates(page, lang, config.use_directory_urls)
            files.remove(f)
            files.append(page)
    # Figures and .py downloads live once at the site root, shared by both languages.
    for path in sorted(EXAMPLES_DIR.glob("*/*.py")):
        rel = path.relative_to(EXAMPLES_DIR).as_posix()
        if rel.startswith("_"):
            continue
        files.append(File.generated(config, f"examples/{rel}", abs_src_path=str(path)))
        try:
            devices = freshness(parse_example(path)).devices.values()
        except (ExampleError, StoreError):
            continue  # reported with page and line by on_page_markdown
        for dev in devices:
            for asset in figure_assets(dev.record).values():
                files.append(File.generated(config, asset.path, content=asset.data))
    return files


def _shown_record(rel: str):
    """The record a page shows for example ``rel`` (``Freshness.preferred``), or None (reported elsewhere)."""
    try:
        return freshness(parse_example(resolve_example(rel))).record
    except (ExampleError, StoreError, OSError):
        return None  # on_page_markdown stops the build naming the page and line


def on_page_markdown(markdown: str, page, config, files) -> str:
    src = page.file.src_uri
    if not src.endswith(".md"):
        return markdown
    lang = src.split("/", 1)[0] if src.split("/", 1)[0] in LANGUAGES else LANGUAGES[0]
    page_name = f"docs/{src}"
    banner = _twin_lag_banner(page, lang)
    markdown = _embed_examples(markdown, page, config, lang, page_name)
    return _insert_after_h1(markdown, banner) if banner else markdown


def _embed_examples(markdown: str, page, config, lang: str, page_name: str) -> str:
    try:
        embeds = find_embeds(markdown, page_name)
    except PageError as exc:
        raise PluginError(str(exc)) from None
    if not embeds:
        return markdown
    lines = markdown.splitlines()
    page_url = page.file.url

    def url_for(site_path: str) -> str:
        return get_relative_url(site_path, page_url)

    for e in reversed(embeds):
        path = resolve_example(e.rel)
        if not path.is_file():
            raise PluginError(f"{page_name}:{e.line}: example {e.rel!r} not found "
                              f"(expected the file examples/{e.rel})")
        try:
            example = parse_example(path)
            fresh = freshness(example)
        except (ExampleError, StoreError) as exc:
            raise PluginError(f"{page_name}:{e.line}: {exc}") from None
        if fresh.state != "fresh":
            log.warning(f"{page_name}:{e.line}: outputs of examples/{e.rel} are {fresh.state} "
                        f"(source changed since the last capture, or never captured); run `make capture`")
        if fresh.failure:
            log.warning(f"{page_name}:{e.line}: the last capture of examples/{e.rel} failed: "
                        f"{fresh.failure.location}: {fresh.failure.message}")
        lang_root = "" if lang == LANGUAGES[0] else f"{lang}/"
        nb_page, nb_file = _notebook_urls(e.rel, config.use_directory_urls)
        links = Links(py=url_for(f"examples/{e.rel}"),
                      ipynb=url_for(lang_root + nb_file),
                      notebook=url_for(lang_root + nb_page))
        rendered, _ = render_example(example, fresh, lang, url_for, links)
        lines[e.line - 1: e.line] = rendered.splitlines()
    return "\n".join(lines) + "\n"


TWIN_BANNER = {
    "zh": ("译文可能已过期",
           "{changed}版在上次同步之后改过，这一页可能还没跟上。请以[{changed}版]({url})为准；也欢迎帮忙更新本页。"),
    "en": ("This translation may be out of date",
           "The {changed} version changed after this page was last synced with it. "
           "When in doubt, read the [{changed} version]({url}), or help update this page."),
}
LANGUAGE_LABELS = {"zh": {"zh": "中文", "en": "英文"}, "en": {"zh": "Chinese", "en": "English"}}
BOTH_CHANGED = {
    "zh": ("两种语言的版本可能不一致", "这一页的中文版和英文版在上次同步之后都改过，内容可能还没对齐。"),
    "en": ("The two languages may disagree", "Both the Chinese and the English version of this page changed "
           "since they were last synced."),
}


def _twin_lag_banner(page, lang: str) -> str:
    """An admonition for a page whose twin changed after the last sync (see scripts/twins.py)."""
    rel = page.file.src_uri.split("/", 1)[1] if page.file.src_uri.split("/", 1)[0] in LANGUAGES else \
        page.file.src_uri
    try:
        lag = page_lag(rel)
    except TwinsError as exc:
        log.warning(str(exc))
        return ""
    if lag is None or lang not in lag.stale:
        return ""
    other = next(lg for lg in LANGUAGES if lg != lang)
    if lang in lag.changed or not lag.changed:
        title, body = BOTH_CHANGED[lang]
    else:
        url = f"{other}/{page.file.url}" if lang == LANGUAGES[0] else page.file.url.removeprefix(f"{lang}/")
        title, template = TWIN_BANNER[lang]
        body = template.format(changed=LANGUAGE_LABELS[lang][other], url=get_relative_url(url, page.file.url))
    log.info(f"docs/{page.file.src_uri}: translation may be out of date ({lag.describe()})")
    return f'!!! warning "{title}"\n\n    {body}\n'


def _insert_after_h1(markdown: str, block: str) -> str:
    lines = markdown.split("\n")
    at = next((i + 1 for i, ln in enumerate(lines) if ln.startswith("# ")), 0)
    return "\n".join(lines[:at] + ["", block] + lines[at:])


def on_page_context(context, page, config, nav):
    """Notebook pages are generated: point their edit link at the example script instead."""
    src = page.file.src_uri
    if src.endswith(".ipynb") and config.repo_url:
        rel = src.split("notebooks/", 1)[1][: -len(".ipynb")] + ".py"
        page.edit_url = config.repo_url.rstrip("/") + f"/edit/main/examples/{rel}"
    return context


@event_priority(-200)
def on_nav(nav, config, files):
    """Put each chapter's notebooks in the nav, inside the course section of the chapter.

    Every top-level section (基础, 自动求导, ...) gets a last child "示例笔记本" / "Example
    notebooks" holding one group per chapter, in course order, with that chapter's notebook
    pages. With ``navigation.tabs`` and ``navigation.prune`` a page then carries only its own
    section's part of the nav (a notebook page lists its own chapter's notebooks, the other
    chapters as one link each), so the nav in a page does not grow with the whole course and
    the build time stays linear in the number of pages (``make bench``, scaling). Notebooks
    of pages outside any section go to a top-level section of the same name.
    """
    lang = _lang(config)
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
            text = Path(page.file.abs_src_path).read_text(encoding="utf-8")
            try:
                rels = [e.rel for e in find_embeds(text, src)]
            except PageError:
                continue
            children = [f.page for rel in rels
                        if (f := notebooks.pop(rel[:-3] + ".ipynb", None)) is not None
                        and getattr(f, "page", None) is not None]
            if children:
                group = Section(_h1(text) or src, children)  # page.title is only set later
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
    return nav


def _pages_under(section: Section) -> list:
    """The pages in ``section``, depth first, in nav order."""
    found = []
    for child in section.children:
        if isinstance(child, Section):
            found.extend(_pages_under(child))
        elif hasattr(child, "file"):
            found.append(child)
    return found


NOTEBOOK_CSS_MIN = 1024  # inline style blocks at least this long (characters) move to a shared file
_STYLE_OPEN, _STYLE_CLOSE = '<style type="text/css">', "</style>"


def on_page_content(html: str, page, config, files) -> str:
    """Notebook pages: slim the content before search and templating see it.

    * nbconvert inlines its stylesheets (~590 KB, the same on every notebook page). Each
      block of at least ``NOTEBOOK_CSS_MIN`` characters moves to a content-addressed file
      under ``assets/notebook/`` and is linked in place (same cascade order), so a reader
      downloads it once instead of with every notebook page.
    * The page is kept out of the search index: it repeats the code and outputs of an
      example that a chapter page embeds (the chapter's entry carries that code), so
      indexing it only doubled results. Material skips a page whose ``meta.search.exclude``
      is true (``SearchIndex.add_entry_from_context`` in material/plugins/search/plugin.py).

    Doing both here, before any ``on_page_context``, rather than on the finished HTML took the
    warm build from about 12 s to under 10 s: Material's search parser and its
    ``data-search-*`` regex no longer walk 600 KB per notebook page (cProfile, 2026-11-22).
    """
    if not page.file.src_uri.endswith(".ipynb"):
        return html
    page.meta.setdefault("search", {})["exclude"] = True
    parts, at = [], 0
    while (start := html.find(_STYLE_OPEN, at)) != -1:
        end = html.find(_STYLE_CLOSE, start)
        if end == -1:
            break
        css = html[start + len(_STYLE_OPEN):end]
        parts.append(html[at:start])
        if len(css) < NOTEBOOK_CSS_MIN:
            parts.append(html[start:end + len(_STYLE_CLOSE)])
        else:
            parts.append(f'<link rel="stylesheet" href="{_notebook_css(css, config, page)}">')
        at = end + len(_STYLE_CLOSE)
    parts.append(html[at:])
    return "".join(parts)


def _notebook_css(css: str, config, page) -> str:
    """Write ``css`` once to ``assets/notebook/<sha256[:16]>.css`` in the site; its URL from ``page``."""
    name = _CSS_NAMES.get(css)
    if name is None:
        name = f"assets/notebook/{hashlib.sha256(css.encode('utf-8')).hexdigest()[:16]}.css"
        _CSS_NAMES[css] = name
    target = Path(config.site_dir) / name
    if not target.exists():
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(css, encoding="utf-8")
    return get_relative_url(name, page.url)


_CSS_NAMES: dict[str, str] = {}  # stylesheet text -> site path, so each is hashed once per process


@event_priority(-200)  # after i18n merged every language into one index
def on_post_build(config) -> None:
    """Give each language its own search index containing only its pages.

    mkdocs-static-i18n writes the entries of all languages to ``search/search_index.json``.
    Material loads ``<base>/search/search_index.json``. The default language keeps
    ``search/search_index.json`` with its pages only; each other language gets
    ``<lang>/search/search_index.json`` with locations relative to ``<lang>/``, and the
    template override ``docs/overrides/main.html`` sets ``base`` of its pages to ``<lang>/``.
    """
    i18n = config.plugins.get("i18n")
    if i18n is None or getattr(i18n, "building", False):
        return  # an inner per-language build; wait for the outer one
    site = Path(config.site_dir)
    index_path = site / "search" / "search_index.json"
    if not index_path.exists():
        return
    index = json.loads(index_path.read_text(encoding="utf-8"))
    others = [lang for lang in LANGUAGES[1:]]
    by_lang = {lang: [] for lang in LANGUAGES}
    for doc in index["docs"]:
        loc = doc["location"]
        lang = next((lg for lg in others if loc == f"{lg}/" or loc.startswith(f"{lg}/")), LANGUAGES[0])
        if lang != LANGUAGES[0]:  # locations are relative to that language's root
            doc = {**doc, "location": loc[len(lang) + 1:]}
        by_lang[lang].append(doc)
    for lang, docs in by_lang.items():
        target = index_path if lang == LANGUAGES[0] else site / lang / "search" / "search_index.json"
        target.parent.mkdir(parents=True, exist_ok=True)
        text = json.dumps({**index, "docs": docs}, ensure_ascii=False, separators=(",", ":"))
        target.write_text(text, encoding="utf-8")
        if _offline_enabled(config):
            _write_offline_search_script(target, text)


# --- URLs with and without directory URLs, and the offline copy (`make offline`) ---------------------
# Material's offline plugin (mkdocs.yml, on with OFFLINE=true) sets ``use_directory_urls: false`` so that
# links work from file://: pages become ``autograd.html`` instead of ``autograd/``.


def _page_url(src_rel: str, use_directory_urls: bool) -> str:
    """URL of the page ``src_rel`` (e.g. ``"autograd.md"``, ``"index.md"``) relative to its language root.

    ``autograd/`` and ``""`` with directory URLs; ``autograd.html`` and ``index.html`` without.
    """
    stem = src_rel[: -len(".md")]
    if not use_directory_urls:
        return stem + ".html"
    if stem == "index" or stem.endswith("/index"):
        return stem[: -len("index")]
    return stem + "/"


def _notebook_urls(rel: str, use_directory_urls: bool) -> tuple[str, str]:
    """(page URL, ``.ipynb`` URL) of the notebook of example ``rel``, relative to the language root.

    With directory URLs: ``notebooks/autograd/leaf/`` and ``notebooks/autograd/leaf/leaf.ipynb``
    (mkdocs-jupyter copies the notebook beside its page); without them:
    ``notebooks/autograd/leaf.html`` and ``notebooks/autograd/leaf.ipynb``.
    """
    base = f"notebooks/{rel[: -len('.py')]}"
    if use_directory_urls:
        return base + "/", f"{base}/{Path(rel).stem}.ipynb"
    return base + ".html", base + ".ipynb"


def _notebook_page_dest(dest_uri: str, use_directory_urls: bool) -> tuple[str, str]:
    """(dest_uri, url) of a notebook page, given the dest_uri i18n left on its File.

    That is mkdocs-jupyter's page path (``x/index.html``, or ``x.html`` without directory URLs)
    or the raw ``x.ipynb``.
    """
    if dest_uri.endswith(".ipynb"):
        stem = dest_uri[: -len(".ipynb")]
        dest_uri = stem + "/index.html" if use_directory_urls else stem + ".html"
    if use_directory_urls and (dest_uri == "index.html" or dest_uri.endswith("/index.html")):
        return dest_uri, dest_uri[: -len("index.html")]
    return dest_uri, dest_uri


def _add_notebook_alternates(page: File, lang: str, use_directory_urls: bool) -> None:
    """Give a notebook page its twin in every other language, for the language switcher.

    i18n pairs only the Markdown pages: a notebook page knew only itself, so switching language
    on it went to the other language's home page. The twin is the same example's notebook, which
    ``on_pre_build`` wrote for each language; only its ``url`` is read (by i18n's page context).
    """
    alternates = dict(getattr(page, "alternates", None) or {lang: page})
    example = page.src_uri.split("notebooks/", 1)[1][: -len(".ipynb")] + ".py"
    for other in LANGUAGES:
        if other in alternates or not (DOCS_DIR / other / "notebooks" / (example[:-3] + ".ipynb")).is_file():
            continue
        twin = copy.copy(page)
        prefix = "" if other == LANGUAGES[0] else f"{other}/"
        twin.src_uri = f"{other}/notebooks/{example[:-3]}.ipynb"
        twin.url = prefix + _notebook_urls(example, use_directory_urls)[0]
        twin.dest_uri = _notebook_page_dest(prefix + _notebook_urls(example, False)[1], use_directory_urls)[0]
        alternates[other] = twin
    page.alternates = alternates


def _offline_enabled(config) -> bool:
    """True when Material's offline plugin is on (``make offline``: ``OFFLINE=true``)."""
    plugin = config.plugins.get("material/offline") or config.plugins.get("offline")
    return bool(plugin is not None and plugin.config.enabled)


def _write_offline_search_script(index_json: Path, text: str) -> None:
    """Write ``search_index.js`` beside ``index_json``: the index as a script, for file://.

    From file://, Material loads ``<base>/search/search_index.js`` with a script tag and reads the
    global ``__index`` (a fetch of the JSON would be blocked). Its offline plugin writes that script
    from the merged index of all languages before this hook splits it, so each language's script is
    rewritten here from that language's index ``text``.
    """
    index_json.with_name("search_index.js").write_text(f"var __index = {text}", encoding="utf-8")
