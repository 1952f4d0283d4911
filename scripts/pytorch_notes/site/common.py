"""What the MkDocs glue modules share: the logger, the page language, a page's first heading."""

from __future__ import annotations

from mkdocs.plugins import get_plugin_logger

from pytorch_notes.settings import LANGUAGES

log = get_plugin_logger("pytorch_notes")


def page_language(config) -> str:
    i18n = config.plugins.get("i18n")
    return getattr(i18n, "current_language", None) or LANGUAGES[0]


def first_heading(markdown: str) -> str | None:
    return next((ln[2:].strip() for ln in markdown.splitlines() if ln.startswith("# ")), None)
