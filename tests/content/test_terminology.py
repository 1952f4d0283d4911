"""Chinese terminology follows the glossary (docs/zh/glossary.md).

The glossary's section "常见的其他译法" lists, for a term, the rendering this course uses and the
other renderings found elsewhere, one line each::

    - leaf tensor：叶子节点，也写作叶节点、叶子张量。

Every rendering after "也写作" or "也称" (separated by "、" or "或") is a variant: it must not
appear in the Chinese prose of docs/zh/*.md (fenced code, inline code and HTML comments aside; the
glossary itself names them). "也常直接写作 epoch" records a usage, not a variant. Text inside Chinese
quotes “…” is exempt: quoting a word (the notes' wording in a correction box, say) mentions it
rather than uses it; so is a cited title (references.md keeps the titles as the notes give them).
Chinese text quotes with “…”, never 「…」, and the typos of the original notes never appear
anywhere in docs/.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pytorch_notes.pages import language_pages, prose_lines
from pytorch_notes.settings import DOCS_DIR

GLOSSARY = DOCS_DIR / "zh" / "glossary.md"
SECTION = "## 常见的其他译法"
_ITEM_RE = re.compile(r"^- (?P<en>[^：]+)：(?P<preferred>[^，。]+)，(?P<rest>.+?)。?$")

# Renderings the glossary list cannot express as a whole word: "原地" in any compound (原地修改,
# 原地加法) is the "原地操作" of the list.
EXTRA_VARIANTS = {"原地": "就地"}
# Typos of the original notes (/work/shared/seeds): wrong everywhere, code and English pages included.
ALWAYS_WRONG = {"方向传播": "反向传播", "所有才": "所以才", "公用": "共用"}
_CODE_SPAN_RE = re.compile(r"(`+)(?:(?!\1).)+?\1")
_QUOTED_RE = re.compile(r"“[^”]*”")
_LINK_TARGET_RE = re.compile(r"\]\([^)]*\)")
# A cited title (a list item's text before its link, "1. 用例子学习 PyTorch：<https://…>") is quoted verbatim.
_CITED_RE = re.compile(r"^(\s*(?:\d+\.|[-*])\s+).*?(：\s*<https?://)")


def glossary_variants(text: str) -> dict[str, str]:
    """variant -> the rendering the course uses, from the glossary's list of other renderings."""
    if SECTION not in text:
        raise AssertionError(f"{GLOSSARY}: no section {SECTION!r}")
    found: dict[str, str] = {}
    for line in text.split(SECTION, 1)[1].split("\n## ", 1)[0].splitlines():
        m = _ITEM_RE.match(line.strip())
        if not m:
            continue
        preferred = m.group("preferred").strip()
        for clause in m.group("rest").split("；"):
            clause = clause.strip()
            for lead in ("也写作", "也称"):
                if clause.startswith(lead):
                    for variant in re.split(r"、|或", clause[len(lead):]):
                        if variant.strip():
                            found[variant.strip()] = preferred
    return found


def prose(markdown: str):
    """(line number, Chinese prose of the line): no fenced or inline code, link targets, or “quoted” text."""
    for n, line in prose_lines(markdown):
        if line.lstrip().startswith("::: example"):
            continue
        text = _LINK_TARGET_RE.sub("]()", _CODE_SPAN_RE.sub("", _CITED_RE.sub(r"\1\2", line)))
        yield n, _QUOTED_RE.sub("“”", text)


def variant_problems(page: str, markdown: str, variants: dict[str, str]) -> list[str]:
    found = []
    for n, text in prose(markdown):
        # an occurrence inside a preferred term is not a variant; a longer variant is named, not its part
        for preferred in set(variants.values()):
            text = text.replace(preferred, "\0" * len(preferred))
        for variant in sorted(variants, key=len, reverse=True):
            if variant in text:
                found.append(f"{page}:{n}: {variant!r}: the course writes {variants[variant]!r} "
                             "(docs/zh/glossary.md)")
                text = text.replace(variant, "\0" * len(variant))
        if "「" in text or "」" in text:
            found.append(f"{page}:{n}: 「…」: Chinese text quotes with “…” (docs/zh/glossary.md)")
    return found


def test_glossary_lists_the_variants():
    variants = glossary_variants(GLOSSARY.read_text(encoding="utf-8"))
    for variant, preferred in {"叶节点": "叶子节点", "叶子张量": "叶子节点", "原地操作": "就地操作",
                               "梯度累积": "梯度累加", "例子": "示例"}.items():
        assert variants.get(variant) == preferred, (variant, variants)
    assert "epoch" not in variants, "'也常直接写作 epoch' records a usage, not a variant"


@pytest.mark.parametrize("name", sorted(n for n in language_pages("zh") if n != "glossary.md"))
def test_chinese_pages_use_the_glossary_terms(name):
    variants = {**glossary_variants(GLOSSARY.read_text(encoding="utf-8")), **EXTRA_VARIANTS}
    page = f"docs/zh/{name}"
    found = variant_problems(page, (DOCS_DIR / "zh" / name).read_text(encoding="utf-8"), variants)
    assert not found, "\n".join(found)


def test_the_glossary_quotes_with_chinese_quotes():
    assert variant_problems("docs/zh/glossary.md", GLOSSARY.read_text(encoding="utf-8"), {}) == []


def test_the_check_finds_variants_and_allows_quotes_and_code():
    variants = {"叶节点": "叶子节点", "例子": "示例", **EXTRA_VARIANTS}
    page = ("# 标题\n\n叶节点的梯度。\n\n例如 `叶节点` 和“例子”都不算。\n\n```python\n# 叶节点\n```\n\n"
            "原地修改张量。\n\n「引号」\n\n1. 用例子学习 PyTorch：<https://example.org/>\n")
    assert variant_problems("p.md", page, variants) == [
        "p.md:3: '叶节点': the course writes '叶子节点' (docs/zh/glossary.md)",
        "p.md:11: '原地': the course writes '就地' (docs/zh/glossary.md)",
        "p.md:13: 「…」: Chinese text quotes with “…” (docs/zh/glossary.md)",
    ]


def typo_problems(page: str, text: str) -> list[str]:
    return [f"{page}:{n}: {typo!r} (a typo of the notes): {right!r}"
            for n, line in enumerate(text.splitlines(), start=1)
            for typo, right in ALWAYS_WRONG.items() if typo in line]


def test_typos_of_the_notes_appear_nowhere_in_docs():
    assert typo_problems("p.md", "# 标题\n\n`方向传播`\n") == ["p.md:3: '方向传播' (a typo of the notes): '反向传播'"]
    found = []
    for path in sorted(DOCS_DIR.rglob("*.md")):
        found += typo_problems(Path(path).relative_to(DOCS_DIR.parent).as_posix(), path.read_text(encoding="utf-8"))
    assert not found, "\n".join(found)
