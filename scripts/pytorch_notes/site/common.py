"""What the MkDocs glue modules share: the logger and the page language."""

from __future__ import annotations

from mkdocs.plugins import get_plugin_logger

from pytorch_notes.settings import LANGUAGES

log = get_plugin_logger("pytorch_notes")


def page_language(config) -> str:
    i18n = config.plugins.get("i18n")
    return getattr(i18n, "current_language", None) or LANGUAGES[0]
