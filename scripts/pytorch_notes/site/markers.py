"""Marker lines: an HTML comment alone on a line of a page (``<!-- course-map -->``,
``<!-- computation-times -->``) that the build replaces with what it derives (``coursemap``, ``times``).
A marker inside a fenced code block stays, so a page can show the syntax itself."""

from __future__ import annotations

import re
from collections.abc import Callable

_FENCE = re.compile(r"^\s*(`{3,}|~{3,})")


def replace_marker_lines(markdown: str, marker: str, make: Callable[[], str]) -> tuple[str, bool]:
    """``markdown`` with each line that holds ``marker`` alone (blanks around it allowed), outside fenced
    code blocks (``` or ~~~; a fence closes at a line of at least as many of the same character), replaced
    by ``make()``, called once, at the first such line; and whether any line was. Lines are split and
    joined on ``\\n``, so the rest of ``markdown`` is unchanged, byte for byte."""
    if marker not in markdown:
        return markdown, False
    lines, fence, made = markdown.split("\n"), "", None
    for i, line in enumerate(lines):
        if m := _FENCE.match(line):
            mark = m.group(1)
            if not fence:
                fence = mark
            elif mark[0] == fence[0] and len(mark) >= len(fence):
                fence = ""
        elif not fence and line.strip() == marker:
            if made is None:
                made = make()
            lines[i] = made
    return "\n".join(lines), made is not None
