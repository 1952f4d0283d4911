"""The messages a page quotes (error messages, warnings, commands), for the search box to recognise when a
reader pastes one.

A pasted message is many common words ("Torch not compiled with CUDA enabled": torch, compile*, CUDA), and
the page that explains it lost to pages that use those words often (``torch.compile`` everywhere). The
build lists, per language, every message the index holds: a line of inline code or of an output's
searched messages (``render.templating.searched_output``) that reads as words, not as code; the error's or
warning's text after its class name. ``docs/assets/search-query.js`` looks for the longest run of a known
message's words in the query and, when it is long enough, searches for those words as required terms
(lunr's ``+``), so that the sections quoting the message are the results.

Each message is kept as its words: lower case, split where Material's separator splits, without numbers
(shapes and sizes differ between a reader's error and the page's), shape words such as ``8x3`` and
one-letter words.
"""

from __future__ import annotations

import html
import re

_CODE = re.compile(r"<code>(.*?)</code>", re.S)
_MESSAGE = re.compile(r"\b[A-Z]\w*(?:Error|Warning|Exception)\b:\s*(.+)")
# a line of code rather than a message: a call, an assignment, a comment, a keyword of a statement
_CODE_LINE = re.compile(r"\w\(|[=#{}\[\]]|->|^\s*(?:print|import|from|return|def|class|for|if|elif|else|while|"
                        r"with|lambda|assert|raise|try|except)\b")
_SPLIT = re.compile(r"[^a-z0-9_]+")
_SHAPE = re.compile(r"\d+(?:x\d+)*")
MIN_WORDS = 4
MAX_WORDS = 30
WORD_SHARE = 0.7  # of the line's whitespace-separated tokens that must be words


def message_words(text: str) -> list[str]:
    """``text``'s words as messages keep them (module docstring); ``search-query.js``'s messageWords splits a
    query the same way."""
    return [w for w in _SPLIT.split(text.lower()) if len(w) > 1 and not _SHAPE.fullmatch(w)]


def messages(docs: list[dict]) -> list[str]:
    """The distinct messages of a language's search entries (``{"text": html, ...}``), each as its words
    joined by spaces, at most ``MAX_WORDS`` words, sorted."""
    found: set[str] = set()
    for doc in docs:
        for block in _CODE.findall(doc.get("text", "")):
            for line in html.unescape(re.sub(r"<[^>]+>", "", block)).split("\n"):
                if m := _MESSAGE.search(line):
                    line = m.group(1)
                elif _CODE_LINE.search(line):
                    continue
                words = message_words(line)
                if len(words) >= MIN_WORDS and len(words) >= WORD_SHARE * len(line.split()):
                    found.add(" ".join(words[:MAX_WORDS]))
    return sorted(found)
