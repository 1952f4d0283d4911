"""One owner of the UI strings: ``render/strings.py`` holds every reader-visible string the build writes, in
every language, and no other module of the build (``site/``, ``render/``) keeps a string table of its own."""

from __future__ import annotations

import ast
import re
import string
from pathlib import Path

from pytorch_notes.render.strings import STRINGS, both, plural, ui
from pytorch_notes.settings import LANGUAGES

PACKAGE = Path(__file__).resolve().parents[2] / "scripts" / "pytorch_notes"
OWNER = PACKAGE / "render" / "strings.py"
# Han characters and CJK or full-width punctuation: text a Chinese reader is meant to read
CHINESE = re.compile(r"[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]")

# Chinese in a string literal that is not UI text, each with why: (module, the literal's start)
NOT_UI = {
    ("site/coursemap.py", ":1: no `description:`"),  # a build warning to the author, quoting an example
    ("site/coursemap.py", "。."),  # the full stops stripped from a page's description
    ("site/searchwords.py", "\u3400-"),  # the Han ranges of a regular expression
}


def _placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_every_key_in_every_language():
    assert list(STRINGS) == list(LANGUAGES)
    keys = {lang: set(t) for lang, t in STRINGS.items()}
    for lang in LANGUAGES:
        first = keys[LANGUAGES[0]]
        assert keys[lang] == first, f"{lang} lacks {sorted(first - keys[lang])}, has extra {sorted(keys[lang] - first)}"


def test_same_placeholders_in_every_language():
    for key, text in STRINGS[LANGUAGES[0]].items():
        for lang in LANGUAGES[1:]:
            assert _placeholders(STRINGS[lang][key]) == _placeholders(text), f"{key}: {lang} vs {LANGUAGES[0]}"


def test_chinese_conventions():
    """A space between Chinese and Latin text or digits (a placeholder counts as Latin: it holds numbers,
    names, dates; ``{changed}`` holds 中文 or 英文), no half-width sentence punctuation after Chinese text."""
    for key, text in STRINGS["zh"].items():
        plain = re.sub(r"<[^>]+>|`[^`]*`", "", text).replace("{changed}", STRINGS["zh"]["lang_en"])
        assert not re.search(r"[\u4e00-\u9fff][A-Za-z0-9{]|[A-Za-z0-9}][\u4e00-\u9fff]", plain), key
        assert not re.search(r"[\u4e00-\u9fff][,.;:!?()]", plain), key


def test_helpers():
    assert ui("zh") is STRINGS["zh"] and ui("fr") is STRINGS["en"]
    assert plural(STRINGS["en"], "examples", 1) == "1 example"
    assert plural(STRINGS["en"], "examples", 2).format(n=2) == "2 examples"
    assert both("py_explained") == "讲解 · Explained"
    assert STRINGS["zh"]["open_colab"] == "在 Colab 中打开"


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def ui_text_outside_owner(sources: dict[str, str]) -> list[str]:
    """Chinese string literals (docstrings aside) not in ``NOT_UI``, and dicts keyed by a language code,
    in ``sources`` (module path relative to the package -> its source)."""
    found = []
    for rel, source in sources.items():
        tree = ast.parse(source)
        docs = _docstrings(tree)
        for node in ast.walk(tree):
            if (isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs
                    and CHINESE.search(node.value)
                    and not any(rel == m and node.value.startswith(s) for m, s in NOT_UI)):
                found.append(f"{rel}:{node.lineno}: {node.value[:40]!r}")
            if isinstance(node, ast.Dict) and any(isinstance(k, ast.Constant) and k.value in LANGUAGES
                                                  for k in node.keys):
                found.append(f"{rel}:{node.lineno}: a dict keyed by language")
    return found


def _build_sources() -> dict[str, str]:
    return {p.relative_to(PACKAGE).as_posix(): p.read_text(encoding="utf-8")
            for folder in ("site", "render") for p in sorted((PACKAGE / folder).glob("*.py")) if p != OWNER}


def test_no_ui_strings_outside_the_owner():
    assert ui_text_outside_owner(_build_sources()) == [], "UI strings belong in render/strings.py"


def test_the_scan_finds_a_table():
    """The scan sees what it is for: a language-keyed table and a Chinese label in a site module."""
    found = ui_text_outside_owner({"site/x.py": 'LABEL = {"zh": "示例", "en": "Examples"}\nA = "下载"\n'})
    assert len(found) == 3 and "a dict keyed by language" in found[0]
    assert ui_text_outside_owner({"site/x.py": '"""文档 docstring"""\n# 注释\n'}) == []
