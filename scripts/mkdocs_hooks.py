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
* ``on_nav``: append a Notebooks section in course order.
* ``on_post_build``: split the search index so each language searches only its pages.
"""

from __future__ import annotations

import copy
import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from examplefile import EXAMPLES_DIR, ExampleError, parse_example, resolve_example  # noqa: E402
from mkdocs.exceptions import PluginError  # noqa: E402
from mkdocs.plugins import event_priority, get_plugin_logger  # noqa: E402
from mkdocs.structure.files import File  # noqa: E402
from mkdocs.structure.nav import Section  # noqa: E402
from mkdocs.utils import get_relative_url  # noqa: E402
from notebook import build_notebook, dumps  # noqa: E402
from pages import DOCS_DIR, LANGUAGES, PageError, find_embeds, language_pages  # noqa: E402
from render import Links, figure_assets, render_example  # noqa: E402
from store import StoreError, freshness, load_record  # noqa: E402

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
            try:
                record = load_record(rel)
            except StoreError as exc:
                log.warning(str(exc))
                continue
            if record is None:
                continue
            target = root / (rel[:-3] + ".ipynb")
            wanted.add(target)
            page_url = page[:-3] + "/" if not page.endswith("index.md") else page[:-8]
            chapter_url = get_relative_url(page_url, f"notebooks/{rel[:-3]}/")
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


def _as_page(f: File, site_dir: str) -> File:
    nb = copy.copy(f)
    nb.__class__ = _NotebookPage
    dest = f.dest_uri  # i18n copies mkdocs-jupyter's page path (.../index.html) or the raw .ipynb
    nb.dest_uri = dest[: -len(".ipynb")] + "/index.html" if dest.endswith(".ipynb") else dest
    nb.url = nb.dest_uri[: -len("index.html")]
    nb.abs_dest_path = os.path.normpath(os.path.join(site_dir, nb.dest_uri))
    return nb


@event_priority(-200)  # after mkdocs-static-i18n (-100)
def on_files(files, config):
    lang = _lang(config)
    for f in list(files):
        if f.src_uri.endswith(".ipynb") and "/notebooks/" in f"/{f.src_uri}":
            page = _as_page(f, config.site_dir)
            alternates = getattr(f, "alternates", None)
            if alternates:
                page.alternates = {k: (page if k == lang else _as_page(v, config.site_dir))
                                   for k, v in alternates.items()}
            files.remove(f)
            files.append(page)
    # Figures and .py downloads live once at the site root, shared by both languages.
    for path in sorted(EXAMPLES_DIR.glob("*/*.py")):
        rel = path.relative_to(EXAMPLES_DIR).as_posix()
        if rel.startswith("_"):
            continue
        files.append(File.generated(config, f"examples/{rel}", abs_src_path=str(path)))
        try:
            record = load_record(rel)
        except StoreError:
            continue
        for asset in figure_assets(record).values():
            files.append(File.generated(config, asset.path, content=asset.data))
    return files


def on_page_markdown(markdown: str, page, config, files) -> str:
    src = page.file.src_uri
    if not src.endswith(".md"):
        return markdown
    lang = src.split("/", 1)[0] if src.split("/", 1)[0] in LANGUAGES else LANGUAGES[0]
    page_name = f"docs/{src}"
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
                        f"{fresh.failure.get('location')}: {fresh.failure.get('message')}")
        nb_dir = ("" if lang == LANGUAGES[0] else f"{lang}/") + f"notebooks/{e.rel[:-3]}/"
        links = Links(py=url_for(f"examples/{e.rel}"),
                      ipynb=url_for(nb_dir + Path(e.rel).stem + ".ipynb"),
                      notebook=url_for(nb_dir))
        rendered, _ = render_example(example, fresh, lang, url_for, links)
        lines[e.line - 1: e.line] = rendered.splitlines()
    return "\n".join(lines) + "\n"


def on_page_context(context, page, config, nav):
    """Notebook pages are generated: point their edit link at the example script instead."""
    src = page.file.src_uri
    if src.endswith(".ipynb") and config.repo_url:
        rel = src.split("notebooks/", 1)[1][: -len(".ipynb")] + ".py"
        page.edit_url = config.repo_url.rstrip("/") + f"/edit/main/examples/{rel}"
    return context


@event_priority(-200)
def on_nav(nav, config, files):
    """Append the notebooks, grouped by chapter in the order the chapters appear in the nav."""
    lang = _lang(config)
    notebooks = {f.src_uri.split("notebooks/", 1)[1]: f for f in files.documentation_pages()
                 if f.src_uri.endswith(".ipynb")}
    if not notebooks:
        return nav
    chapters: list[Section] = []
    for page in nav.pages:
        src = page.file.src_uri
        if not src.endswith(".md"):
            continue
        text = Path(page.file.abs_src_path).read_text(encoding="utf-8")
        try:
            rels = [e.rel for e in find_embeds(text, src)]
        except PageError:
            continue
        children = []
        for rel in rels:
            f = notebooks.pop(rel[:-3] + ".ipynb", None)
            if f is not None and getattr(f, "page", None) is not None:
                children.append(f.page)
        if children:
            title = _h1(text) or src  # page.title is only set later, when the page is read
            section = Section(title, children)
            for child in children:
                child.parent = section
            chapters.append(section)
    if chapters:
        top = Section(NOTEBOOK_SECTION.get(lang, "Notebooks"), chapters)
        for s in chapters:
            s.parent = top
        nav.items.append(top)
    return nav


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
        target.write_text(json.dumps({**index, "docs": docs}, ensure_ascii=False, separators=(",", ":")),
                          encoding="utf-8")
