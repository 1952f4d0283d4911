"""Which characters an example's source and its outputs may hold, and where a line ends: the one owner of
the policy. ``parse.py`` refuses an example that holds a refused character; ``store/untrusted.py`` (and
through it the renderer, the notebooks and the search index) shows one found in an output; terminals
see it escaped. Standard library only, and no import of the package: every stage may use it.

A line ends where Python's tokenizer ends it: at ``\\n``, ``\\r\\n`` or ``\\r``, nowhere else
(``python_lines``). ``str.splitlines`` also ends lines at U+2028, U+2029, U+0085, form feed, vertical tab
and ``\\x1c``-``\\x1e``: inside a comment such a character would hide a line from a reader (or show one)
that Python runs the other way.

Refused (``REFUSED_CLASS``) are the characters a reader cannot see, or that move what they see: every
control character but tab, newline and carriage return (Unicode category Cc: C0, DEL, C1, form feed,
vertical tab, NEL), every format character (Cf: the bidi embeddings, overrides, isolates and marks of
"Trojan Source", CVE-2021-42574, zero-width spaces and joiners, U+2060-U+2064, U+FEFF, the soft hyphen,
the tag characters), the line and paragraph separators (Zl, Zp), and the rest of Unicode's
Default_Ignorable_Code_Point list (variation selectors U+FE00-U+FE0F and U+E0100-U+E01EF, the Hangul
fillers, U+034F, U+180B-U+180F, ...): characters a renderer draws as nothing. They are refused anywhere in
an example, inside a string literal too: a string that needs one writes its escape (``"\\u200b"``), which
Python reads the same and everyone sees.
"""

from __future__ import annotations

import functools
import re
import unicodedata

# Every character of categories Cc (but tab, newline, carriage return), Cf, Zl and Zp, and Unicode's
# Default_Ignorable_Code_Point list (DerivedCoreProperties.txt), as ranges of code points: written out, since
# scanning ``unicodedata`` at import cost ~40 ms; tests/parse/test_characters.py checks them against ``unicodedata``
# over every plane.
REFUSED_RANGES = (
    (0x0000, 0x0008), (0x000B, 0x000C), (0x000E, 0x001F), (0x007F, 0x009F), (0x00AD, 0x00AD), (0x034F, 0x034F),
    (0x0600, 0x0605), (0x061C, 0x061C), (0x06DD, 0x06DD), (0x070F, 0x070F), (0x0890, 0x0891), (0x08E2, 0x08E2),
    (0x115F, 0x1160), (0x17B4, 0x17B5), (0x180B, 0x180F), (0x200B, 0x200F), (0x2028, 0x202E), (0x2060, 0x206F),
    (0x3164, 0x3164), (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFFB), (0x110BD, 0x110BD),
    (0x110CD, 0x110CD), (0x13430, 0x1343F), (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF))
_NAMES = {0x00: "NULL", 0x08: "BACKSPACE", 0x0B: "LINE TABULATION (vertical tab)", 0x0C: "FORM FEED",
          0x1B: "ESCAPE", 0x1C: "FILE SEPARATOR", 0x1D: "GROUP SEPARATOR", 0x1E: "RECORD SEPARATOR",
          0x7F: "DELETE", 0x85: "NEXT LINE"}


# The inside of a regular-expression character class (``[...]``) that matches every refused character.
REFUSED_CLASS = "".join(f"\\U{a:08x}" if a == b else f"\\U{a:08x}-\\U{b:08x}" for a, b in REFUSED_RANGES)
_REFUSED = re.compile(f"[{REFUSED_CLASS}]")
_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")


def is_refused(ch: str) -> bool:
    """Whether the one character ``ch`` is refused in an example (see the module)."""
    return _REFUSED.match(ch) is not None


def describe(ch: str) -> str:
    """``"U+202E RIGHT-TO-LEFT OVERRIDE"``: a character's code point and Unicode name (a control's usual name)."""
    name = _NAMES.get(ord(ch)) or unicodedata.name(ch, "") or (
        "a control character" if unicodedata.category(ch) == "Cc" else "no name")
    return f"U+{ord(ch):04X} {name}"


def python_lines(text: str, keepends: bool = False) -> list[str]:
    """``text`` split into lines where Python ends them (``\\n``, ``\\r\\n``, ``\\r``): ``str.splitlines``
    but for those three alone. ``""`` gives ``[]``; a last line without an end is a line."""
    lines = _LINE.findall(text)
    return lines if keepends else [ln.rstrip("\r\n") for ln in lines]


def python_newlines(text: str) -> str:
    """``text`` with every line end Python reads (``\\r\\n``, ``\\r``) written as ``\\n``."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


def first_refused(text: str) -> tuple[int, int, str] | None:
    """(line, column, character) of the first refused character of ``text``, both 1-based, lines counted as
    Python counts them (``python_lines``); None when there is none."""
    m = _REFUSED.search(text)
    if m is None:
        return None
    before = python_newlines(text[:m.start()])
    return before.count("\n") + 1, len(before) - before.rfind("\n"), m.group(0)


def refusal(ch: str, column: int) -> str:
    """Why an example holding ``ch`` at ``column`` is refused, and what to write instead (a message)."""
    return (f"{describe(ch)} at column {column}: a character Python and a reader's page, notebook or editor "
            f"may not agree on (an invisible, bidi or line-breaking character); remove it, or write "
            f"{_escape(ch)} inside a string")


def _escape(ch: str) -> str:
    cp = ord(ch)
    return f"\\x{cp:02x}" if cp < 0x100 else (f"\\u{cp:04x}" if cp < 0x10000 else f"\\U{cp:08x}")


def escaped(text: str, also: str = "") -> str:
    """``text`` with every refused character (and each of ``also``) written as its Python escape
    (``\\u202e``, ``\\x1b``): what a terminal shows instead of obeying it."""
    return _with(also).sub(lambda m: _escape(m.group(0)), text)


@functools.cache
def _with(also: str) -> re.Pattern:
    return re.compile(f"[{REFUSED_CLASS}{re.escape(also)}]") if also else _REFUSED


def shown(text: str) -> str:
    """``text`` with every refused character replaced by a visible mark, ``⟨U+200B⟩``: what a page, a
    notebook and the search index show of an output. Applying it again changes nothing."""
    return _REFUSED.sub(lambda m: f"⟨U+{ord(m.group(0)):04X}⟩", text)
