"""The chapters of a language: the hand-written pages that embed examples, in course order. Each gets a
notebook page (``notebooks``) and a zip of its examples (``bundles``)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pytorch_notes.pages import PageError, language_pages, page_outline

PREFIX = "pytorch-notes"  # the course zip, its folder, and the start of every chapter's


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


def chapters(lang: str, nav_order: list[str] | None, docs_dir: Path) -> list[Chapter]:
    """The pages of ``lang`` under ``docs_dir`` that embed examples, in ``nav_order`` (page paths; pages not
    in it follow, sorted). A page whose embeds are malformed is left out (``on_page_markdown`` stops the
    build on it)."""
    found = []
    for rel, path in language_pages(lang, docs_dir).items():
        try:
            title, embeds = page_outline(path, f"docs/{lang}/{rel}")
        except (PageError, OSError):
            continue
        examples = tuple(dict.fromkeys(e.rel for e in embeds))
        if examples:
            found.append(Chapter(rel, title or rel[: -len(".md")], examples))
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
