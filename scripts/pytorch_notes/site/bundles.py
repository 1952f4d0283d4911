""""Download all": one zip of a chapter's examples per chapter and language, and one of the whole course
per language, generated at build time from the bytes of the site's own per-example downloads.

* A chapter is a hand-written page that embeds examples (``pages.page_outline``); its zip holds, for each
  example it embeds (in page order, once each), the ``.py`` download of the page's language (the
  ``File`` that ``notebooks.stamp_py_downloads`` stamped, byte for byte) and the example's ``.ipynb``
  download (``notebooks/<chapter>/<name>.ipynb``, a file ``notebooks.NotebookSite`` generated), under one
  folder named after
  the chapter, ``pytorch-notes-<chapter>/``, with a ``README.txt`` in the page's language: what is
  inside, the chapter's address when ``site_url`` is set, how to run it. Site path:
  ``downloads/pytorch-notes-<chapter>.zip`` (``<lang>/downloads/…`` for a language other than the
  default, as the ``.py`` downloads).
* The course zip, ``downloads/pytorch-notes.zip``, holds every chapter's files under
  ``pytorch-notes/<chapter>/`` (the layout of ``examples/``) and one ``README.txt`` listing the chapters
  in course order.

Where the links go. On a chapter page the link sits right under the title, after the line saying where
the chapter's examples last ran (``times.page_verification``): a reader who wants to run the chapter
locally decides that before reading on, not after scrolling past every example, and the line above it
already speaks of "the N examples of this chapter", which the link then offers. On the home page it is
one more button in the row of buttons under the introduction ("start with the first chapter",
"glossary"), where a reader looks for what to do with the course; a home page without such a row gets it
as a paragraph under its title. Both are raw HTML with a URL relative to the page, so they work under
``make serve``, on the deployed site and in the offline copy; ``docs/*.md`` are not edited.

Determinism and cost. Members are sorted, every one has the same fixed time stamp (1980-01-01, the
earliest a zip can hold), permissions and "made on" system, so the same inputs give the same bytes, and
``make serve`` (``sitedir.keep_unchanged_generated_files``) does not rewrite an unchanged zip. Deflating
the ~3 MB of each language twice (chapters and course) costs ~0.2 s, so a zip is kept in
``.cache/pytorch-notes/bundles/<key>.zip``, the key being a digest of its member names and contents, this
module's code and the zlib version; a warm build only hashes the members (~10 ms) and reads the zips.
"""

from __future__ import annotations

import hashlib
import html
import io
import json
import os
import re
import sys
import time
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path

from mkdocs.structure.files import File
from mkdocs.utils import get_relative_url

from pytorch_notes.pages import PageError, language_pages, page_outline, prose_lines
from pytorch_notes.render.strings import STRINGS, plural
from pytorch_notes.settings import DOCS_DIR, LANGUAGES, REPO_ROOT
from pytorch_notes.site.embed import py_url
from pytorch_notes.site.urls import absolute_page_url, example_ipynb_url

PREFIX = "pytorch-notes"  # the course zip, its folder, and the start of every chapter's
DATE_TIME = (1980, 1, 1, 0, 0, 0)  # every member's time stamp: the earliest a zip holds
COMPRESS_LEVEL = 6
CACHE_DIR = REPO_ROOT / ".cache" / "pytorch-notes" / "bundles"
CACHE_MAX_AGE_S = 7 * 24 * 3600  # a cached zip not used for a week is removed when a new one is written
# A cell marker with the option raises= (``parse._CELL_RE``; the .py download keeps markers as written):
# the example has a cell meant to raise, which the README explains.
RAISES = re.compile(rb"^# %%[^\n]*\braises=", re.M)


@dataclass(frozen=True)
class Chapter:
    """A page that embeds examples: ``page`` (e.g. ``autograd.md``, relative to ``docs/<lang>/``), its
    title and the examples it embeds (ids like ``autograd/backward.py``, in page order, once each)."""

    page: str
    title: str
    examples: tuple[str, ...]

    @property
    def slug(self) -> str:
        """``autograd`` for ``autograd.md`` (``a-b`` for ``a/b.md``)."""
        return self.page[: -len(".md")].replace("/", "-")

    @property
    def folder(self) -> str:
        """The folder inside the chapter's zip, and the zip's name without ``.zip``."""
        return f"{PREFIX}-{self.slug}"


def chapter_url(lang: str, chapter: Chapter) -> str:
    """Site path of a chapter's zip in ``lang``: ``downloads/pytorch-notes-<chapter>.zip``, under
    ``<lang>/`` for a language other than the default."""
    return _lang_root(lang) + f"downloads/{chapter.folder}.zip"


def course_url(lang: str) -> str:
    """Site path of the course zip in ``lang``."""
    return _lang_root(lang) + f"downloads/{PREFIX}.zip"


def _lang_root(lang: str) -> str:
    return "" if lang == LANGUAGES[0] else f"{lang}/"


# --- the zip itself (no MkDocs) ------------------------------------------------------------------------

def zip_bytes(members: dict[str, bytes]) -> bytes:
    """A deflated zip of ``members`` (path inside the zip -> content), the same bytes for the same
    members: sorted by path, each with the time stamp ``DATE_TIME``, mode 0644 and "made on" Unix."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for name in sorted(members):
            info = zipfile.ZipInfo(name, date_time=DATE_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.create_system = 3  # Unix, wherever it is built, so that the mode below is read
            info.external_attr = 0o100644 << 16  # a regular file, rw-r--r--
            zf.writestr(info, members[name], compresslevel=COMPRESS_LEVEL)
    return buf.getvalue()


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


_CODE = _digest(Path(__file__).read_bytes())  # a change to this module makes new zips


class ZipCache:
    """Zips kept in memory, for the rebuilds of one process (``make serve``), and in ``cache_dir`` (None:
    memory only)."""

    def __init__(self, cache_dir: Path | None = CACHE_DIR) -> None:
        self.cache_dir = cache_dir
        self.memory: dict[str, bytes] = {}  # key -> zip

    def zip(self, members: dict[str, bytes], digests: dict[str, str] | None = None) -> bytes:
        """``zip_bytes(members)``, kept under a digest of the members (``digests`` gives the sha256 of
        contents already hashed), this module's code, Python's and zlib's versions. Unwritable or
        unreadable cache files are ignored."""
        digests = digests or {}
        listing = sorted((name, digests.get(name) or _digest(data)) for name, data in members.items())
        versions = [_CODE, sys.version_info[:2], zlib.ZLIB_RUNTIME_VERSION, COMPRESS_LEVEL]  # zipfile's, zlib's
        key = _digest(json.dumps([versions, listing]).encode())
        found = self.memory.get(key)
        if found is not None:
            return found
        path = self.cache_dir / f"{key}.zip" if self.cache_dir is not None else None
        if path is not None:
            try:
                found = path.read_bytes()
                os.utime(path)  # used: kept by the pruning below
            except OSError:
                found = None
        if found is None:
            found = zip_bytes(members)
            if path is not None:
                _store(path, found)
        self.memory[key] = found
        return found

    def keep(self, limit: int) -> None:
        """Keep the memory to the last ``limit`` zips."""
        while len(self.memory) > limit:
            self.memory.pop(next(iter(self.memory)))


def _store(path: Path, data: bytes) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        tmp.write_bytes(data)
        os.replace(tmp, path)
        old = time.time() - CACHE_MAX_AGE_S
        for other in path.parent.glob("*.zip"):
            if other.stat().st_mtime < old:
                other.unlink(missing_ok=True)
    except OSError:
        pass  # a cache: the zip is served all the same


# --- README.txt ----------------------------------------------------------------------------------------

def chapter_readme(lang: str, site_name: str, chapter: Chapter, url: str, raises: bool) -> str:
    """The ``README.txt`` of a chapter's zip in ``lang``: what is inside, the chapter's address ``url``
    (left out when empty), how to run the examples; ``raises``: some example has a cell meant to raise."""
    t = STRINGS[lang]
    names = [rel.rsplit("/", 1)[-1][: -len(".py")] for rel in chapter.examples]
    width = max((len(n) + len(".py") for n in names), default=0)
    parts = [t["bundle_readme_title"].format(site=site_name, title=chapter.title),
             t["bundle_readme_chapter"].format(n=len(names)),
             "\n".join([t["bundle_readme_examples"]] + [f"    {n + '.py':<{width}}  {n}.ipynb" for n in names])]
    if url:
        parts.append(t["bundle_readme_site"].format(url=url))
    parts.append(t["bundle_readme_run"].format(folder=chapter.folder, name=names[0] if names else "example"))
    if raises:
        parts.append(t["bundle_readme_raises"])
    return "\n\n".join(parts) + "\n"


def course_readme(lang: str, site_name: str, chapters: list[Chapter], url: str, raises: bool) -> str:
    """The ``README.txt`` of the course zip in ``lang``: the chapters in course order with their folders."""
    t = STRINGS[lang]
    n = sum(len(c.examples) for c in chapters)
    width = max((len(c.slug) + 1 for c in chapters), default=0)
    lines = [t["bundle_readme_chapters"]] + [
        "    " + t["bundle_readme_chapter_line"].format(folder=f"{c.slug + '/':<{width}}", title=c.title,
                                                      n=len(c.examples))
        for c in chapters]
    first = chapters[0] if chapters else None
    parts = [t["bundle_readme_title"].format(site=site_name, title=t["bundle_readme_everything"]),
             t["bundle_readme_course"].format(chapters=len(chapters), n=n),
             "\n".join(lines)]
    if url:
        parts.append(t["bundle_readme_site"].format(url=url))
    if first is not None and first.examples:
        name = first.examples[0].rsplit("/", 1)[-1][: -len(".py")]
        parts.append(t["bundle_readme_run"].format(folder=f"{PREFIX}/{first.slug}", name=name))
    if raises:
        parts.append(t["bundle_readme_raises"])
    return "\n\n".join(parts) + "\n"


# --- the chapters of a language ------------------------------------------------------------------------

def chapters(lang: str, nav_order: list[str] | None = None, docs_dir: Path = DOCS_DIR) -> list[Chapter]:
    """The pages of ``lang`` that embed examples, in ``nav_order`` (page paths; pages not in it follow,
    sorted). A page whose embeds are malformed is left out (``on_page_markdown`` stops the build on it)."""
    found = []
    for rel, path in language_pages(lang, docs_dir).items():
        try:
            heading, embeds = page_outline(path, f"docs/{lang}/{rel}")
        except (PageError, OSError):
            continue
        examples = tuple(dict.fromkeys(e.rel for e in embeds))
        if examples:
            found.append(Chapter(rel, heading or rel[: -len(".md")], examples))
    order = {page: i for i, page in enumerate(nav_order or [])}
    return sorted(found, key=lambda c: (order.get(c.page, len(order)), c.page))


def nav_pages(nav) -> list[str]:
    """The Markdown pages of a ``nav`` setting (``config.nav``: nested lists and one-key dicts), in order."""
    out: list[str] = []

    def walk(item) -> None:
        if isinstance(item, str):
            if item.endswith(".md"):
                out.append(item)
        elif isinstance(item, dict):
            for value in item.values():
                walk(value)
        elif isinstance(item, list):
            for value in item:
                walk(value)

    walk(nav)
    return out


# --- MkDocs: the zips as files, the links on the pages ------------------------------------------------

class Bundles:
    """The zips of the plugin's builds and the chapters that have one (``links``: lang -> chapter page ->
    chapter, of the current build), which the pages link to."""

    def __init__(self, zips: ZipCache | None = None) -> None:
        self.zips = ZipCache() if zips is None else zips
        self.links: dict[str, dict[str, Chapter]] = {}

    def add_bundles(self, files, config, lang: str) -> None:
        """``on_files``, after ``NotebookSite.stamp_py_downloads``: add the zips of ``lang`` to the site.

        A chapter's example whose ``.py`` download is not in the site (refused by ``Embeds.example_files``,
        which logged why) is left out of the zips; one without a notebook (never captured) gives its ``.py``
        only, as on the page.
        """
        found = chapters(lang, nav_pages(config.nav or []))
        by_src = {f.src_uri: f for f in files}  # (i18n's get_file_from_path walks paths: 40 ms for 324 calls)
        contents: dict[str, bytes] = {}  # <chapter>/<name>.py or .ipynb -> the bytes the site serves
        per_chapter: list[tuple[Chapter, dict[str, str]]] = []  # chapter, name in its folder -> key of contents
        raises_in: set[str] = set()
        for chapter in found:
            names: dict[str, str] = {}
            kept = []
            for rel in chapter.examples:
                py = by_src.get(py_url(lang, rel))
                if py is None:
                    continue
                kept.append(rel)
                name, stem = rel.rsplit("/", 1)[-1], rel[: -len(".py")]
                contents[rel] = data = py.content_bytes
                names[name] = rel
                if RAISES.search(data):
                    raises_in.add(chapter.page)
                notebook = by_src.get(_lang_root(lang) + example_ipynb_url(rel))  # the example's .ipynb download
                if notebook is not None and notebook.abs_src_path:
                    try:
                        contents[stem + ".ipynb"] = Path(notebook.abs_src_path).read_bytes()
                        names[name[: -len(".py")] + ".ipynb"] = stem + ".ipynb"
                    except OSError:
                        pass
            if kept:
                per_chapter.append((Chapter(chapter.page, chapter.title, tuple(kept)), names))
        digests = {key: _digest(data) for key, data in contents.items()}

        site_name = config.site_name or PREFIX
        course: dict[str, bytes] = {}
        course_digests: dict[str, str] = {}
        self.links[lang] = {}
        for chapter, names in per_chapter:
            readme = chapter_readme(lang, site_name, chapter, absolute_page_url(config, lang, chapter.page),
                                    chapter.page in raises_in).encode("utf-8")
            members = {f"{chapter.folder}/README.txt": readme}
            member_digests = {}
            for name, key in names.items():
                members[f"{chapter.folder}/{name}"] = contents[key]
                member_digests[f"{chapter.folder}/{name}"] = digests[key]
                course[f"{PREFIX}/{chapter.slug}/{name}"] = contents[key]
                course_digests[f"{PREFIX}/{chapter.slug}/{name}"] = digests[key]
            files.append(File.generated(config, chapter_url(lang, chapter),
                                        content=self.zips.zip(members, member_digests)))
            self.links[lang][chapter.page] = chapter
        if per_chapter:
            kept = [c for c, _ in per_chapter]
            home = absolute_page_url(config, lang, "index.md")
            course[f"{PREFIX}/README.txt"] = course_readme(lang, site_name, kept, home, bool(raises_in)).encode("utf-8")
            files.append(File.generated(config, course_url(lang), content=self.zips.zip(course, course_digests)))
        # the memory keeps the zips of the last few builds (each language, chapters and course)
        self.zips.keep(4 * (sum(len(v) for v in self.links.values()) + len(self.links)))

    def chapter_link(self, page, config, lang: str) -> str:
        """``on_page_markdown``: the paragraph linking a chapter page to its zip (relative URL), or "" for a
        page without one. Placed under the title, after the verification line (the module's docstring)."""
        chapter = self.links.get(lang, {}).get(_page_rel(page)[1])
        if chapter is None:
            return ""
        href = get_relative_url(chapter_url(lang, chapter), page.file.url)
        text = plural(STRINGS[lang], "bundle_chapter", len(chapter.examples)).format(n=len(chapter.examples))
        link = f'<a href="{html.escape(href)}" download>{html.escape(text)}</a>'
        return f'<p class="pn-bundle" data-search-exclude="true">{link}</p>'

    def home_link(self, markdown: str, page, config, lang: str) -> str:
        """``on_page_markdown``: the home page (``index.md`` of a language) with a button to the course zip,
        appended to its first row of buttons (a line with ``.md-button``), or a paragraph under its title."""
        if _page_rel(page)[1] != "index.md" or not self.links.get(lang):
            return markdown
        href = html.escape(get_relative_url(course_url(lang), page.file.url))
        text = html.escape(STRINGS[lang]["bundle_course"])
        button = f'<a class="md-button pn-bundle" href="{href}" download>{text}</a>'
        lines = markdown.split("\n")
        for n, line in prose_lines(markdown):  # not a line of a code block or an HTML comment
            if ".md-button" in line and line.rstrip().endswith("}") and lines[n - 1: n] == [line]:
                lines[n - 1] = line.rstrip() + " " + button
                return "\n".join(lines)
        at = next((i + 1 for i, ln in enumerate(lines) if ln.startswith("# ")), 0)
        return "\n".join(lines[:at] + ["", f'<p class="pn-bundle">{button}</p>', ""] + lines[at:])


def _page_rel(page) -> tuple[str, str]:
    """(language, path under ``docs/<lang>/``) of a page."""
    src = page.file.src_uri
    head, _, rest = src.partition("/")
    return (head, rest) if head in LANGUAGES and rest else (LANGUAGES[0], src)





