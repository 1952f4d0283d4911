"""CONTRIBUTING maps the code to its stages (issue 28, item 7): every module of the pipeline package and
every test file is named in the layout tables of both languages, so the map cannot silently fall behind."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "scripts" / "pytorch_notes"
TABLES = {  # language -> (header of the modules table, header of the tests table)
    "zh": ("| 阶段 | 模块 | 做什么 |", "| 阶段 | 测试文件 |"),
    "en": ("| stage | module | what it does |", "| stage | test files |"),
}


def _table(text: str, header: str) -> str:
    """The Markdown table that starts with ``header`` (up to the first blank line)."""
    start = text.index(header)
    return text[start:text.index("\n\n", start)]


def _halves() -> dict[str, str]:
    zh, en = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8").split("\n## English\n", 1)
    return {"zh": zh, "en": en}


def _named(table: str) -> set[str]:
    """Module names in a table: ``site/plugin.py`` and, for the files listed beside it, ``channels.py``;
    a package (``capture/``) names every module under it."""
    return set(re.findall(r"`([\w/]+(?:\.py|/))`", table))


def _listed(module: str, named: set[str]) -> bool:
    folder = module.rsplit("/", 1)[0] + "/" if "/" in module else None
    return module in named or Path(module).name in {Path(n).name for n in named} or folder in named


@pytest.mark.parametrize("lang", TABLES)
def test_every_module_is_in_the_layout_table(lang):
    named = _named(_table(_halves()[lang], TABLES[lang][0]))
    modules = sorted(p.relative_to(PACKAGE).as_posix() for p in PACKAGE.rglob("*.py") if p.name != "__init__.py")
    assert len(modules) > 40
    missing = [m for m in modules if not _listed(m, named)]
    assert not missing, f"CONTRIBUTING ({lang}) does not place these modules in a stage: {missing}"


@pytest.mark.parametrize("lang", TABLES)
def test_every_test_file_is_in_the_tests_table(lang):
    named = set(re.findall(r"test_\w+\.py", _table(_halves()[lang], TABLES[lang][1])))
    files = {p.name for p in (ROOT / "tests").rglob("test_*.py") if "fixtures" not in p.parts}
    unplaced = sorted(files - named)
    assert not unplaced, f"CONTRIBUTING ({lang}) does not place these test files in a stage: {unplaced}"
    assert not named - files, f"CONTRIBUTING ({lang}) names test files that do not exist: {sorted(named - files)}"
