"""Notebook pages: write each embedded example's notebook from the store, serve it as a page under
mkdocs-static-i18n, pair it across languages, slim its HTML, give it its title and downloads; and the
``.py`` downloads with their header."""

from __future__ import annotations

import copy
import hashlib
import json
import os
from pathlib import Path

from mkdocs.structure.files import File
from mkdocs.utils import get_relative_url

from pytorch_notes import comments as comments_module
from pytorch_notes.filememo import stat_key
from pytorch_notes.pages import PageError, language_pages, page_outline
from pytorch_notes.parse import ExampleError, parse_example, resolve_example
from pytorch_notes.render import kinds as kinds_module
from pytorch_notes.render import notebook as notebook_module
from pytorch_notes.render.notebook import build_notebook, dumps, notebook_title, py_download
from pytorch_notes.settings import DOCS_DIR, LANGUAGES, REPO_ROOT
from pytorch_notes.site import notebook_css
from pytorch_notes.site.embed import py_url, shown_example
from pytorch_notes.site.urls import notebook_page_dest, notebook_urls, page_url
from pytorch_notes.store.layout import record_path


def _embedding_pages() -> dict[str, dict[str, tuple[str, str]]]:
    """For each language: example id -> (page path under docs/<lang>/, page title) of its first embed."""
    found: dict[str, dict[str, tuple[str, str]]] = {}
    for lang in LANGUAGES:
        found[lang] = {}
        for rel_page, path in language_pages(lang).items():
            try:
                heading, embeds = page_outline(path, f"docs/{lang}/{rel_page}")
            except PageError:
                continue  # reported with its line by on_page_markdown
            title = heading or rel_page
            for e in embeds:
                found[lang].setdefault(e.rel, (rel_page, title))
    return found


def absolute_page_url(config, lang: str, page: str) -> str:
    """The public URL of page ``page`` (e.g. ``autograd.md``) in ``lang``, from ``site_url``; "" without one.

    Used in files that leave the site (the ``.ipynb`` and ``.py`` downloads), where a relative link
    would break. Always the directory-URL form, the deployed site's (the offline copy's own links are
    ``.html`` ones, but a downloaded file points at the site on the web).
    """
    base = (config.site_url or "").strip()
    if not base.startswith(("http://", "https://")):
        return ""
    prefix = "" if lang == LANGUAGES[0] else f"{lang}/"
    return base.rstrip("/") + "/" + prefix + page_url(page, True)


def _write_if_changed(path: Path, text: str) -> None:
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


class _KeepEverything(set):
    """A 'used cache paths' set that contains every path, so nothing is evicted."""

    def __contains__(self, item) -> bool:
        return True


_WRITTEN_INDEX = REPO_ROOT / ".cache" / "pytorch-notes" / "notebooks.json"
_RENDERER = [Path(notebook_module.__file__), Path(comments_module.__file__), Path(kinds_module.__file__)]


def _renderer_version() -> str:
    """A digest of the code that renders a notebook: a change to it rewrites every notebook."""
    return hashlib.sha256(b"".join(p.read_bytes() for p in _RENDERER)).hexdigest()[:16]


def _load_written() -> dict[str, list]:
    try:
        data = json.loads(_WRITTEN_INDEX.read_text(encoding="utf-8"))
        return data if isinstance(data, dict) else {}
    except (OSError, ValueError):
        return {}


def write_notebooks(config, write: bool = True) -> None:
    """Write the notebooks of all embedded, captured examples (of every language); delete ones no
    longer wanted. ``write=False`` (the other languages' builds inside the first, which wrote them)
    only keeps mkdocs-jupyter's cache, as below.

    Also keep mkdocs-jupyter's render cache across languages: it evicts every entry the
    current build did not use, so under i18n each language build wiped the other's and
    every build re-rendered every notebook (measured: 32 s instead of ~10 s for 57
    examples). ``make clean`` empties the cache.

    A notebook whose inputs (the rendering code, the example's source, its record file, language,
    title, chapter URL) and file are unchanged since it was last written is not rebuilt: the inputs and
    the file's stat are kept in ``.cache/pytorch-notes/notebooks.json`` (~0.5 s of a warm build).
    """
    jupyter = config.plugins.get("mkdocs-jupyter")
    if jupyter is not None:
        jupyter._used_cache_paths = _KeepEverything()
    if not write:
        return
    embedding = _embedding_pages()
    _EMBEDDING.clear()
    _EMBEDDING.update(embedding)
    written, version = _load_written(), _renderer_version()
    for lang in LANGUAGES:
        root = DOCS_DIR / lang / "notebooks"
        wanted = set()
        for rel, (page, title) in embedding[lang].items():
            example, record = shown_example(rel)
            if record is None:
                continue
            target = root / (rel[:-3] + ".ipynb")
            wanted.add(target)
            chapter_url = absolute_page_url(config, lang, page)
            inputs = [version, example.sha256, stat_key(record_path(rel, record.device_kind)), lang, title,
                      chapter_url]
            entry = json.loads(json.dumps([inputs, stat_key(target)]))  # tuples as lists, as stored
            if written.get(str(target)) != entry:
                _write_if_changed(target, dumps(build_notebook(record, lang, title, chapter_url, example)))
                written[str(target)] = [inputs, stat_key(target)]
        for stale in root.rglob("*.ipynb") if root.exists() else []:
            if stale not in wanted:
                stale.unlink()
                written.pop(str(stale), None)
    _WRITTEN_INDEX.parent.mkdir(parents=True, exist_ok=True)
    tmp = _WRITTEN_INDEX.with_name(f".{_WRITTEN_INDEX.name}.{os.getpid()}.tmp")
    tmp.write_text(json.dumps(written), encoding="utf-8")
    os.replace(tmp, _WRITTEN_INDEX)


def stamp_py_downloads(files, config, lang: str = LANGUAGES[0]) -> None:
    """Make each example's ``.py`` download of ``lang`` (``embed.py_url``: ``examples/<chapter>/<name>.py``
    in the site, ``<lang>/examples/…`` for a language other than the default) the example with its
    comments in ``lang`` (``comments.localize``) under a comment header: where the outputs the site
    shows were captured, and the chapter page of ``lang`` (absolute URL) that explains it. The file
    under ``examples/`` is not changed: the site serves a generated copy.

    Runs once the ``.py`` Files exist (``embed.example_files``, on_files); files not yet there are left
    alone. A download whose example ``parse_example`` refuses (a symbolic link, a folder, not UTF-8, ...)
    is taken out of the site: its file is never copied (``embed.example_files`` logged why).
    """
    embedding = _embedding_pages_cached()
    prefix = py_url(lang, "")
    for f in list(files):
        src = f.src_uri
        if not (src.startswith(prefix) and src.endswith(".py")) or src.startswith(prefix + "_"):
            continue
        rel = src[len(prefix):]
        try:
            source = parse_example(resolve_example(rel)).path.read_text(encoding="utf-8")
        except (ExampleError, OSError, ValueError):
            files.remove(f)
            continue
        page = embedding.get(lang, {}).get(rel)
        urls = [u for u in [absolute_page_url(config, lang, page[0]) if page else ""] if u]
        f.content_string = _py_download(source, shown_example(rel)[1], urls, lang)


def _py_download(source: str, record, urls: list[str], lang: str) -> str:
    """``render.notebook.py_download``, kept while its inputs are the same objects: every build (both
    languages, every rebuild under ``make serve``) stamps all 324 downloads again."""
    key = (source, id(record), tuple(urls), lang)
    found = _PY_DOWNLOADS.get(key)
    if found is None or found[0] is not record:
        if len(_PY_DOWNLOADS) > 2048:
            _PY_DOWNLOADS.clear()
        found = _PY_DOWNLOADS[key] = (record, py_download(source, record, urls, lang))  # holds the record
    return found[1]


_PY_DOWNLOADS: dict[tuple, tuple[object, str]] = {}


class _NotebookPage(File):
    """A notebook File served as a page (what mkdocs-jupyter's wrapper does, kept after i18n)."""

    def is_documentation_page(self) -> bool:
        return True

    def is_static_page(self) -> bool:
        return False


def as_page(f: File, site_dir: str, use_directory_urls: bool = True) -> File:
    nb = copy.copy(f)
    nb.__class__ = _NotebookPage
    # i18n copies mkdocs-jupyter's page path (.../index.html, or .html offline) or the raw .ipynb
    nb.dest_uri, nb.url = notebook_page_dest(f.dest_uri, use_directory_urls)
    nb.abs_dest_path = os.path.normpath(os.path.join(site_dir, nb.dest_uri))
    return nb


def add_notebook_alternates(page: File, lang: str, use_directory_urls: bool) -> None:
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
        twin.url = prefix + notebook_urls(example, use_directory_urls)[0]
        twin.dest_uri = notebook_page_dest(prefix + notebook_urls(example, False)[1], use_directory_urls)[0]
        alternates[other] = twin
    page.alternates = alternates




NOTEBOOK_TEXT = {
    "zh": {"label": "下载与章节", "ipynb_text": "下载 .ipynb", "py_text": "下载 .py",
           "chapter_text": "返回章节：{chapter}"},
    "en": {"label": "Downloads and chapter", "ipynb_text": "Download .ipynb", "py_text": "Download .py",
           "chapter_text": "Back to the chapter: {chapter}"},
}


def notebook_page_meta(page, config) -> None:
    """A notebook page's title (chapter · example, as its first heading; the file name in the nav),
    template and downloads.

    ``docs/overrides/notebook.html`` shows, under the title, the download buttons of the ``.ipynb``
    (copied beside the page by mkdocs-jupyter) and of the ``.py`` (the stamped copy of the page's
    language, see ``stamp_py_downloads``), and a link back to the chapter; all relative to the page.
    """
    src = page.file.src_uri
    lang = src.split("/", 1)[0] if src.split("/", 1)[0] in LANGUAGES else LANGUAGES[0]
    rel = src.split("notebooks/", 1)[1][: -len(".ipynb")] + ".py"
    chapter_page, chapter = _embedding_pages_cached().get(lang, {}).get(rel, ("", ""))
    if chapter:
        # the window title names the chapter (docs/overrides/main.html reads meta.title); the nav lists
        # the page under its chapter, so there it is the file name alone
        page.meta["title"] = notebook_title(chapter, rel)
        page.title = rel.rsplit("/", 1)[-1]
    lang_root = "" if lang == LANGUAGES[0] else f"{lang}/"
    use_dir = config.use_directory_urls
    text = NOTEBOOK_TEXT.get(lang, NOTEBOOK_TEXT["en"])
    page.meta["template"] = "notebook.html"
    page.meta["pn_notebook"] = {
        "label": text["label"], "ipynb_text": text["ipynb_text"], "py_text": text["py_text"],
        "chapter_text": text["chapter_text"].format(chapter=chapter or rel),
        "ipynb": get_relative_url(lang_root + notebook_urls(rel, use_dir)[1], page.url),
        "py": get_relative_url(py_url(lang, rel), page.url),
        "chapter": get_relative_url(lang_root + page_url(chapter_page, use_dir), page.url) if chapter_page else "",
        "chapter_absolute": absolute_page_url(config, lang, chapter_page) if chapter_page else "",
    }


_EMBEDDING: dict[str, dict[str, tuple[str, str]]] = {}


def _embedding_pages_cached() -> dict[str, dict[str, tuple[str, str]]]:
    """``_embedding_pages()`` of this build (set by ``write_notebooks``), computed once if not set."""
    if not _EMBEDDING:
        _EMBEDDING.update(_embedding_pages())
    return _EMBEDDING


def slim_notebook_page(html: str, page, config) -> str:
    """Notebook pages: slim the content before search and templating see it, and set their title,
    template and downloads (``notebook_page_meta``).

    * nbconvert inlines its stylesheets (~590 KB, the same on every notebook page). Each
      block of at least ``notebook_css.NOTEBOOK_CSS_MIN`` characters moves to a content-addressed file
      under ``assets/notebook/`` and is linked in place (same cascade order), so a reader
      downloads it once instead of with every notebook page. mkdocs-jupyter's cache entry of
      the page is rewritten in that slim form on the way (``notebook_css``).
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
    notebook_page_meta(page, config)
    nb = page.meta["pn_notebook"]
    if nb["chapter_absolute"] and nb["chapter"]:
        # the header cell links the chapter by its absolute URL (for the downloaded file); on the
        # site itself the link stays relative, so it works under `make serve` and from file://
        html = html.replace(f'href="{nb["chapter_absolute"]}"', f'href="{nb["chapter"]}"')
    page.meta.setdefault("search", {})["exclude"] = True
    return notebook_css.link_stylesheets(html, page, config)


def point_edit_link_at_example(page, config) -> None:
    """Notebook pages are generated: point their edit link at the example script instead."""
    src = page.file.src_uri
    if src.endswith(".ipynb") and config.repo_url:
        rel = src.split("notebooks/", 1)[1][: -len(".ipynb")] + ".py"
        page.edit_url = config.repo_url.rstrip("/") + f"/edit/main/examples/{rel}"


def serve_notebooks_as_pages(files, config, lang: str) -> None:
    """Turn the generated notebooks back into pages after mkdocs-static-i18n re-created every File
    (it drops mkdocs-jupyter's wrapper, see shared/STACK.md), with their language alternates."""
    for f in list(files):
        if f.src_uri.endswith(".ipynb") and "/notebooks/" in f"/{f.src_uri}":
            page = as_page(f, config.site_dir, config.use_directory_urls)
            alternates = getattr(f, "alternates", None)
            if alternates:
                page.alternates = {k: (page if k == lang else as_page(v, config.site_dir, config.use_directory_urls))
                                   for k, v in alternates.items()}
            add_notebook_alternates(page, lang, config.use_directory_urls)
            files.remove(f)
            files.append(page)
