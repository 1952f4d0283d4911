"""What the MkDocs glue modules share: the logger and the page language."""

from __future__ import annotations

from mkdocs.plugins import get_plugin_logger

from pytorch_notes.settings import LANGUAGES

log = get_plugin_logger("pytorch_notes")


def page_language(config) -> str:
    """The language being built (the one owner): the theme's, which mkdocs-static-i18n sets to each language
    it builds (its documented reconfiguration of Material, in its ``on_config``: read from ``on_files`` on),
    else the default (``settings.LANGUAGES[0]``). A page's own language is its source's (``urls.src_language``)."""
    theme = getattr(config, "theme", None)
    return (theme.get("language") if theme else None) or LANGUAGES[0]
