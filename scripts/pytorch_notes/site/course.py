"""The course of one language in one build: its pages in course order, the chapters among them, their
embeds and the examples, made once per build and language (``Courses.of``) and handed to everything that
lists the course: the notebooks (``notebooks``), the zips (``bundles``), the computation-times page
(``times``), the home page's course map (``coursemap``) and the navigation (``nav``).

Course order is mkdocs.yml's ``nav`` (its Markdown pages, depth first, once each); a page of the language
that the nav leaves out follows, sorted by path. A chapter is a page that embeds examples: it gets a
notebook page and a zip, its examples in page order, once each. A page whose embeds are malformed is
kept with its error and is no chapter (``on_page_markdown`` stops the build on it, naming the line).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pytorch_notes.pages import Embed, PageError, language_pages, page_outline
from pytorch_notes.parse import discover_examples, discovered_id
from pytorch_notes.site.urls import chapter_slug

PREFIX = "pytorch-notes"  # the course zip, its folder, and the start of every chapter's
LEFT_OUT: tuple[str, ...] = ()  # nav sections the course map does not list (none today)


@dataclass(frozen=True)
class Chapter:
    """A page that embeds examples: ``page`` (e.g. ``autograd.md``, relative to ``docs/<lang>/``), its
    title and the examples it embeds (ids like ``autograd/backward.py``, in page order, once each)."""

    page: str
    title: str
    examples: tuple[str, ...]

    @property
    def slug(self) -> str:
        """``autograd`` for ``autograd.md`` (``a-b`` for ``a/b.md``): ``urls.chapter_slug``."""
        return chapter_slug(self.page)

    @property
    def folder(self) -> str:
        """The folder inside the chapter's zip, and the zip's name without ``.zip``."""
        return f"{PREFIX}-{self.slug}"


@dataclass(frozen=True)
class CoursePage:
    """A hand-written page of the language: ``page`` (relative to ``docs/<lang>/``), its file, its title
    (``pages.page_title``: the nav's name, None without one), its embeds (``pages.Embed``, in order) and,
    when ``page_outline`` refused it, why (``error``; then no embeds)."""

    page: str
    path: Path
    title: str | None
    embeds: tuple[Embed, ...] = ()
    error: str = ""


@dataclass(frozen=True)
class Section:
    """A section of the nav: its name in mkdocs.yml, its title in the course's language (mkdocs-static-i18n's
    ``nav_translations``) and its pages (as the nav lists them, existing or not)."""

    name: str
    title: str
    pages: tuple[str, ...]


@dataclass(frozen=True)
class Course:
    """The course of ``lang`` (module docstring): ``pages`` in course order, the nav's ``sections``, the
    ``chapters`` in course order and ``examples``, every example of the checkout: those the chapters embed
    (course order of their first embed), then any no page embeds (sorted; the tests forbid one)."""

    lang: str
    pages: tuple[CoursePage, ...]
    sections: tuple[Section, ...]
    chapters: tuple[Chapter, ...]
    examples: tuple[str, ...]

    def page(self, page: str) -> CoursePage | None:
        """The page ``page`` (relative to ``docs/<lang>/``), None when the language has none."""
        return next((p for p in self.pages if p.page == page), None)

    def chapter(self, page: str) -> Chapter | None:
        """The chapter of page ``page``, None for a page that embeds no example."""
        return next((c for c in self.chapters if c.page == page), None)

    def chapter_of(self, rel: str) -> Chapter | None:
        """The first chapter (course order) that embeds example ``rel``, None for an example no page embeds."""
        return next((c for c in self.chapters if rel in c.examples), None)


def make_course(lang: str, docs_dir: Path, examples_dir: Path, nav, translations: dict[str, str]) -> Course:
    """The course of ``lang`` from the pages in ``docs_dir/<lang>``, mkdocs.yml's ``nav`` (``config.nav``:
    nested lists and one-key dicts; None for none) with the section titles ``translations`` of ``lang``, and
    the examples in ``examples_dir``. Raises nothing for a bad page: it is kept with its ``error``."""
    found = language_pages(lang, docs_dir)
    listed = [p for p in dict.fromkeys(nav_pages(nav or [])) if p in found]
    pages = []
    for rel in listed + sorted(set(found) - set(listed)):
        try:
            title, embeds = page_outline(found[rel], f"docs/{lang}/{rel}")
        except (PageError, OSError) as exc:
            pages.append(CoursePage(rel, found[rel], None, (), str(exc)))
            continue
        pages.append(CoursePage(rel, found[rel], title, embeds))
    chapters = []
    for p in pages:
        examples = tuple(dict.fromkeys(e.rel for e in p.embeds))
        if examples:
            chapters.append(Chapter(p.page, p.title or p.page[: -len(".md")], examples))
    embedded = dict.fromkeys(rel for c in chapters for rel in c.examples)
    rest = [rel for rel in map(discovered_id, discover_examples(examples_dir)) if rel not in embedded]
    return Course(lang, tuple(pages), sections(nav, translations), tuple(chapters), tuple(embedded) + tuple(rest))


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


def sections(nav, translations: dict[str, str]) -> tuple[Section, ...]:
    """Each course section of ``nav`` (a top-level one-key dict whose value lists pages; not ``LEFT_OUT``)."""
    out = []
    for item in nav or []:
        if isinstance(item, dict):
            for name, pages in item.items():
                if name in LEFT_OUT or not isinstance(pages, list):
                    continue
                out.append(Section(name, translations.get(name, name), tuple(p for p in pages if isinstance(p, str))))
    return tuple(out)


def nav_translations(config, lang: str) -> dict[str, str]:
    """mkdocs-static-i18n's ``nav_translations`` of ``lang`` (its plugin config: a public setting)."""
    i18n = (getattr(config, "plugins", None) or {}).get("i18n")
    for language in getattr(getattr(i18n, "config", None), "languages", None) or []:
        if language.get("locale") == lang:
            return dict(language.get("nav_translations") or {})
    return {}


class Courses:
    """The course of each language in the current build of the pages in ``docs_dir`` and the examples in
    ``examples_dir``, made at its first ``of`` after ``new_build`` (kept by the plugin)."""

    def __init__(self, docs_dir: Path, examples_dir: Path) -> None:
        self.docs_dir, self.examples_dir = docs_dir, examples_dir
        self.made: dict[str, Course] = {}

    def new_build(self) -> None:
        """A build starts (outer ``on_config``): the pages may have changed since the last one."""
        self.made.clear()

    def of(self, lang: str, config) -> Course:
        """The course of ``lang`` in this build, from ``config``'s nav (every language's build has the same)."""
        if lang not in self.made:
            self.made[lang] = make_course(lang, self.docs_dir, self.examples_dir, getattr(config, "nav", None),
                                          nav_translations(config, lang))
        return self.made[lang]
