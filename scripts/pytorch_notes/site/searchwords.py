r"""Chinese words in the search index, and the vocabulary the browser segments a query with.

Material's search plugin segments Chinese text with jieba at build time (U+200B between words), but the
browser sees a query such as ``如何把张量放到GPU上`` as one term, and Material's own query segmenter
(``segment`` in its search worker) tests only words that end before the last character of a run, so a
query word whose first character is also a word of the index is cut to that character (``数据加载``
searched for ``数*`` and highlighted ``加``; squidfunk/mkdocs-material#3915, #3990).

Two facts make a query find the index's words:

* ``mark_words``: inside every Chinese word of the index, ``WORD_END`` (U+2060 WORD JOINER: invisible,
  neither a separator nor Han) stands between the characters: ``张量`` is indexed as ``张\u2060量``. A run
  of Han characters in a marked query word is then one character long, which Material's segmenter
  leaves alone, and lunr matches the word as the index holds it (and, as Material makes every term a
  prefix, its longer words too). The marker goes between the characters, not after them: the trimmer of
  lunr's multi-language pipeline strips a token's ends down to ``\w`` and Han characters, so a marker at
  the end would vanish from the index but not from the (wildcard, unprocessed) query.
* ``vocabulary``: the index's own Chinese words with their counts. ``docs/assets/search-chinese.js`` segments
  the query with them (the most probable split under the counts, as jieba splits with its dictionary),
  marks each word the same way and hands the result to Material. Query and index share one segmentation.

Standard library only; ``search.split_search_index`` calls it on each language's index.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

WORD_END = "\u2060"
HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"  # CJK unified ideographs (+ extension A, compatibility)
_RUN = re.compile(f"[{HAN}]{{2,}}")  # a word of two characters or more
_WORD = re.compile(f"[{HAN}]+")
MAX_WORD = 8  # characters; the browser tries words up to this length
VOCABULARY_FILE = "search/vocabulary.js"  # beside each language's search_index.json

# The Chinese stop words of lunr.zh (lunr-languages, shipped with Material as lunr/min/lunr.zh.min.js),
# which the index's stopWordFilter removes from the index and from queries.
_LUNR_ZH = Path("templates/assets/javascripts/lunr/min/lunr.zh.min.js")
_STOP_LIST = re.compile(r'generateStopWordFilter\("([^"]*)"')


def lunr_stop_words() -> frozenset[str]:
    """lunr.zh's stop words, read from the copy Material ships.

    Raises:
        RuntimeError: the file or its stop-word list is not where Material 9 keeps it.
    """
    import material  # noqa: PLC0415 - only the build imports Material

    path = Path(material.__file__).parent / _LUNR_ZH
    try:
        found = _STOP_LIST.search(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise RuntimeError(f"search: cannot read lunr.zh's stop words from {path}: {exc}") from None
    if not found:
        raise RuntimeError(f"search: no generateStopWordFilter(...) list in {path}")
    return frozenset(found.group(1).split())


def mark_words(text: str) -> str:
    """``text`` with ``WORD_END`` between the characters of each Chinese word (idempotent: a marked word
    is a run of one-character words). A word is a maximal run of Han characters; jieba's U+200B, spaces
    and punctuation end it. Single characters, among them lunr.zh's stop words, stay as they are."""
    return _RUN.sub(lambda m: WORD_END.join(m.group(0)), text)


# A Latin word as lunr keeps it (letters, digits, underscores), four characters or more, outside tags and entities
_LATIN = re.compile(r"(?<![A-Za-z0-9_])[A-Za-z][A-Za-z0-9_]{3,}")
_MARKUP = re.compile(r"<[^>]+>|&#?\w+;")


def vocabulary(docs: list[dict]) -> Counter:
    """Chinese word -> occurrences in the titles and texts of ``docs`` (marked or not; words longer
    than ``MAX_WORD`` left out), and lower-case Latin word (``_LATIN``) -> occurrences: the browser corrects
    a mistyped English word to one of them (``vocabulary_script``)."""
    counts: Counter = Counter()
    for doc in docs:
        for field in ("title", "text"):
            text = (doc.get(field) or "").replace(WORD_END, "")
            counts.update(w for w in _WORD.findall(text) if len(w) <= MAX_WORD)
            counts.update(w.lower() for w in _LATIN.findall(_MARKUP.sub(" ", text)))
    return counts


def mark_entry(doc: dict) -> dict:
    """A copy of an entry of a Material search index whose title and text are marked."""
    return {**doc, **{f: mark_words(doc[f]) for f in ("title", "text") if isinstance(doc.get(f), str)}}


def mark_index(index: dict) -> dict:
    """A copy of a Material search index (``{"config", "docs"}``) whose titles and texts are marked."""
    return {**index, "docs": [mark_entry(d) for d in index.get("docs", [])]}


def vocabulary_script(docs: list[dict] | Counter, stop: frozenset[str], messages: list[str] = ()) -> str:
    """The text of ``VOCABULARY_FILE``: a script setting ``window.__pnVocabulary`` to Chinese word -> count,
    ``window.__pnLatin`` to Latin word -> count, ``window.__pnStopWords``, ``window.__pnMessages``
    (``searchmessages.messages``) and ``window.__pnMaxWord`` (``MAX_WORD``, the longest word the split tries):
    a script, not JSON, so that ``make offline`` loads it from file://.
    ``docs``: the index's entries, or their ``vocabulary``."""
    counts = docs if isinstance(docs, Counter) else vocabulary(docs)
    # stop words too: they shape the split, then are dropped
    words = {w: n for w, n in sorted(counts.items()) if _WORD.match(w)}
    latin = {w: n for w, n in sorted(counts.items()) if not _WORD.match(w)}
    data = json.dumps(words, ensure_ascii=False, separators=(",", ":"))
    spelled = json.dumps(latin, separators=(",", ":"))
    stops = json.dumps(sorted(stop), ensure_ascii=False, separators=(",", ":"))
    known = json.dumps(list(messages), ensure_ascii=False, separators=(",", ":"))
    return (f"window.__pnVocabulary={data};window.__pnLatin={spelled};window.__pnStopWords={stops};"
            f"window.__pnMessages={known};window.__pnMaxWord={MAX_WORD};\n")


# --- the course's terms as words of jieba's dictionary ---------------------------------------------------
# jieba splits terms it does not know (自动求导 -> 自动 求导, 叶子节点 -> 叶子 节点), so a chapter's title would be
# no word of the index and typing it would rank another chapter first. The Chinese terms of the glossary
# (docs/zh/glossary.md, first column) are given to jieba from this file (``load_user_dictionary``);
# tests/site/test_search_words.py keeps it equal to the glossary.
USER_DICTIONARY = Path(__file__).with_name("search_words.txt")
_TERM_CELL = re.compile(r"^\|\s*([^|]+?)\s*\|")


def load_user_dictionary() -> None:
    """Give jieba, Material's Chinese segmenter, the course's terms (``USER_DICTIONARY``), loading its own
    dictionary first; nothing without jieba. Called before a process indexes its first page
    (``buildcache.install``) and while ``make serve`` is idle, not from Material's ``jieba_dict_user``
    option, which loads the dictionary on every build although a warm build takes every page's entries
    from the cache. Loading the words again adds nothing."""
    try:
        import jieba  # noqa: PLC0415 - Material's optional Chinese segmenter
    except ImportError:
        return
    jieba.load_userdict(str(USER_DICTIONARY))


def glossary_terms(glossary_md: str) -> list[str]:
    """The Chinese words (two Han characters or more) of the first column of the glossary's tables,
    sorted: ``索引 / 切片`` gives 索引 and 切片; ``连续（内存布局）`` gives 连续 and 内存布局."""
    words, lines = set(), glossary_md.splitlines()
    for i, line in enumerate(lines):
        m = _TERM_CELL.match(line)
        header = i + 1 < len(lines) and lines[i + 1].lstrip().startswith("| ---")
        if m and not header:
            words.update(w for w in _WORD.findall(m.group(1)) if len(w) >= 2)
    return sorted(words)


def user_dictionary_text(glossary_md: str) -> str:
    """The text of ``USER_DICTIONARY``: one word per line (jieba's user-dictionary format)."""
    return "".join(f"{w}\n" for w in glossary_terms(glossary_md))


if __name__ == "__main__":  # regenerate: .venv/bin/python -m pytorch_notes.site.searchwords, from the checkout
    USER_DICTIONARY.write_text(user_dictionary_text(Path("docs/zh/glossary.md").read_text(encoding="utf-8")),
                               encoding="utf-8")
    print(f"wrote {USER_DICTIONARY}")
