""""Download all": one zip of a chapter's examples per chapter and language, and one of the whole course
per language, generated at build time from the bytes of the site's own per-example downloads.

* A chapter is a hand-written page that embeds examples (``course.Course.chapters``); its zip holds, for
  each example it embeds (in page order, once each), the ``.py`` download of the page's language (the text
  ``downloads.Downloads`` serves, byte for byte) and the example's ``.ipynb`` download
  (``notebooks/<chapter>/<name>.ipynb``, a file ``notebooks.NotebookSite`` generated), under one
  folder named after the chapter, ``pytorch-notes-<chapter>/``, with a ``README.txt`` in the page's language: what is
  inside, the chapter's address when ``site_url`` is set, how to run it. Site path:
  ``downloads/pytorch-notes-<chapter>.zip`` (``<lang>/downloads/…`` for a language other than the
  default, as the ``.py`` downloads).
* The course zip, ``downloads/pytorch-notes.zip``, holds every chapter's files under
  ``pytorch-notes/<chapter>/`` (the layout of ``examples/``) and one ``README.txt`` listing the chapters
  in course order.

Where the links go. On a chapter page the link sits right under the title, after the line saying where
the chapter's examples last ran (``times.TimesPage.page_verification``), which speaks of "the N examples of
this chapter": a reader decides to run the chapter locally before reading on. On the home page it is one
more button in the row of buttons under the introduction ("start with the first chapter", "glossary"); a
home page without such a row gets it as a paragraph under its title. Both are raw HTML with a URL relative
to the page, so they work under ``make serve``, on the deployed site and in the offline copy;
``docs/*.md`` are not edited.

The same inputs give the same bytes, kept in memory and on disk (``zips``), so ``make serve``
(``sitedir.keep_unchanged_generated_files``) does not rewrite an unchanged zip. This module says what the
zips hold; ``downloads`` puts them in the site with the other downloads.
"""

from __future__ import annotations

import contextlib
from pathlib import Path

from mkdocs.utils import get_relative_url

from pytorch_notes.filememo import stat_key
from pytorch_notes.pages import prose_lines
from pytorch_notes.parse import cell_options
from pytorch_notes.render.strings import STRINGS, plural
from pytorch_notes.render.templating import PACKAGE
from pytorch_notes.site.course import PREFIX, Chapter, Course
from pytorch_notes.site.urls import absolute_page_url, lang_root, src_language
from pytorch_notes.site.zips import ZipCache, chapter_readme, course_readme, digest


def chapter_url(lang: str, chapter: Chapter) -> str:
    """Site path of a chapter's zip in ``lang``: ``downloads/pytorch-notes-<chapter>.zip``, under
    ``<lang>/`` for a language other than the default."""
    return lang_root(lang) + f"downloads/{chapter.folder}.zip"


def course_url(lang: str) -> str:
    """Site path of the course zip in ``lang``."""
    return lang_root(lang) + f"downloads/{PREFIX}.zip"


# --- the zips' contents, the links on the pages -------------------------------------------------------

class Bundles:
    """The zips of the plugin's builds and the chapters that have one (``links``: lang -> chapter page ->
    chapter, of the current build), which the pages link to; ``zips`` keeps them (in memory only when None)."""

    def __init__(self, zips: ZipCache | None = None) -> None:
        self.zips = ZipCache() if zips is None else zips
        self.links: dict[str, dict[str, Chapter]] = {}
        self.members: dict[tuple[str, str], tuple] = {}  # (lang, example) -> what ``_members`` found
        self.templates = PACKAGE  # the site's HTML templates (``templating.Templates``), set by each build

    def archives(self, config, course: Course, texts: dict[str, str],
                 notebooks: dict[str, Path]) -> list[tuple[str, bytes]]:
        """The zips of the chapters of ``course`` (the build's ``course.Course`` of the language being built)
        and of the whole course, as (site path, bytes), from the ``.py`` downloads the site serves in that
        language (``texts``: example -> its text) and the examples' ``.ipynb`` downloads (``notebooks``:
        example -> its file); the chapters that have one become ``links``. ``downloads.Downloads`` puts
        them in the site.

        A chapter's example without a ``.py`` download (refused, ``Downloads`` logged why) is left out of the
        zips; one without a notebook (never captured) gives its ``.py`` only, as on the page.
        """
        lang = course.lang
        out: list[tuple[str, bytes]] = []
        contents: dict[str, bytes] = {}  # <chapter>/<name>.py or .ipynb -> the bytes the site serves
        digests: dict[str, str] = {}  # and their sha256
        per_chapter: list[tuple[Chapter, dict[str, str]]] = []  # chapter, name in its folder -> key of contents
        raises_in: set[str] = set()
        for chapter in course.chapters:
            names: dict[str, str] = {}
            kept = []
            for rel in chapter.examples:
                if rel not in texts:
                    continue
                kept.append(rel)
                name, stem = rel.rsplit("/", 1)[-1], rel[: -len(".py")]
                notebook = notebooks.get(rel)  # the example's .ipynb download
                raises, members = self._members(lang, rel, texts[rel], str(notebook) if notebook else None)
                if raises:  # a cell meant to raise, which the README explains
                    raises_in.add(chapter.page)
                contents[rel], digests[rel] = members[0]
                names[name] = rel
                if len(members) > 1:
                    contents[stem + ".ipynb"], digests[stem + ".ipynb"] = members[1]
                    names[name[: -len(".py")] + ".ipynb"] = stem + ".ipynb"
            if kept:
                per_chapter.append((Chapter(chapter.page, chapter.title, tuple(kept)), names))

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
            out.append((chapter_url(lang, chapter), self.zips.zip(members, member_digests)))
            self.links[lang][chapter.page] = chapter
        if per_chapter:
            kept = [c for c, _ in per_chapter]
            home = absolute_page_url(config, lang, "index.md")
            course[f"{PREFIX}/README.txt"] = course_readme(lang, site_name, kept, home, bool(raises_in)).encode("utf-8")
            out.append((course_url(lang), self.zips.zip(course, course_digests)))
        # the memory keeps the zips of the last few builds (each language, chapters and course)
        self.zips.keep(4 * (sum(len(v) for v in self.links.values()) + len(self.links)))
        return out

    def _members(self, lang: str, rel: str, text: str, ipynb: str | None) -> tuple[bool, list[tuple[bytes, str]]]:
        """Whether the ``.py`` download ``text`` of example ``rel`` in ``lang`` has a cell meant to raise (it
        keeps the markers as written), and the (bytes, sha256) of it and of the notebook file ``ipynb`` (none
        when unreadable); kept while the download's text is the same object (``downloads.Downloads`` keeps
        it) and the notebook's stat is the same (``filememo.stat_key``)."""
        stamp = (ipynb, stat_key(ipynb) if ipynb else None)
        found = self.members.get((lang, rel))
        if found is None or found[0] is not text or found[1] != stamp:
            data = text.encode("utf-8")
            members = [(data, digest(data))]
            if ipynb:
                with contextlib.suppress(OSError):
                    notebook = Path(ipynb).read_bytes()
                    members.append((notebook, digest(notebook)))
            raises = any("raises" in options for _, options in cell_options(data.decode("utf-8"), rel))
            found = self.members[(lang, rel)] = (text, stamp, raises, members)
        return found[2], found[3]

    def chapter_link(self, page, config, lang: str) -> str:
        """``on_page_markdown``: the paragraph linking a chapter page to its zip (relative URL), or "" for a
        page without one. Placed under the title, after the verification line (the module's docstring)."""
        chapter = self.links.get(lang, {}).get(src_language(page.file.src_uri)[1])
        if chapter is None:
            return ""
        text = plural(STRINGS[lang], "bundle_chapter", len(chapter.examples)).format(n=len(chapter.examples))
        return self.templates.render("site/bundle_chapter.html", text=text,
                                     href=get_relative_url(chapter_url(lang, chapter), page.file.url))

    def home_link(self, markdown: str, page, config, lang: str) -> str:
        """``on_page_markdown``: the home page (``index.md`` of a language) with a button to the course zip,
        appended to its first row of buttons (a line with ``.md-button``), or a paragraph under its title."""
        if src_language(page.file.src_uri)[1] != "index.md" or not self.links.get(lang):
            return markdown
        def button(paragraph: bool) -> str:
            return self.templates.render("site/bundle_course.html", paragraph=paragraph,
                                         href=get_relative_url(course_url(lang), page.file.url),
                                         text=STRINGS[lang]["bundle_course"])

        lines = markdown.split("\n")
        for n, line in prose_lines(markdown):  # not a line of a code block or an HTML comment
            if ".md-button" in line and line.rstrip().endswith("}") and lines[n - 1: n] == [line]:
                lines[n - 1] = line.rstrip() + " " + button(False)
                return "\n".join(lines)
        at = next((i + 1 for i, ln in enumerate(lines) if ln.startswith("# ")), 0)
        return "\n".join(lines[:at] + ["", button(True), ""] + lines[at:])
