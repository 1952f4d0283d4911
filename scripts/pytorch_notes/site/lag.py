"""The translation-lag banner: a notice on a page whose other language changed since the pair was synced."""

from __future__ import annotations

import html

from mkdocs.utils import get_relative_url

from pytorch_notes.settings import LANGUAGES
from pytorch_notes.site.common import log
from pytorch_notes.site.urls import lang_root
from pytorch_notes.twins import TwinsError, page_lag

TWIN_BANNER = {
    "zh": ("译文可能已过期",
           "{changed}版在上次同步之后改过，这一页可能还没跟上。"
           "请以<a href=\"{url}\">{changed}版</a>为准；也欢迎帮忙更新本页。"),
    "en": ("This translation may be out of date",
           "The {changed} version changed after this page was last synced with it. "
           "When in doubt, read the <a href=\"{url}\">{changed} version</a>, or help update this page."),
}
LANGUAGE_LABELS = {"zh": {"zh": "中文", "en": "英文"}, "en": {"zh": "Chinese", "en": "English"}}
BOTH_CHANGED = {
    "zh": ("两种语言的版本可能不一致", "这一页的中文版和英文版在上次同步之后都改过，内容可能还没对齐。"),
    "en": ("The two languages may disagree", "Both the Chinese and the English version of this page changed "
           "since they were last synced."),
}


def twin_lag_banner(page, lang: str) -> str:
    """An admonition for a page whose twin changed after the last sync (see scripts/twins.py)."""
    rel = page.file.src_uri.split("/", 1)[1] if page.file.src_uri.split("/", 1)[0] in LANGUAGES else \
        page.file.src_uri
    try:
        lag = page_lag(rel)
    except TwinsError as exc:
        log.warning(str(exc))
        return ""
    if lag is None or lang not in lag.stale:
        return ""
    other = next(lg for lg in LANGUAGES if lg != lang)
    if lang in lag.changed or not lag.changed:
        title, body = BOTH_CHANGED[lang]
    else:
        url = lang_root(other) + page.file.url.removeprefix(lang_root(lang))
        title, template = TWIN_BANNER[lang]
        # A raw HTML link, not a Markdown one: MkDocs validates Markdown links against the *source*
        # files (``../../a/`` from ``en/a.md`` is an "unrecognized relative link", which fails
        # ``--strict``), while this URL is the twin's built page, relative to this built page.
        body = template.format(changed=LANGUAGE_LABELS[lang][other],
                               url=html.escape(get_relative_url(url, page.file.url), quote=True))
    log.info(f"docs/{page.file.src_uri}: translation may be out of date ({lag.describe()})")
    return f'!!! warning "{title}"\n\n    {body}\n'


def insert_after_h1(markdown: str, block: str) -> str:
    lines = markdown.split("\n")
    at = next((i + 1 for i, ln in enumerate(lines) if ln.startswith("# ")), 0)
    return "\n".join(lines[:at] + ["", block] + lines[at:])
