"""The weight of a search entry that lists the site's pages: a table of contents names every chapter's topic and is
no answer to a question about one.

The home page held a course map (a list per part of the course, each item a chapter's title and what it covers)
and an overview paragraph naming the chapters, and so it ranked for nearly every chapter query. Its front matter
lowered the whole page (``search: boost: 0.3``), and with it the sections that say how to use the site ("怎样看示例
和输出", "Course map"'s paragraph on where to start): "输出结果怎么看", "where to start learning pytorch" and "pytorch
学习路线 从零开始" did not find the home page. Keeping the course map out of the index instead
(``data-search-exclude``) left an entry per part heading, titled with the page's title and without text, which
ranked for every query naming PyTorch.

Here the build finds such entries by what they hold, in any page (``weigh_contents``), and gives them
``CONTENTS_BOOST``; the rest of the page keeps the weight of any page. An entry is a table of contents when

* most items of its lists begin with the title of another page of the site (the course map's parts, a
  chapter's "What's next" list), or
* it names at least ``NAMED_SHARE`` of the site's pages by their titles (the home page's overview).

An entry whose page sets its own ``search.boost`` (the glossary) keeps it. Standard library only;
``search.split_search_index`` calls it on each language's written entries.
"""

from __future__ import annotations

import html
import re

CONTENTS_BOOST = 0.3  # the home page's front-matter boost before (tests/search_queries.json, 2026-11-29)
LIST_SHARE = 0.6  # of an entry's list items that begin with a page's title
MIN_ITEMS = 2
NAMED_SHARE = 0.2  # of the site's pages an entry names by their titles
_ITEM = re.compile(r"<li>(.*?)</li>", re.S)
_TAG = re.compile(r"<[^>]+>")


def _plain(text: str) -> str:
    """``text`` without tags, jieba's word breaks (U+200B) and ``searchwords.WORD_END``, lower case."""
    return html.unescape(_TAG.sub("", text.replace("\u200b", "").replace("\u2060", ""))).strip().lower()


def page_titles(docs: list[dict]) -> dict[str, str]:
    """Page location (``quickstart/``, ``""`` for the home page) -> its title as plain lower-case text, from
    the page entries (a location without ``#``) of one language's index ``docs``."""
    return {d["location"]: _plain(d.get("title", "")) for d in docs if "#" not in d["location"]}


def is_contents(doc: dict, titles: dict[str, str]) -> bool:
    """Whether the entry ``doc`` lists the site's pages (module docstring); ``titles``: ``page_titles``. A page's
    own title counts only on other pages."""
    page = doc["location"].split("#")[0]
    return _is_contents(doc, tuple(t for loc, t in titles.items() if loc != page and len(t) >= 2), len(titles))


def _is_contents(doc: dict, others: tuple[str, ...], pages: int) -> bool:
    text = doc.get("text", "")
    if "<li>" in text:
        items = [_plain(i) for i in _ITEM.findall(text)]
        if len(items) >= MIN_ITEMS and sum(i.startswith(others) for i in items) >= LIST_SHARE * len(items):
            return True
    if "#" in doc["location"]:  # a section names a few pages at most; only page entries are counted
        return False
    plain = _plain(text)
    return sum(t in plain for t in others) >= max(MIN_ITEMS, NAMED_SHARE * pages)


def weigh_contents(docs: list[dict]) -> list[dict]:
    """``docs`` (one language's index entries) with ``boost: CONTENTS_BOOST`` on each table of contents
    (``is_contents``) whose page sets no boost of its own; the entries are not changed (a copy is made)."""
    titles = page_titles(docs)
    others: dict[str, tuple[str, ...]] = {}
    out = []
    for d in docs:
        page = d["location"].split("#")[0]
        if page not in others:
            others[page] = tuple(t for loc, t in titles.items() if loc != page and len(t) >= 2)
        out.append({**d, "boost": CONTENTS_BOOST} if "boost" not in d and _is_contents(d, others[page], len(titles))
                   else d)
    return out
