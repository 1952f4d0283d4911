"""Chinese pages follow common Chinese technical-writing conventions (checked by autocorrect).

autocorrect (https://github.com/huacnlee/autocorrect) adds spaces between CJK and Latin
text and turns half-width punctuation in Chinese prose into full-width; a page passes when
autocorrect would change nothing. The check lives in scripts/typesetting.py (also run by pre-commit).
"""

from __future__ import annotations

import pytest
from pytorch_notes import scaffold, typesetting
from pytorch_notes.pages import language_pages

ZH_PAGES = language_pages("zh")


@pytest.mark.parametrize("name", sorted(ZH_PAGES))
def test_chinese_page_is_typeset(name):
    found = typesetting.problems(ZH_PAGES[name])
    assert not found, "Chinese typesetting (spaces between CJK and Latin, full-width punctuation):\n" + \
        "\n".join(found)


def test_checker_can_fail(tmp_path, capsys):
    page = tmp_path / "bad.md"
    page.write_text("# 标题\n\n使用PyTorch的张量,很方便.\n", encoding="utf-8")
    assert typesetting.main([str(page)]) == 1
    out = capsys.readouterr().out
    assert "bad.md:3: 使用PyTorch的张量,很方便." in out and "+使用 PyTorch 的张量，很方便。" in out
    assert typesetting.main(["--fix", str(page)]) == 0
    assert typesetting.main([str(page)]) == 0


def test_scaffolded_chinese_page_is_typeset(tmp_path):
    page = tmp_path / "x.md"
    page.write_text(scaffold.PAGE_ZH.format(title="注意力", slug="attention"), encoding="utf-8")
    assert typesetting.problems(page) == []
