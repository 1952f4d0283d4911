"""The translation-lag banner: a notice on a page whose other language changed since the pair was synced."""

from __future__ import annotations

import html
from pathlib import Path

from mkdocs.utils import get_relative_url

from pytorch_notes.render.strings import STRINGS
from pytorch_notes.settings import LANGUAGES
from pytorch_notes.site.common import log
from pytorch_notes.site.urls import lang_root, src_language
from pytorch_notes.twins import TwinsError, page_lag


def twin_lag_banner(page, lang: str, docs_dir: Path) -> str:
    """An admonition for a page whose twin changed after the last sync (see scripts/twins.py): the ledger
    of the pages in ``docs_dir``."""
    rel = src_language(page.file.src_uri)[1]
    try:
        lag = page_lag(rel, docs_dir)
    except TwinsError as exc:
        log.warning(str(exc))
        return ""
    if lag is None or lang not in lag.stale:
        return ""
    other = next(lg for lg in LANGUAGES if lg != lang)
    t = STRINGS[lang]
    if lang in lag.changed or not lag.changed:
        title, body = t["lag_both_title"], t["lag_both_body"]
    else:
        url = lang_root(other) + page.file.url.removeprefix(lang_root(lang))
        title = t["lag_title"]
        # A raw HTML link, not a Markdown one: MkDocs validates Markdown links against the *source*
        # files (``../../a/`` from ``en/a.md`` is an "unrecognized relative link", which fails
        # ``--strict``), while this URL is the twin's built page, relative to this built page.
        body = t["lag_body"].format(changed=t[f"lang_{other}"],
                                    url=html.escape(get_relative_url(url, page.file.url), quote=True))
    log.info(f"docs/{page.file.src_uri}: translation may be out of date ({lag.describe()})")
    return f'!!! warning "{title}"\n\n    {body}\n'


def insert_after_h1(markdown: str, block: str) -> str:
    lines = markdown.split("\n")
    at = next((i + 1 for i, ln in enumerate(lines) if ln.startswith("# ")), 0)
    return "\n".join(lines[:at] + ["", block] + lines[at:])
