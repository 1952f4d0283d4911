"""Chinese pages follow common Chinese technical-writing conventions (checked by autocorrect).

autocorrect (https://github.com/huacnlee/autocorrect) adds spaces between CJK and Latin
text and turns half-width punctuation in Chinese prose into full-width; a page passes when
autocorrect would change nothing.
"""

from __future__ import annotations

import difflib

import autocorrect_py
import pytest
from pages import language_pages

ZH_PAGES = language_pages("zh")


@pytest.mark.parametrize("name", sorted(ZH_PAGES))
def test_chinese_page_is_typeset(name):
    text = ZH_PAGES[name].read_text(encoding="utf-8")
    fixed = autocorrect_py.format_for(text, "markdown")
    if fixed != text:
        bad = []
        for tag, i1, i2, _, _ in difflib.SequenceMatcher(None, text.splitlines(), fixed.splitlines()).get_opcodes():
            if tag != "equal":
                bad += [f"docs/zh/{name}:{n + 1}: {text.splitlines()[n].strip()[:80]}" for n in range(i1, i2)]
        fix = difflib.unified_diff(text.splitlines(), fixed.splitlines(), lineterm="", n=0)
        pytest.fail("Chinese typesetting (spaces between CJK and Latin, full-width punctuation):\n"
                    + "\n".join(bad[:20]) + "\nsuggested:\n" + "\n".join(list(fix)[:40]))


def test_checker_can_fail():
    assert autocorrect_py.format_for("使用PyTorch的张量,很方便.", "markdown") != "使用PyTorch的张量,很方便."
