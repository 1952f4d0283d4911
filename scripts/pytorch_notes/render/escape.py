"""The renderer's one path for untrusted text: every field of a record and everything an example printed
goes through here on its way to a page or a notebook (``html.py``, ``notebook.py``, ``kinds.py``).

* ``clean_text`` (several lines) and ``field`` (one short line) remove control characters and escape
  sequences, and show bidi, zero-width and other invisible characters as ``⟨U+XXXX⟩``
  (``store.untrusted.page_text``, ``one_line``; the policy is ``characters.py``'s); ``page_provenance``
  does it to every text field of a provenance; ``safe_rel`` makes a record's name for its example
  safe to build paths from;
* ``one_html_line`` keeps a raw HTML block on one line (the templates' filter ``oneline``, ``templating.py``,
  escapes a text and applies it; escaping HTML is the templates' own);
  ``markdown_text`` makes a line safe where Markdown processes it (a tab title, a notebook's header);
* ``sanitize_html`` reduces a ``text/html`` result to an allow-list with nh3 (nothing that loads a
  resource), or says nh3 is missing.

No MkDocs import; nh3 only when rendering pages.
"""

from __future__ import annotations

import re
import string

from pytorch_notes.execute.streams import collapse_carriage_returns
from pytorch_notes.store.model import Provenance
from pytorch_notes.store.untrusted import clean_provenance, one_line, page_text


def clean_text(text: str) -> str:
    """Captured text as a terminal would have left it: control characters and escape sequences (ANSI
    colours, OSC titles, ...) removed, invisible and bidi characters shown as ``⟨U+XXXX⟩``
    (``store.untrusted.page_text``), carriage-return
    rewrites (progress bars) collapsed with the rule the capture applies
    (``execute.streams.collapse_carriage_returns``), so older records display the same way."""
    return collapse_carriage_returns(page_text(text)).removesuffix("\r")


def field(text: str, limit: int | None = None) -> str:
    """A short field of a record (a device name, a version, a location, a figure's alt text) on one
    line, without control characters, at most ``limit`` characters (``store.untrusted.one_line``)."""
    return one_line(text) if limit is None else one_line(text, limit)


def page_provenance(p: Provenance) -> Provenance:
    """``p`` with every text field passed through ``field`` (``store.untrusted.clean_provenance``)."""
    return clean_provenance(p)


_MD_SAFE = frozenset(" .,-+/()'")  # ASCII punctuation without a meaning in inline Markdown
_MD_ESCAPE = {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "'",
              **{c: f"&#{ord(c)};" for c in string.punctuation if c not in _MD_SAFE and c not in '&<>"'}}


def markdown_text(text: str) -> str:
    """``text`` on one line, as inline Markdown that shows exactly that text (a tab title, a line of a
    notebook's Markdown header).

    HTML-escaped (``& < >``, and ``"`` replaced by ``'`` since a tab title is quoted), and every other
    ASCII punctuation character but ``. , - + / ( ) '`` written as a numeric character reference
    (``[`` as ``&#91;``, ``*`` as ``&#42;``, ``:`` as ``&#58;``): Python-Markdown and CommonMark show a
    reference as its character and never read it as syntax, so nothing in ``text`` becomes a tag, a
    link, emphasis, code, an emoji, an attribute list, or leaves the quotes of a title. Letters, digits,
    spaces and non-ASCII characters are kept (``NVIDIA H100 · CUDA 13.0`` stays as it is).
    """
    flat = " ".join(page_text(text).split())
    return "".join(_MD_ESCAPE.get(c, c) for c in flat)


def safe_rel(rel: str) -> str:
    """An example's path as a record names it (``ch/name.py``), reduced to ASCII letters, digits and
    ``_ . -`` in ``/``-separated parts, none of them ``.`` or ``..``: what a site path, a file name, inline
    code and a comment line can all hold. A real example's path is unchanged; a forged one cannot leave
    the site's ``outputs/`` folder, nor a comment line of the ``.py`` download."""
    parts = [re.sub(r"[^A-Za-z0-9_.-]", "_", part) for part in field(rel).split("/") if part]
    return "/".join(part if part.strip(".") else "_" for part in parts) or "_"


# Every character ``str.splitlines`` ends a line at (the embed stores each line of a rendered example that
# starts with "<" in Markdown's HTML stash, site/embed.py): written as a character reference, a raw HTML
# block stays one line, and no part of it is left for Markdown to read as links, emphasis or emoji.
_LINE_BREAKS = {ord(c): f"&#{ord(c)};" for c in "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"}


def one_html_line(markup: str) -> str:
    """``markup`` (HTML) on one line: every line break (``\\n``, ``\\r``, U+2028, ...) as a character reference."""
    return markup.translate(_LINE_BREAKS)


# What a text/html result may hold: text, tables, lists and links, nothing that loads a resource (no img,
# iframe, audio, video, source, track, picture, object, embed, svg, math, link, style, form, input),
# runs code, or takes the page's look (no style or class attribute, no heading that would enter the
# page's outline or the search index as a section).
HTML_TAGS = frozenset({
    "a", "abbr", "b", "blockquote", "br", "caption", "code", "col", "colgroup", "dd", "del", "details",
    "div", "dl", "dt", "em", "hr", "i", "ins", "kbd", "li", "mark", "ol", "p", "pre", "q", "s", "samp",
    "small", "span", "strong", "sub", "summary", "sup", "table", "tbody", "td", "tfoot", "th", "thead",
    "tr", "u", "ul", "var", "wbr"})
HTML_ATTRIBUTES = {
    "a": {"href", "title"}, "abbr": {"title"}, "col": {"span"}, "colgroup": {"span"}, "details": {"open"},
    "ol": {"start"}, "td": {"colspan", "rowspan", "headers"}, "th": {"colspan", "rowspan", "headers", "scope"}}
HTML_URL_SCHEMES = frozenset({"http", "https", "mailto"})
HTML_LINK_REL = "nofollow noopener noreferrer"


def sanitize_html(markup: str) -> str | None:
    """``markup`` reduced to an explicit allow-list with nh3, or None when nh3 is not installed.

    Kept: the tags of ``HTML_TAGS`` (text, tables such as a DataFrame's, lists, links) with the
    attributes of ``HTML_ATTRIBUTES``; the content of ``script`` and ``style`` is dropped, the tags of
    anything else are dropped and their text kept. A link's ``href`` may be ``http``, ``https``,
    ``mailto`` or relative (a path or a ``#fragment``); another scheme (``javascript:``, ``data:``)
    loses the ``href``. Every link is kept and gets ``rel="nofollow noopener noreferrer"`` (nh3's
    ``link_rel``): a reader may follow it, nothing is requested until they do. Nothing kept loads a
    resource (no image, frame, media, object, style sheet or ``style`` attribute), so a page makes no
    request to a third party whatever an example printed.
    """
    try:
        import nh3  # noqa: PLC0415 - only page rendering needs it
    except ImportError:
        return None
    return nh3.clean(page_text(markup), tags=set(HTML_TAGS), clean_content_tags={"script", "style"},
                     attributes={k: set(v) for k, v in HTML_ATTRIBUTES.items()}, strip_comments=True,
                     link_rel=HTML_LINK_REL, generic_attribute_prefixes=set(), url_schemes=set(HTML_URL_SCHEMES))
