"""What the MkDocs glue modules share: the logger and the page language."""

from __future__ import annotations

from mkdocs.plugins import get_plugin_logger

from pytorch_notes.settings import LANGUAGES

log = get_plugin_logger("pytorch_notes")


def page_language(config) -> str:
    """The language being built (the one owner): mkdocs-static-i18n's current one, else the theme's, else
    the default (``settings.LANGUAGES[0]``). A page's own language is its source's (``urls.src_language``)."""
    i18n = config.plugins.get("i18n")
    theme = getattr(config, "theme", None)
    return getattr(i18n, "current_language", None) or (theme.get("language") if theme else None) or LANGUAGES[0]
